"""No ruling breaks a match (issue 24, section 2): random rulings (penalties, assigned scores, the other
rectifications) and undos, at random moments of random matches of every game, all through the API. Every
answer is a success or a 4xx, never a 5xx; once the director stops, the match can always be played to its
end with legal moves; and the tournament's standings count the match's totals, adjustments included."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.models import Hand, Match
from scoring.rules import game_names, get_game
from scoring.rules.moves import Move, move_to_dict
from scoring.selectors import hand_view
from tests.scoring.api_support import client_for, hand_url, post_move, post_ruling, post_undo, ruling_body
from tests.tournaments.support import club_with_players, open_round, tournament
from tournaments import projections
from tournaments.models import Standings

pytestmark = pytest.mark.django_db

# Matches short enough to play many of them (Barbù has no shorter match than its 28 hands).
SHORT = {
    "tarocchi": {"deals": 2},
    "hombre_it": {"deals": 2},
    "tressette": {"target": 11},
    "lhombre": {"poules": 1},
}
EXAMPLES = {"barbu": 2}
KINDS = ("stands", "dismiss", "replace_move", "transfer_tricks", "penalty", "assign_score")
FINISH_BUDGET = 6000  # moves: far more than any of these matches needs
_tags = itertools.count()


def refused_or_taken(response: Any) -> bool:
    """True when taken; False when refused with a 4xx; a 5xx fails the test."""
    assert response.status_code < 500, (response.status_code, response.content[:500])
    return bool(response.status_code < 300)


def hands_of(match: Match) -> list[Hand]:
    return list(Hand.objects.filter(match=match).order_by("number"))


def open_hand(match: Match) -> Hand | None:
    """The first hand that is not over (a ruling or an undo may reopen an earlier one)."""
    return next((h for h in hands_of(match) if h.status != Hand.Status.OVER), None)


def next_move(hand: Hand, rng: random.Random) -> Move:
    view = hand_view(hand)
    state = view.state
    if state.phase == "deal":
        return view.game.random_deal(state, rng)
    return rng.choice(view.game.legal_moves(state))


def play_one(client: APIClient, match: Match, rng: random.Random) -> bool:
    """One step of play: a legal move on the open hand, or the next hand started. False once the match is
    over; a legal move or a start refused with a 4xx fails the test (the match could not finish)."""
    match.refresh_from_db()
    if match.status == Match.Status.FINISHED:
        return False
    hand = open_hand(match)
    if hand is None:
        response = client.post(f"/api/matches/{match.pk}/hands/", {}, format="json")
        assert response.status_code == 201, response.content[:500]
        return True
    move = next_move(hand, rng)
    response = post_move(client, match.pk, hand.number, move, hand.version)
    assert response.status_code == 201, (move_to_dict(move), response.content[:500])
    return True


def random_scores(data: st.DataObject, seats: int) -> list[Any]:
    numbers = st.integers(-30, 30) | st.sampled_from(["1/3", "-2/3", "5/2"])
    if data.draw(st.booleans()):  # one number for everyone: a side's partners share it
        return [data.draw(numbers)] * seats
    return data.draw(st.lists(numbers, min_size=seats, max_size=seats))


def random_ruling(data: st.DataObject, director: APIClient, match: Match, rng: random.Random) -> None:
    hand = data.draw(st.sampled_from(hands_of(match)))
    view = hand_view(hand)
    if not view.moves:
        return
    index = data.draw(st.integers(0, len(view.moves) - 1))
    ref = view.moves[index].position
    kind = data.draw(st.sampled_from(KINDS))
    seats = len(view.setup.seats)
    rect: dict[str, Any] = {"kind": kind}
    if kind in ("penalty", "assign_score"):
        rect["scores"] = random_scores(data, seats)
    elif kind == "transfer_tricks":
        rect.update(
            from_seat=data.draw(st.integers(0, seats - 1)),
            to_seat=data.draw(st.integers(0, seats - 1)),
            count=data.draw(st.integers(1, 3)),
        )
    elif kind == "replace_move":
        before = view.states[index]
        legal = [] if before.phase == "deal" else view.game.legal_moves(before)
        replacement = rng.choice(legal) if legal else view.moves[index].move
        rect["move"] = move_to_dict(replacement)
    body = ruling_body(hand.version, [ref], rect)
    if data.draw(st.booleans()):
        refused_or_taken(post_ruling(director, match.pk, hand.number, body, preview=True))
    refused_or_taken(post_ruling(director, match.pk, hand.number, body))


def random_undo(data: st.DataObject, director: APIClient, match: Match) -> None:
    hand = data.draw(st.sampled_from(hands_of(match)))
    refused_or_taken(post_undo(director, match.pk, hand.number, hand.version, reason="mis-keyed"))


def standings_totals(t: Any, game: str = "") -> dict[int, Any]:
    """Each player's points in the standings (Tressette's total is games won: its points are apart)."""
    key = "points" if game == "tressette" else "total"
    rows = Standings.objects.get(tournament=t).data["rows"]
    return {r["player"]: r["values"][key] for r in rows if r["tables"]}


@pytest.mark.parametrize("name", game_names())
def test_no_ruling_or_undo_breaks_a_match(name: str, django_capture_on_commit_callbacks: Any) -> None:
    @settings(
        max_examples=EXAMPLES.get(name, 6),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        phases=(Phase.explicit, Phase.reuse, Phase.generate),  # shrinking a whole match takes too long
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        game = get_game(name)
        club = club_with_players(game.seat_counts[0], tag=f"-{next(_tags)}")
        t = tournament(club, games=(name,), game_options={name: SHORT.get(name, {})})
        rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
        director, scorer = client_for(club.director), client_for(club.people.scorer)
        with django_capture_on_commit_callbacks(execute=True):
            table = open_round(t, club.director).tables.select_related("match").get()
            match = table.match
            steps = data.draw(st.integers(1, 400), label="steps under the director")
            chance = data.draw(st.sampled_from([0.02, 0.1, 0.3]), label="how often he steps in")
            for _ in range(steps):
                if rng.random() < chance:
                    if data.draw(st.booleans()):
                        random_ruling(data, director, match, rng)
                    else:
                        random_undo(data, director, match)
                if not play_one(scorer, match, rng):
                    break
            # The director is done: the match must be playable to its end with legal moves.
            for _ in range(FINISH_BUDGET):
                if not play_one(scorer, match, rng):
                    break
            match.refresh_from_db()
            assert match.status == Match.Status.FINISHED
        sheet = director.get(f"/api/matches/{match.pk}/sheet/").json()
        assert sheet["finished"] is True
        # The standings count the match's totals as the sheet gives them, the director's adjustments in.
        expected = dict(zip(table.players, sheet["totals"], strict=True))
        live = standings_totals(t, name)
        assert {p: str(v) for p, v in live.items()} == {p: str(v) for p, v in expected.items()}
        projections.standings_rebuild(tournament_id=t.pk)
        assert standings_totals(t, name) == live

    run()


def test_the_standings_count_a_penalty_as_an_adjustment(django_capture_on_commit_callbacks: Any) -> None:
    """Not left to chance: a penalty on a finished Tarocchi match moves its totals and the standings."""
    club = club_with_players(3, tag="-pen")
    t = tournament(club, games=("tarocchi",), game_options={"tarocchi": {"deals": 1}})
    director, scorer = client_for(club.director), client_for(club.people.scorer)
    rng = random.Random(4)
    with django_capture_on_commit_callbacks(execute=True):
        table = open_round(t, club.director).tables.select_related("match").get()
        match = table.match
        while play_one(scorer, match, rng):
            pass
        before = director.get(f"/api/matches/{match.pk}/sheet/").json()["totals"]
        hand = hands_of(match)[-1]
        body = ruling_body(hand.version, [hand.version], {"kind": "penalty", "scores": [-7, 0, 0]})
        assert post_ruling(director, match.pk, hand.number, body).status_code == 201
    after = director.get(f"/api/matches/{match.pk}/sheet/").json()
    assert after["totals"] == [before[0] - 7, *before[1:]]
    assert after["details"]["adjustments"] == [-7, 0, 0]
    assert standings_totals(t) == dict(zip(table.players, after["totals"], strict=True))
    assert client_for(club.people.scorer).get(hand_url(match.pk, hand.number)).status_code == 200
