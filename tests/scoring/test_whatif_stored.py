"""What if, for a match the service keeps (selectors.match_rescore): the recorded side is what the service
stored with each hand, the what-if side one fold of the hands' log entries. Held to the record file's
comparison (scoring.hands.whatif.rescore, which folds both sides from the record): the same answer,
refusals named at the same hand and move, however the log was keyed (undone moves, rulings, a hand in
play); and under its own options a match is exactly its sheet."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import selectors, services
from scoring.hands import whatif
from scoring.hands.fold import Entry, MoveEntry, RulingEntry, UndoEntry
from scoring.hands.records import hand_body, parse_hand_body, record_entries
from scoring.hands.whatif import _hands, fold, rescore, rescore_logged
from scoring.log import store
from scoring.log.events import HandStarted, MoveRecorded, MoveUndone, RulingRecorded
from scoring.models import Hand, Match, StoredEvent
from scoring.rules import game_names, get_game
from scoring.rules.errors import MalformedMove
from scoring.rules.moves import PlayCard, move_from_dict, move_to_dict
from tests.scoring.api_support import People
from tests.scoring.hands.test_whatif import random_match, random_options
from tests.scoring.rules.playout import examples, play_random


def as_logged(entries: Sequence[Entry], rng: random.Random) -> list[Entry]:
    """A record's hand keyed as a table keys it: stream versions for positions (HandStarted is version 1),
    and now and then a move recorded by mistake and undone before the right one."""
    out: list[Entry] = []
    version = 1
    at: dict[int, int] = {}
    for e in entries:
        if isinstance(e, MoveEntry) and out and rng.random() < 0.2:
            version += 1
            out.append(MoveEntry(version, e.move, "someone"))  # taken back at once
            version += 1
            out.append(UndoEntry(version, version - 1, "wrong key", "someone"))
        version += 1
        at[e.position] = version
        if isinstance(e, RulingEntry):
            out.append(RulingEntry(version, tuple(at[r] for r in e.refs), e.rule, e.reason, e.rectification))
        else:
            assert isinstance(e, MoveEntry)
            out.append(MoveEntry(version, e.move, "someone"))
    return out


@settings(max_examples=examples(40), deadline=None)
@given(name=st.sampled_from(game_names()), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 3))
def test_the_logs_entries_give_the_record_files_answer(name: str, seed: int, hands: int) -> None:
    # Without the database: a match's hands as its log holds them (versions, undone moves) and the
    # results as stored, against the record file folded twice; refusals included.
    rng = random.Random(seed)
    recorded = random_options(name, rng)
    record = random_match(name, rng, hands, recorded)
    other = random_options(name, rng)
    game, options, seats, parsed = _hands(record)
    logged = [(dealer, as_logged(entries, rng)) for dealer, entries, _ in parsed]
    for (dealer, entries, _), (_, log) in zip(parsed, logged, strict=True):
        assert record_entries(log) == entries
        assert parse_hand_body(hand_body(dealer, log), "")[1] == entries
    recorded = fold(game, options, seats, parsed)  # the recorded side, as the service would store it
    stored = whatif.stored([h for h in recorded.hands if h is not None], sheet_of(recorded))

    assert rescore_logged(game, options, seats, logged, stored, other)[0] == rescore(record, other)


def test_record_entries_renumbers_rulings_refs() -> None:
    deal_and_two = random_match("hombre_it", random.Random(3), 1, {})["hands"][0]
    _, entries = parse_hand_body(deal_and_two, "")
    log = as_logged(entries, random.Random(0))
    last = log[-1].position
    ruled = [*log, RulingEntry(last + 1, (last,), "rule", "why", {"kind": "stands"}, "diana")]

    renumbered = record_entries(ruled)

    assert renumbered[-1] == RulingEntry(len(entries), (len(entries) - 1,), "rule", "why", {"kind": "stands"})


def stored_match(people: People, name: str, seed: int) -> Match:
    """A match imported from a random record (random options; a penalty ruled in its first hand), then,
    if it is not over, a hand started and played in part through the services with one move undone."""
    rng = random.Random(seed)
    record = random_match(name, rng, rng.randint(1, 3), random_options(name, rng))
    first = record["hands"][0]
    seats = len(record["seats"])
    first["moves"].append(
        {
            "type": "ruling",
            "refs": [len(first["moves"]) - 1],
            "rule": "74C",
            "reason": "a card shown",
            "rectification": {"kind": "penalty", "scores": [1] * seats},  # partners alike
        }
    )
    match = services.match_import(club=people.club, record=record, actor=people.director)
    if match.status == Match.Status.FINISHED:
        return match
    hand = services.hand_start(match=match, actor=people.director)
    game = get_game(name)
    view = selectors.hand_view(hand)
    play = play_random(
        game,
        rng,
        seats=seats,
        dealer=hand.dealer,
        options=dict(view.setup.options),
        context=dict(view.setup.context),
    )
    for i, move in enumerate(play.moves[:4]):
        outcome = services.move_record(
            hand=hand, move=move_to_dict(move), expected_version=hand.version, actor=people.director
        )
        hand = outcome.hand
        if i == 2:  # the third move taken back and keyed again
            hand = services.move_undo(hand=hand, expected_version=hand.version, actor=people.director)
            hand = services.move_record(
                hand=hand, move=move_to_dict(move), expected_version=hand.version, actor=people.director
            ).hand
    return match


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", game_names())
def test_a_stored_match_under_its_own_options_is_its_sheet_and_as_its_record_file(
    people: People, name: str, seed: int
) -> None:
    match = stored_match(people, name, seed)
    match.refresh_from_db()
    events = StoredEvent.objects.count()
    hands = list(match.hands.order_by("number"))

    report = selectors.match_rescore(match, {})

    assert report["what_if"] is True and report["official"] is False and report["refused"] is None
    assert not any(row["differs"] for row in report["hands"])
    assert report["totals"]["recorded"] == report["totals"]["what_if"] == match.sheet["totals"]
    assert report["winners"]["recorded"] == match.sheet["winners"]
    assert report["finished"]["recorded"] == match.sheet["finished"]
    stored = [h.result["scores"] if h.status == Hand.Status.OVER else None for h in hands]
    assert [row["recorded"]["scores"] for row in report["hands"]] == stored
    assert StoredEvent.objects.count() == events  # a read
    other = random_options(name, random.Random(seed))
    assert selectors.match_rescore(match, other) == rescore(selectors.match_export(match), other)


@pytest.mark.django_db
def test_a_refusal_is_named_in_the_records_numbering_not_by_log_version(people: People) -> None:
    # Barbù's early close (allowed by the seed's options) cannot stand under early_end "never": the
    # refusal names the close as the match's record numbers it, not by its version in the log (which
    # counts the HandStarted event, and would count moves undone before it).
    for seed in range(200):
        record = random_match("barbu", random.Random(seed), 3, {})
        if rescore(record, {"early_end": "never"})["refused"] is not None:
            break
    match = services.match_import(club=people.club, record=record, actor=people.director)
    hand = match.hands.get(number=1)
    events = store.read_stream(hand.stream_id)
    assert events[1].version == 2  # the deal: version 2 in the log, the record's "deal"

    answer = selectors.match_rescore(match, {"early_end": "never"})

    assert answer["refused"] == rescore(record, {"early_end": "never"})["refused"]
    refused = answer["refused"]
    assert refused is not None and refused["code"] == "phase.wrong"
    assert refused["field"].startswith(f"hands[{refused['hand']}].moves[{refused['move']}]")
    move = record["hands"][refused["hand"]]["moves"][refused["move"]]
    assert move["type"] == "choose" and move["choice"] == "close"


def sheet_of(side: whatif.Side) -> dict[str, Any]:
    return {"totals": list(side.totals), "winners": list(side.winners), "finished": side.finished}


def test_the_recorded_side_has_one_row_a_hand() -> None:
    record = random_match("tressette", random.Random(1), 2, {})
    game, options, seats, parsed = _hands(record)
    recorded = fold(game, options, seats, parsed[:1])
    with pytest.raises(ValueError):
        rescore_logged(game, options, seats, [(d, e) for d, e, _ in parsed], recorded, {})


@pytest.mark.django_db
def test_entries_from_rows_read_compact_are_the_folds_entries() -> None:
    # What the what-if folds (entries_of_rows over a compact read) is what every other read folds
    # (entries_of over the decoded events): moves, an undo, a ruling, and a move stored at schema 1.
    start = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)
    play = MoveRecorded(move={"type": "play", "seat": 1, "card": "AS"})
    store.append(
        "h", [start, play, MoveUndone(of_version=2, reason="x"), play], expected_version=0, actor="a"
    )
    store.append(
        "h",
        [RulingRecorded(refs=(4,), rule="74C", reason="y", rectification={"kind": "stands"})],
        expected_version=4,
    )
    StoredEvent.objects.create(
        stream_id="h",
        version=6,
        event_type="MoveRecorded",
        schema_version=1,
        payload={"seat": 2, "card": "7C"},
    )

    entries = selectors.entries_of_rows(store.read_streams_compact(["h"])["h"])

    assert entries == selectors.entries_of(store.read_stream("h"))
    assert [type(e).__name__ for e in entries] == [
        "MoveEntry",
        "UndoEntry",
        "MoveEntry",
        "RulingEntry",
        "MoveEntry",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("name", game_names())
def test_entries_read_compact_of_stored_matches_are_those_of_the_decoded_read(
    people: People, name: str
) -> None:
    # Every hand of a stored match (random options and play, a ruling, an undone move), its entries made
    # from one compact read with the cards played shared between the streams, against each stream
    # decoded and folded as every other read folds it.
    for seed in range(3):
        match = stored_match(people, name, seed)
        ids = list(match.hands.order_by("number").values_list("stream_id", flat=True))
        rows = store.read_streams_compact(ids)
        plays: dict[tuple[int, str], Any] = {}
        for stream_id in ids:
            entries = selectors.entries_of_rows(rows[stream_id], plays)
            assert entries == selectors.entries_of(store.read_stream(stream_id))
            for e in entries:  # each card of a seat made once
                if isinstance(e, MoveEntry) and isinstance(e.move, PlayCard):
                    assert e.move is plays[e.move.seat, e.move.card]


@pytest.mark.parametrize(
    "move",
    [
        {"type": "play", "seat": "1", "card": "AS"},
        {"type": "play", "seat": 1.0, "card": "AS"},
        {"type": "play", "seat": True, "card": "AS"},
        {"type": "play", "seat": 1, "card": 7},
        {"type": "play", "seat": 1, "card": "AS", "by": "x"},
        {"type": "play", "seat": 1},
        {"type": "playing", "seat": 1, "card": "AS"},
        ["play", 1, "AS"],
        None,
    ],
)
def test_a_compact_move_row_is_made_as_move_from_dict_makes_it(move: Any) -> None:
    # The cards played made once and shared must not let through what move_from_dict refuses, nor make
    # anything else of what it accepts: a row is refused or made exactly as the move dict is.
    plays = {(1, "AS"): move_from_dict({"type": "play", "seat": 1, "card": "AS"})}
    try:
        expected: Any = [MoveEntry(5, move_from_dict(move), "a")]
    except MalformedMove as exc:
        with pytest.raises(MalformedMove) as raised:
            selectors.entries_of_rows([[5, move, "a"]], plays)
        assert (raised.value.code, raised.value.field, raised.value.message) == (
            exc.code,
            exc.field,
            exc.message,
        )
        return
    made = selectors.entries_of_rows([[5, move, "a"]], plays)
    assert made == expected
    assert [type(e.move) for e in made] == [type(e.move) for e in expected]
    assert [vars(e.move) for e in made] == [vars(e.move) for e in expected]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", game_names())
def test_score_only_what_ifs_score_the_kept_folds_again_without_reading_the_log(
    people: People, name: str, stream_reads: list[int]
) -> None:
    # Outside a transaction the what-if keeps each hand's fold (by stream and version); a second what-if
    # that changes only score-only options scores those again and reads no stream, and gives what the
    # record file's full fold gives. One that changes play reads the log and folds every hand.
    from tests.scoring.hands.test_whatif_finals import score_only_values

    whatif.forget()
    match = stored_match(people, name, 7)
    match.refresh_from_db()
    game = get_game(name)
    values = game.ruleset.validate(match.options)
    rng = random.Random(7)
    first, second = score_only_values(name, values, rng), score_only_values(name, values, rng)
    reads = stream_reads
    record = selectors.match_export(match)

    assert selectors.match_rescore(match, first) == rescore(record, first)
    assert reads == [match.hands.count()]  # cold: every stream, in one query
    reads.clear()
    assert selectors.match_rescore(match, second) == rescore(record, second)
    assert reads == []  # random play makes no claim: every hand's kept fold served
    reads.clear()
    play = {"strict": True} if not values["strict"] else {"strict": False}
    assert selectors.match_rescore(match, play) == rescore(record, play)
    assert reads == [match.hands.count()]
    # The recording's kept folds (the fold cache, here filled by reading each hand) serve a first
    # what-if as well.
    whatif.forget()
    for hand in match.hands.all():
        selectors.hand_view(hand)
    reads.clear()
    assert selectors.match_rescore(match, first) == rescore(record, first)
    assert reads == []
    whatif.forget()
