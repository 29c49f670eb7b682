"""Time the standings of a league: the rebuild from the event log at 100, 1,000 and 10,000 finished
matches (events folded per second), and the update after one more match at each size.

Runs against a throwaway test database created next to the one DATABASE_URL names (use PostgreSQL: the
targets are for it):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_standings.py

How the league is built: one round of Tarocchi (one deal a match) is seated by the planner and every move
of its tables recorded through the services, as at a club; the other rounds are copies of those
recorded matches (their events copied under new stream ids, players rotated from round to round), so
that ten thousand matches hold real, replayable logs without recording each move again.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no query log
os.environ.setdefault("SECRET_KEY", "bench-only")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from clubs.models import Club, Membership, Player  # noqa: E402
from scoring.demo import match_play_out  # noqa: E402
from scoring.log import store  # noqa: E402
from scoring.log.events import MatchOpened, match_stream_id  # noqa: E402
from scoring.models import Hand, Match, MatchSeat, StoredEvent  # noqa: E402
from segnapunti.celery import app as celery_app  # noqa: E402
from tournaments import events, projections, services  # noqa: E402
from tournaments.models import Round, Table, Tournament  # noqa: E402

PLAYERS = 48  # sixteen tables of three a round
SIZES = (100, 1_000, 10_000)


class League:
    """A league whose rounds are copies of one recorded round."""

    def __init__(self) -> None:
        club = Club.objects.create(name="Bench club")
        self.director = User.objects.create(username="bench-director")
        Membership.objects.create(club=club, user=self.director, role=Membership.Role.DIRECTOR)
        self.players = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(PLAYERS)]
        self.t = services.tournament_create(
            club=club,
            name="Bench league",
            kind="league",
            games=["tarocchi"],
            game_options={"tarocchi": {"deals": 1}},
            scoring="rank_points",
            seed=7,
            actor=self.director,
        )
        for p in self.players:
            self.t.refresh_from_db()
            services.player_register(
                tournament=self.t, player=p, expected_version=self.t.version, actor=self.director
            )
        self.t.refresh_from_db()
        first = services.round_open(tournament=self.t, expected_version=self.t.version, actor=self.director)
        rng = random.Random(1)
        self.template = [table.match for table in first.tables.select_related("match").order_by("number")]
        for match in self.template:
            match_play_out(match, rng, actor=self.director)
        self.close(first)
        self.events = {
            m.pk: list(
                StoredEvent.objects.filter(stream_id=m.hands.get().stream_id)
                .order_by("version")
                .values("version", "event_type", "schema_version", "payload", "recorded_by")
            )
            for m in self.template
        }
        self.matches = len(self.template)
        self.rounds = 1

    def close(self, rnd: Round) -> None:
        self.t.refresh_from_db()
        services.round_close(
            tournament=self.t, round_number=rnd.number, expected_version=self.t.version, actor=None
        )

    def grow_to(self, matches: int) -> None:
        while self.matches < matches:
            self.copy_round(close=True)

    def copy_round(self, *, close: bool, tables: int | None = None) -> list[Match]:
        """A new round whose tables replay the recorded round's matches, players rotated by round."""
        shift = self.rounds * 5 % PLAYERS
        index = {p.pk: i for i, p in enumerate(self.players)}
        with transaction.atomic():
            t = Tournament.objects.select_for_update().get(pk=self.t.pk)
            number = self.rounds + 1
            rnd = Round.objects.create(tournament=t, number=number, game="tarocchi", seed=number)
            made, table_events = [], []
            for n, template in enumerate(self.template[:tables], start=1):
                seats = list(template.seats.order_by("seat"))
                players = [self.players[(index[s.player_id or 0] + shift) % PLAYERS] for s in seats]
                names = [p.name for p in players]
                match = Match.objects.create(
                    club_id=template.club_id,
                    game=template.game,
                    options=template.options,
                    status=template.status,
                    published=False,
                    sheet={**template.sheet, "seats": names},
                    title=f"round {number} table {n}",
                )
                MatchSeat.objects.bulk_create(
                    MatchSeat(match=match, seat=i, name=p.name, player=p) for i, p in enumerate(players)
                )
                # Who sits where, in the log: what a rebuild reads (issue 25).
                opened_match = MatchOpened(
                    club=match.club_id,
                    game=match.game,
                    options=dict(match.options),
                    direction=match.direction,
                    seats=tuple({"name": p.name, "player": p.pk} for p in players),
                )
                store.append(match_stream_id(match.pk), [opened_match], expected_version=0)
                source = template.hands.get()
                hand = Hand.objects.create(
                    match=match,
                    number=1,
                    stream_id=f"match-{match.pk}-hand-1",
                    dealer=source.dealer,
                    status=source.status,
                    result=source.result,
                    flagged=source.flagged,
                    ruled_against=source.ruled_against,
                )
                rows = [
                    StoredEvent(
                        stream_id=hand.stream_id,
                        **{
                            **e,
                            "payload": {**e["payload"], "seats": names}
                            if e["version"] == 1
                            else e["payload"],
                        },
                    )
                    for e in self.events[template.pk]
                ]
                if connection.vendor == "postgresql":  # the store's ordering lock, as an append takes it
                    with connection.cursor() as cursor:
                        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [store.APPEND_LOCK_KEY])
                StoredEvent.objects.bulk_create(rows)
                hand.version, hand.position, hand.updated_at = (
                    rows[-1].version,
                    rows[-1].position,
                    rows[-1].recorded_at,
                )
                hand.save(update_fields=["version", "position", "updated_at"])
                Table.objects.create(round=rnd, number=n, match=match, players=[p.pk for p in players])
                table_events.append(
                    {
                        "table": n,
                        "match": match.pk,
                        "players": [p.pk for p in players],
                        "dealer": source.dealer,
                        "pairs": None,
                    }
                )
                made.append(match)
            opened = events.RoundOpened(
                number=number,
                game="tarocchi",
                seed=number,
                tables=tuple(table_events),
                sit_outs=(),
                sit_out_score="0",
            )
            appended = store.append(t.stream_id, [opened], expected_version=t.version)
            t.version = appended.to_version
            t.save(update_fields=["version"])
        self.t.refresh_from_db()
        self.rounds += 1
        self.matches += len(made)
        if close:
            self.close(rnd)
        return made


def folded_events(t: Tournament) -> int:
    """The events a rebuild reads: the tournament's stream, every table's MatchOpened and its hands."""
    hands = Hand.objects.filter(match__tournament_table__round__tournament=t).values_list(
        "stream_id", "match_id"
    )
    streams = [h for h, _ in hands] + [match_stream_id(m) for m in {m for _, m in hands}]
    return StoredEvent.objects.filter(stream_id__in=streams).count() + t.version


def run(sizes: tuple[int, ...], updates: int) -> None:
    print(f"database: {connection.vendor}; {PLAYERS} players, tables of three, one Tarocchi deal a match")
    print(f"{'matches':>8} {'events':>9} {'rebuild s':>10} {'events/s':>10} {'update ms (median, max)':>26}")
    league = League()
    for size in sizes:
        league.grow_to(size)
        n_events = folded_events(league.t)
        start = time.perf_counter()
        projections.standings_rebuild(tournament_id=league.t.pk)
        elapsed = time.perf_counter() - start
        timings = []
        for match in league.copy_round(close=True, tables=updates):
            start = time.perf_counter()
            assert projections.standings_apply_match(match_id=match.pk)
            timings.append((time.perf_counter() - start) * 1000)
        median, worst = statistics.median(timings), max(timings)
        print(
            f"{league.matches - updates:>8} {n_events:>9} {elapsed:>10.2f} {n_events / elapsed:>10.0f} "
            f"{median:>17.1f} {worst:>8.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES), help="league sizes in matches")
    parser.add_argument("--updates", type=int, default=5, help="single-match updates timed at each size")
    args = parser.parse_args()
    sizes = tuple(int(s) for s in args.sizes.split(","))
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = True  # the recorded round's updates run here
    with tempfile.TemporaryDirectory() as tmp:
        if connection.vendor == "sqlite":
            connection.settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            run(sizes, args.updates)
        finally:
            connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
