"""Hand and match records: exported records follow the JSON Schema; export then import gives the same
scores and the same export, for every game; checking a record reports its irregularities, result and
scores; malformed and impossible records are refused naming the field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from scoring import services
from scoring.hands.records import RecordError, check
from scoring.models import Match, StoredEvent
from scoring.rules import game_names, get_game, move_to_dict
from scoring.selectors import hand_export, match_export, match_sheet
from tests.scoring.api_support import (
    NAMES,
    People,
    client_for,
    engine_record,
    play,
    play_irregular,
    service_record,
    side_scores,
)

GAMES = game_names()
SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "record-format.schema.json").read_text())
validator = jsonschema.Draft202012Validator(SCHEMA)


def recorded_match(people: People, name: str) -> tuple[Match, int]:
    """Two hands as a club records them: the first with the deal, an irregular card, an undone move and
    the director's ruling; the second (when the match goes on) without the deal."""
    game = get_game(name)
    match = services.match_create(
        club=people.club,
        game=name,
        seats=list(NAMES[: game.seat_counts[0]]),
        actor=people.director,
        scorers=[people.scorer],
    )
    hand = match.hands.get(number=1)
    played = play_irregular(hand, seed=5)
    at = played.irregular_at
    assert at is not None
    hand = service_record(hand, played.moves[: at + 2], actor=people.scorer)
    hand = services.move_undo(hand=hand, expected_version=hand.version, actor=people.scorer, reason="typo")
    hand = service_record(hand, played.moves[at + 1 :], actor=people.scorer)
    offender = played.moves[at].seat
    assert offender is not None
    penalty = side_scores(played.game.result(played.final), offender, 1)
    services.ruling_record(
        hand=hand,
        refs=[at + 2],
        rule="revoke",
        reason="admitted",
        expected_version=hand.version,
        rectification={"kind": "penalty", "scores": penalty},
        actor=people.director,
    )
    match.refresh_from_db()
    if match.status == Match.Status.OPEN:
        second = services.hand_start(match=match, actor=people.scorer)
        blind = play(second, seed=6)
        service_record(second, game.moves_only(blind.moves), actor=people.scorer)
    match.refresh_from_db()
    return match, at


@pytest.mark.django_db
@pytest.mark.parametrize("name", GAMES)
def test_exported_records_follow_the_schema(people: People, name: str) -> None:
    match, _ = recorded_match(people, name)

    records = [match_export(match)] + [hand_export(h) for h in match.hands.order_by("number")]

    for record in records:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(record)]
        assert errors == []
    assert records[0]["hands"][0]["moves"][-1]["type"] == "ruling"


@pytest.mark.django_db
@pytest.mark.parametrize("name", GAMES)
def test_export_then_import_gives_the_same_scores_and_the_same_export(people: People, name: str) -> None:
    match, _ = recorded_match(people, name)
    exported = match_export(match)

    copy_ = services.match_import(club=people.club, record=exported, actor=people.director)

    assert match_export(copy_) == exported
    assert match_sheet(copy_) == match_sheet(match)
    assert copy_.sheet == match.sheet
    assert [(h.status, h.flagged, h.result) for h in copy_.hands.all()] == [
        (h.status, h.flagged, h.result) for h in match.hands.all()
    ]
    hand = match.hands.get(number=1)
    single = services.match_import(club=people.club, record=hand_export(hand), actor=people.director)
    assert hand_export(single.hands.get()) == hand_export(hand)
    assert single.hands.get().result == hand.result


@pytest.mark.django_db
@pytest.mark.parametrize("name", GAMES)
def test_checking_a_record_gives_what_the_stored_match_shows(people: People, name: str) -> None:
    match, at = recorded_match(people, name)

    report = check(match_export(match))

    sheet = match_sheet(match)
    assert report["scores"] == sheet["totals"]
    assert report["match"]["rows"] == sheet["rows"]
    hand = match.hands.get(number=1)
    first = report["hands"][0]
    assert first["scores"] == hand.result["scores"]
    assert first["legal"] is False and report["legal"] is False
    irregular = first["irregularities"][0]
    # The engine's move i (the deal is 0) is moves[i - 1] in the record; the undone move is left out.
    assert irregular["move"] == at - 1
    assert irregular["ruled"] is True and irregular["stands"] is True
    assert set(irregular) >= {"move", "seat", "rule", "message"}


@pytest.mark.parametrize("name", GAMES)
def test_check_points_at_the_irregular_move_by_its_index(name: str) -> None:
    game = get_game(name)
    record, at = engine_record(name, irregular=True)

    report = check(record)

    assert report["legal"] is False
    assert report["irregularities"][0]["move"] == at - 1  # moves[i] is the engine's move i + 1
    assert report["irregularities"][0]["ruled"] is False
    assert report["result"] is not None
    assert len(report["scores"]) == len(record["seats"])
    assert report["unit"] == game.score_unit


def test_scores_in_thirds_or_halves_are_exact_strings() -> None:
    for name in GAMES:
        for seed in range(40):
            record, _ = engine_record(name, seed=seed)
            report = check(record)
            fractions = [s for s in report["scores"] if isinstance(s, str)]
            if fractions:
                assert all(Fraction(s).denominator > 1 for s in fractions)
                assert all("/" in s for s in fractions)
                return
    pytest.skip("no registered game scored a fraction in these hands")


Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    def change(record: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = record
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        if value is KeyError:
            del target[last]
        elif last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value

    return change


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (_set("format", "segnapunti.something"), "record.malformed", "format"),
        (_set("format_version", 2), "record.version", "format_version"),
        (_set("game", KeyError), "record.malformed", "game"),
        (_set("seats", "Anna"), "record.malformed", "seats"),
        (_set("dealer", "Anna"), "record.malformed", "dealer"),
        (_set("direction", "sideways"), "record.malformed", "direction"),
        (_set("options", {"no_such_option": 1}), "options.unknown", "no_such_option"),
        (_set("moves", {}), "record.malformed", "moves"),
        (_set("moves.0", {"type": "play", "seat": 0}), "record.malformed", "moves[0].card"),
        (
            _set(
                "moves.1", {"type": "ruling", "refs": [5], "rule": "x", "rectification": {"kind": "stands"}}
            ),
            "record.malformed",
            "moves[1].refs",
        ),
        (
            _set("moves.1", {"type": "ruling", "refs": [0], "rule": "x", "rectification": {"kind": "nope"}}),
            "ruling.malformed",
            "moves[1].rectification",
        ),
        (_set("deal", KeyError), "record.malformed", "deal"),
    ],
)
def test_a_malformed_record_is_refused_naming_the_field(change: Mutation, code: str, field: str) -> None:
    record, _ = engine_record(GAMES[0])
    change(record)

    with pytest.raises(RecordError) as caught:
        check(record)

    assert (caught.value.code, caught.value.field, caught.value.malformed) == (code, field, True)


def test_an_impossible_record_names_the_move() -> None:
    record, _ = engine_record(GAMES[0])
    index = next(i for i, m in enumerate(record["moves"]) if m["type"] == "play")
    later = next(i for i, m in enumerate(record["moves"]) if i > index and m["type"] == "play")
    record["moves"][later] = {**record["moves"][later], "card": record["moves"][index]["card"]}

    with pytest.raises(RecordError) as caught:
        check(record)

    assert caught.value.malformed is False
    assert caught.value.field == f"moves[{later}].card"
    assert caught.value.code in {"card.gone", "card.not_held"}
    assert f"moves[{later}]" in caught.value.message


def test_a_refused_option_keeps_the_engines_template_and_params() -> None:
    record, _ = engine_record(GAMES[0])
    _set("options", {"strict": "yes"})(record)

    with pytest.raises(RecordError) as caught:
        check(record)

    assert caught.value.params == {"option": "strict"}
    assert caught.value.template == "option '{option}' must be true or false"
    assert caught.value.message == "option 'strict' must be true or false"


def test_the_schema_refuses_what_the_loader_refuses() -> None:
    record, _ = engine_record(GAMES[0])
    assert validator.is_valid(record)
    for change in (_set("format_version", 2), _set("game", KeyError), _set("moves.0.card", "1Z")):
        broken = copy.deepcopy(record)
        change(broken)
        assert not validator.is_valid(broken)


@pytest.mark.django_db
def test_a_ruling_on_the_deal_is_exported_with_index_minus_one(people: People) -> None:
    name = GAMES[0]
    game = get_game(name)
    match = services.match_create(
        club=people.club, game=name, seats=list(NAMES[: game.seat_counts[0]]), actor=people.director
    )
    hand = match.hands.get()
    typed, meant = play(hand, seed=1).moves[0], play(hand, seed=2).moves[0]
    hand = service_record(hand, [typed], actor=people.director)
    services.ruling_record(
        hand=hand,
        refs=[2],
        rule="deal",
        reason="hands keyed for the wrong deal",
        expected_version=hand.version,
        rectification={"kind": "replace_move", "move": move_to_dict(meant)},
        actor=people.director,
    )
    hand.refresh_from_db()

    exported = hand_export(hand)

    assert exported["moves"][-1]["refs"] == [-1]
    assert validator.is_valid(exported)
    again = services.match_import(club=people.club, record=exported, actor=people.director)
    assert hand_export(again.hands.get()) == exported
    assert check(exported)["finished"] is False


@pytest.mark.django_db
def test_the_api_imports_a_record_checked_move_by_move(people: People) -> None:
    director = client_for(people.director)
    record, _ = engine_record(GAMES[0], irregular=True)
    matches = Match.objects.count()

    created = director.post("/api/records/import/", {"club": people.club.pk, "record": record}, format="json")

    assert created.status_code == 201, created.json()
    assert Match.objects.count() == matches + 1
    assert created.json()["hands"][0]["flagged"] is True
    exported = director.get(f"/api/matches/{created.json()['id']}/hands/1/record/").json()
    assert exported == {**record, "options": {}, "direction": "anticlockwise"}
    checked = director.post("/api/records/check/", {"record": record}, format="json")
    assert checked.status_code == 200 and checked.json() == check(record)


@pytest.mark.django_db
def test_the_api_refuses_a_malformed_or_impossible_record_and_creates_nothing(people: People) -> None:
    director = client_for(people.director)
    record, _ = engine_record(GAMES[0])
    impossible = copy.deepcopy(record)
    impossible["moves"][1] = dict(impossible["moves"][0])
    matches, events = Match.objects.count(), StoredEvent.objects.count()

    malformed = director.post(
        "/api/records/import/", {"club": people.club.pk, "record": {**record, "seats": 3}}, format="json"
    )
    refused = director.post(
        "/api/records/import/", {"club": people.club.pk, "record": impossible}, format="json"
    )

    assert malformed.status_code == 400 and malformed.json()["field"] == "seats"
    assert refused.status_code == 422 and refused.json()["field"].startswith("moves[1]")
    assert (Match.objects.count(), StoredEvent.objects.count()) == (matches, events)


@pytest.mark.django_db
def test_export_leaves_undone_moves_out(people: People) -> None:
    name = GAMES[0]
    match = services.match_create(
        club=people.club, game=name, seats=list(NAMES[: get_game(name).seat_counts[0]]), actor=people.director
    )
    hand = match.hands.get()
    moves = play(hand, seed=4).moves
    hand = service_record(hand, moves[:3], actor=people.director)
    hand = services.move_undo(hand=hand, expected_version=hand.version, actor=people.director)
    hand = service_record(hand, moves[2:4], actor=people.director)

    exported = hand_export(hand)

    assert exported["moves"] == [move_to_dict(m) for m in moves[1:4]]
