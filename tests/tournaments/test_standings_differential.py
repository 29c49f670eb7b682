"""The standings and ratings the worker keeps, match by match, against a rebuild from the event log.

Random leagues (2 to 40 players; Sicilian Tarocchi and Italian Hombre at three, Tressette at three alone
or at four in pairs; frequent ties; sit-outs; irregularities ruled against; a random precedence) are
played through the services. Matches finish in random order; rulings change finished matches (penalties,
assigned scores, often tied) or reopen them (an undo); the director abandons tables, closes rounds and
changes the ranking settings (the sit-out score, the tie-breaks) with a reason. The updates the worker
would receive are held back and delivered at random: late, out of order, some twice. Whenever none is
pending, the live standings and ratings must be the same bytes as a rebuild from the log.

``SEGNAPUNTI_DIFFERENTIAL_EXAMPLES`` sets the number of leagues (60 by default, so that the suite stays
quick; run thousands with it, on SQLite and on PostgreSQL). Each league runs in a savepoint rolled back
at its end, and each rebuild in one of its own, so the live state is never reset by a comparison.
``SEGNAPUNTI_DIFFERENTIAL_TRACE=1`` (with ``-s``) prints each league's steps, refusals included.

Barbù (the only table of four sides, 28 hands a match) is too slow to play here; four-sided tables are
covered by the pure differential test in ``tests/tournaments/plan/test_standings.py``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import ServiceError
from scoring import services as scoring_services
from scoring.hands import foldcache
from scoring.log import store
from scoring.log.events import MoveRecorded
from scoring.models import Hand, Match
from scoring.rules.errors import RulesError
from scoring.signals import match_changed
from tests.scoring.api_support import make_people, play_irregular, service_record
from tests.scoring.factories import PlayerFactory
from tests.tournaments.support import finish_match
from tournaments import projections, services, tasks
from tournaments.models import (
    PlayerRating,
    RatedMatch,
    RatingHistory,
    Round,
    Standings,
    StandingsContribution,
    Table,
    Tournament,
)
from tournaments.plan.standings import METRICS

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("SEGNAPUNTI_DIFFERENTIAL_EXAMPLES", "60"))
OPTIONS = {
    "tarocchi": {"deals": 1, "strict": False},
    "hombre_it": {"deals": 1, "strict": False},
    "tressette": {"target": 11, "strict": False},
}
GAME_SETS = [("tarocchi",), ("hombre_it",), ("tressette",), ("tarocchi", "tressette"), tuple(OPTIONS)]
MAX_ROUNDS = 4
REFUSED = (ServiceError, RulesError)


def snapshot(t: Tournament) -> str:
    """Everything the standings and the ratings of the tournament's games hold, as bytes."""
    s = Standings.objects.values_list("ledger", "data", "position", "as_of").get(tournament=t)
    contributions = sorted(
        StandingsContribution.objects.filter(tournament=t).values_list("key", "match_id", "position", "data")
    )
    games = list(t.games)
    ratings = sorted(
        (p, g, repr(mu), repr(sigma), n)
        for p, g, mu, sigma, n in PlayerRating.objects.filter(game__in=games).values_list(
            "player_id", "game", "mu", "sigma", "matches"
        )
    )
    history = sorted(
        (p, g, m, repr(mu), repr(sigma))
        for p, g, m, mu, sigma in RatingHistory.objects.filter(game__in=games).values_list(
            "player_id", "game", "match_id", "mu", "sigma"
        )
    )
    rated = sorted(RatedMatch.objects.filter(game__in=games).values_list("match_id", "game", "position"))
    return json.dumps(
        {
            "ledger": s[0],
            "data": s[1],
            "position": s[2],
            "as_of": str(s[3]),
            "contributions": contributions,
            "ratings": ratings,
            "history": history,
            "rated": rated,
        },
        sort_keys=True,
    )


def rebuilt(t: Tournament) -> str:
    """The snapshot after a rebuild from the log, which is then rolled back (the live state goes on)."""
    point = transaction.savepoint()
    try:
        projections.standings_rebuild(tournament_id=t.pk)
        for game in t.games:
            projections.ratings_rebuild(game=game)
        return snapshot(t)
    finally:
        transaction.savepoint_rollback(point)


@contextmanager
def held_updates() -> Iterator[list[int]]:
    """The worker's updates held back: each ``match_changed`` is noted instead of queued."""
    pending: list[int] = []

    def note(sender: Any, match_id: int, **kwargs: Any) -> None:
        pending.append(match_id)

    match_changed.disconnect(dispatch_uid="tournaments.match_changed")
    match_changed.connect(note, dispatch_uid="test.differential", weak=False)
    try:
        yield pending
    finally:
        match_changed.disconnect(dispatch_uid="test.differential")
        match_changed.connect(tasks.on_match_changed, dispatch_uid="tournaments.match_changed")


class League:
    """One random league, played step by step."""

    def __init__(self, data: st.DataObject, pending: list[int]) -> None:
        self.draw = data.draw
        self.pending = pending
        self.delivered: list[int] = []
        self.done: list[str] = []  # the steps taken (or refused), for the report of a failing league
        self.standing: list[Table] = []  # the tables not abandoned, as the step began
        self.rng = random.Random(self.draw(st.integers(0, 2**32), label="rng"))
        self.people = make_people()
        self.director = self.people.director
        n = self.draw(st.integers(2, 40), label="players")
        games = self.draw(st.sampled_from(GAME_SETS), label="games")
        scoring = "rank_points" if len(games) > 1 else self.draw(st.sampled_from(["natural", "rank_points"]))
        with self.committing():
            self.t = services.tournament_create(
                club=self.people.club,
                name="Differenziale",
                games=list(games),
                game_options={g: OPTIONS[g] for g in games},
                scoring=scoring,
                tiebreaks=self.draw(st.one_of(st.none(), precedences()), label="precedence"),
                sit_out_score=self.draw(scores(), label="sit-out score"),
                seed=self.draw(st.integers(0, 2**31), label="seed"),
                rounds_planned=self.draw(st.integers(1, MAX_ROUNDS), label="rounds planned"),
                scorers=[self.people.scorer],
                actor=self.director,
            )
            for i in range(n):
                player = PlayerFactory(club=self.people.club, name=f"Giocatore {i:02}")
                self.t.refresh_from_db()
                services.player_register(
                    tournament=self.t, player=player, expected_version=self.t.version, actor=self.director
                )

    @contextmanager
    def committing(self) -> Iterator[None]:
        """Run what the services leave for after the commit (the kept folds, ``match_changed``) at the end
        of the block, as if it had committed, and take it off the list: an enclosing block does not run
        it again. Moves are recorded each in a block of its own, as each is a request of its own: the
        next move finds the fold kept (folding the hand from its deal at every move is a test's cost)."""
        start = len(connection.run_on_commit)
        yield
        while len(connection.run_on_commit) > start:  # (a savepoint rolled back makes the list anew)
            callbacks = connection.run_on_commit[start:]
            del connection.run_on_commit[start:]
            for _, callback, _ in callbacks:
                callback()

    # ---- the steps -----------------------------------------------------------------------------------
    def step(self) -> None:
        """One step among those that can be taken now (a few that cannot are tried too: refused)."""
        self.t.refresh_from_db()
        # The league's tables and rounds, read once: the step's action runs on them before any write.
        self.standing = list(
            Table.objects.filter(round__tournament=self.t, abandoned=False)
            .select_related("match", "round")
            .order_by("round__number", "number")
        )
        rounds = list(self.t.rounds.values_list("status", flat=True))
        unfinished, finished = self.tables(finished=False), self.tables(finished=True)
        open_round = Round.Status.OPEN in rounds
        choices: list[Callable[[], None]] = [self.change_sit_out_score, self.change_precedence]
        if not open_round and len(rounds) < MAX_ROUNDS:
            choices += [self.open_round] * 4
        if unfinished:
            choices += [self.finish] * 6 + [self.finish_with_irregularity] * 2 + [self.abandon]
        if open_round:
            choices += [self.close_round] * (4 if not self.tables(finished=False, open_round=True) else 1)
        if finished:
            choices += [self.penalty, self.assign, self.assign, self.reopen]
        action = self.draw(st.sampled_from(choices), label="step")
        try:
            with self.committing(), transaction.atomic():
                action()
            self.done.append(action.__name__)
        except REFUSED as exc:
            # A refusal writes nothing (its savepoint is rolled back): the league goes on. The folds kept
            # by its moves are of versions rolled back: forgotten.
            foldcache.clear()
            self.done.append(f"refused {action.__name__}: {exc}")

    def tables(self, *, finished: bool | None = None, open_round: bool = False) -> list[Table]:
        """The step's tables not abandoned (of the open round), unfinished or finished."""
        return [
            t
            for t in self.standing
            if (not open_round or t.round.status == Round.Status.OPEN)
            and (finished is None or (t.match.status == Match.Status.FINISHED) == finished)
        ]

    def pick(self, tables: list[Table]) -> Table:
        if not tables:
            raise ServiceError("test.nothing", "no table to act on")
        return tables[self.rng.randrange(len(tables))]

    def last_hand(self, match: Match) -> Hand:
        hand = match.hands.order_by("-number").first()
        assert hand is not None
        return hand

    def open_round(self) -> None:
        if self.t.rounds.count() >= MAX_ROUNDS:
            return
        game = self.rng.choice(list(self.t.games))
        services.round_open(
            tournament=self.t, expected_version=self.t.version, actor=self.director, game=game
        )

    def close_round(self) -> None:
        rnd = self.t.rounds.filter(status=Round.Status.OPEN).first()
        if rnd is not None:
            services.round_close(
                tournament=self.t,
                round_number=rnd.number,
                expected_version=self.t.version,
                actor=self.director,
            )

    def finish(self) -> None:
        """A few tables finish, in random order (a later round's before an earlier one's, say)."""
        unfinished = self.tables(finished=False)
        self.rng.shuffle(unfinished)
        for table in unfinished[: self.rng.randint(1, 4)]:
            finish_match(table.match, self.rng.randrange(10**6), self.director, each_move=self.committing)

    def finish_with_irregularity(self) -> None:
        """A hand with an irregular card, ruled against its player (a penalty), then played to the end."""
        table = self.pick(self.tables(finished=False))
        hand = self.last_hand(table.match)
        if hand.version == 1:  # only started: nothing dealt yet
            played = play_irregular(hand, seed=self.rng.randrange(10**6))
            for move in played.moves:
                with self.committing():
                    hand = service_record(hand, [move], self.director)
            assert played.irregular_at is not None
            offender = played.moves[played.irregular_at].seat
            assert offender is not None
            seats = table.match.seats.count()
            scores = [-1 if s == offender else 0 for s in range(seats)]
            scoring_services.ruling_record(
                hand=hand,
                refs=[played.irregular_at + 2],
                rule="revoke",
                reason="seen by the table",
                rectification=self.rng.choice([{"kind": "stands"}, {"kind": "penalty", "scores": scores}]),
                expected_version=hand.version,
                actor=self.director,
            )
        finish_match(table.match, self.rng.randrange(10**6), self.director, each_move=self.committing)

    def ruling(self, rectification: Callable[[int], dict[str, Any]]) -> None:
        table = self.pick(self.tables(finished=True))
        hand = self.last_hand(table.match)
        moves = [e.version for e in store.read_stream(hand.stream_id) if isinstance(e.event, MoveRecorded)]
        scoring_services.ruling_record(
            hand=hand,
            refs=[moves[-1]],
            rule="score corrected",
            reason="the sheet was checked",
            rectification=rectification(table.match.seats.count()),
            expected_version=hand.version,
            actor=self.director,
        )

    def penalty(self) -> None:
        self.ruling(
            lambda seats: {"kind": "penalty", "scores": [self.rng.randint(-2, 0) for _ in range(seats)]}
        )

    def assign(self) -> None:
        # Small scores, so that ties are frequent; partners (Tressette at four) share their side's.
        def scores(seats: int) -> dict[str, Any]:
            values = [self.rng.randint(-1, 1) for _ in range(seats)]
            if seats == 4:
                values = [values[0], values[1], values[0], values[1]]
            return {"kind": "assign_score", "scores": values}

        self.ruling(scores)

    def reopen(self) -> None:
        table = self.pick(self.tables(finished=True))
        hand = self.last_hand(table.match)
        scoring_services.move_undo(
            hand=hand, expected_version=hand.version, actor=self.director, reason="mis-keyed"
        )

    def abandon(self) -> None:
        table = self.pick(self.tables(finished=False, open_round=True))
        services.table_abandon(
            tournament=self.t,
            round_number=table.round.number,
            table_number=table.number,
            reason="the players left",
            expected_version=self.t.version,
            actor=self.director,
        )

    def change_sit_out_score(self) -> None:
        services.tournament_update(
            tournament=self.t,
            expected_version=self.t.version,
            actor=self.director,
            reason="agreed at the meeting",
            sit_out_score=self.draw(scores(), label="new sit-out score"),
        )

    def change_precedence(self) -> None:
        services.tournament_update(
            tournament=self.t,
            expected_version=self.t.version,
            actor=self.director,
            reason="agreed at the meeting",
            tiebreaks=self.draw(precedences(), label="new precedence"),
        )

    # ---- the worker ----------------------------------------------------------------------------------
    def deliver_some(self) -> None:
        """Some of the held updates, in random order; some delivered again later (twice, and late)."""
        self.rng.shuffle(self.pending)
        for _ in range(self.rng.randint(0, len(self.pending))):
            self.deliver(self.pending.pop())
        if self.delivered and self.rng.random() < 0.3:
            self.deliver(self.rng.choice(self.delivered))  # a repeat of an old one, after later changes

    def drain(self) -> None:
        while self.pending:
            self.deliver_some()
            if self.pending and self.rng.random() < 0.5:
                self.deliver(self.pending.pop())

    def deliver(self, match_id: int) -> None:
        tasks.match_changed_update(match_id)
        self.delivered.append(match_id)

    def check(self) -> None:
        live = snapshot(self.t)
        assert live == rebuilt(self.t), "live standings or ratings differ from the rebuild"


def precedences() -> st.SearchStrategy[list[str]]:
    keys = [k for k in METRICS if k != "lot"]
    return st.lists(st.sampled_from(keys), unique=True, min_size=1, max_size=len(keys))


def scores() -> st.SearchStrategy[str]:
    return st.sampled_from(["0", "1", "6", "3/2", "-2", "11/6"])


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_live_standings_and_ratings_equal_a_rebuild_from_the_log_at_every_step(data: st.DataObject) -> None:
    foldcache.clear()  # the kept folds outlive a rolled-back league: ids come round again on SQLite
    with held_updates() as pending, transaction.atomic():
        league = League(data, pending)
        for _ in range(data.draw(st.integers(1, 24), label="steps")):
            league.step()
            league.deliver_some()
            if not league.pending:
                league.check()
        league.drain()
        league.check()
        if os.environ.get("SEGNAPUNTI_DIFFERENTIAL_TRACE"):
            print(len(league.delivered), league.done)
        transaction.set_rollback(True)
    foldcache.clear()
