"""Writes of the tournament half: create a tournament or league, change its settings, register players,
open a round (seated by :mod:`tournaments.plan.seating`, its tables' matches created with it), abandon a
table, close a round, publish the standings.

Every write is an event on the tournament's stream (:mod:`tournaments.events`), appended at the version
the caller saw (a stale version is a conflict: two directors opening the same round cannot both win), and
the read models are written in the same transaction. A refusal raises :class:`~common.errors.Invalid`
(400) or :class:`~common.errors.Refused` (422) naming the field, and nothing is written.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Membership, Player
from common.errors import ConcurrencyConflict, Invalid, Refused
from scoring import words
from scoring.log import store
from scoring.log.events import Event
from scoring.models import Match
from scoring.rules import InvalidOptions, RulesError, game_names, get_game
from scoring.services import User, actor_name, match_create, match_update
from tournaments import events, projections, tasks
from tournaments.models import Registration, Round, SitOut, Table, Tournament
from tournaments.plan.seating import SeatingError, plan_seating
from tournaments.plan.standings import SCORING_METHODS, StandingsError, check_precedence, default_precedence

log = logging.getLogger(__name__)

MAX_ROUNDS = 99
# Settings that decide the ranking: fixed once round 1 is open, unless a director gives a reason.
RANKING_SETTINGS = ("scoring", "tiebreaks", "sit_out_score")


# ---- checks ------------------------------------------------------------------------------------------
def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise Invalid("tournament.name", gettext("a tournament needs a name"), field="name")
    if len(name.strip()) > 120:
        raise Invalid(
            "tournament.name", gettext("a name has at most {n} characters").format(n=120), field="name"
        )
    return name.strip()


def _check_games(games: Any) -> list[str]:
    if not isinstance(games, list | tuple) or not games or not all(isinstance(g, str) for g in games):
        raise Invalid("tournament.games", gettext("games lists at least one game name"), field="games")
    for game in games:
        if game not in game_names():
            raise Invalid(
                "tournament.games",
                gettext("unknown game {game!r} (one of {games})").format(
                    game=game, games=", ".join(game_names())
                ),
                field="games",
            )
    if len(set(games)) != len(games):
        raise Invalid("tournament.games", gettext("each game is listed once"), field="games")
    return list(games)


def _check_game_options(games: Sequence[str], options: Any) -> dict[str, dict[str, Any]]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise Invalid(
            "tournament.game_options",
            gettext("game_options maps a game to its options"),
            field="game_options",
        )
    out: dict[str, dict[str, Any]] = {}
    for game, values in options.items():
        if game not in games:
            raise Invalid(
                "tournament.game_options",
                gettext("{game!r} is not one of this tournament's games").format(game=game),
                field="game_options",
            )
        try:
            ruleset = get_game(game).ruleset
            ruleset.validate(values)
        except (InvalidOptions, RulesError) as exc:
            raise Invalid(
                "tournament.game_options", f"{words.game(game)}: {exc.message}", field=f"game_options.{game}"
            ) from exc
        out[game] = dict(values)
    return out


def _check_scoring(scoring: Any, games: Sequence[str]) -> str:
    if scoring not in SCORING_METHODS:
        raise Invalid(
            "tournament.scoring",
            gettext("scoring is one of {methods}").format(methods=", ".join(SCORING_METHODS)),
            field="scoring",
        )
    if scoring == "natural" and len(games) > 1:
        raise Refused(
            "tournament.scoring",
            gettext(
                "natural totals of different games cannot be added up: "
                "use rank_points for a league of several games"
            ),
            field="scoring",
        )
    return str(scoring)


def _check_tiebreaks(tiebreaks: Any) -> list[str]:
    if not isinstance(tiebreaks, list | tuple) or not all(isinstance(k, str) for k in tiebreaks):
        raise Invalid("tiebreaks.malformed", gettext("tiebreaks lists criteria by key"), field="tiebreaks")
    try:
        check_precedence(tiebreaks)
    except StandingsError as exc:
        raise Invalid(exc.code, _said(exc.template, exc.params), field=exc.field) from exc
    return list(tiebreaks)


def _said(template: str, params: Mapping[str, Any]) -> str:
    """A pure module's message (standings, seating) in the request's language: lists of plain values
    joined, player ids by their names."""
    shown = {
        k: ", ".join(str(x) for x in v) if isinstance(v, list | tuple) else str(v) for k, v in params.items()
    }
    return gettext(template).format(**shown) if params else gettext(template)


def _check_score(value: Any, field: str) -> str:
    try:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError
        score = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise Invalid(
            "tournament.score",
            gettext("{field} is a whole number or an exact fraction").format(field=field),
            field=field,
        ) from None
    if abs(score) > 10**9:
        raise Invalid("tournament.score", gettext("{field} is out of range").format(field=field), field=field)
    return str(score)


def _check_rounds_planned(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise Invalid(
            "tournament.rounds_planned",
            gettext("rounds_planned is from 1 to {n}").format(n=MAX_ROUNDS),
            field="rounds_planned",
        )
    return value


def _check_pairs(pairs: Any) -> list[list[int]]:
    ok = isinstance(pairs, list | tuple) and all(
        isinstance(p, list | tuple)
        and len(p) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
        and p[0] != p[1]
        for p in pairs
    )
    if not ok:
        raise Invalid(
            "tournament.forbidden_pairs",
            gettext("forbidden_pairs lists pairs of two different player ids"),
            field="forbidden_pairs",
        )
    return [sorted(p) for p in pairs]


def _check_scorers(club: Club, scorers: Sequence[Any]) -> list[Any]:
    for user in scorers:
        role = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
        if role not in (Membership.Role.DIRECTOR, Membership.Role.SCORER):
            raise Refused(
                "tournament.scorers",
                gettext("{user} is not a scorer or director of {club}").format(user=user, club=club),
                field="scorers",
            )
    return list(scorers)


def _scorers_change(t: Tournament, scorers: Sequence[Any]) -> tuple[list[Any], set[Any], set[Any]] | None:
    """The tournament's new scorers with those added and those removed; None when they are the same."""
    wanted = _check_scorers(t.club, list(dict.fromkeys(scorers)))
    current = set(t.scorers.all())
    added, removed = set(wanted) - current, current - set(wanted)
    return (wanted, added, removed) if added or removed else None


def _apply_scorers(
    t: Tournament, wanted: list[Any], added: set[Any], removed: set[Any], *, actor: User | None
) -> None:
    """The tournament's scorers set, and the change carried to the tables still in play of the open
    round: a scorer added may record there, one removed no longer may (a table's own scorers, assigned
    to it alone, stay)."""
    t.scorers.set(wanted)
    rnd = t.rounds.filter(status=Round.Status.OPEN).first()
    if rnd is None:
        return
    for table in rnd.tables.select_related("match"):
        match = table.match
        if match is None or match.status == Match.Status.FINISHED:
            continue
        kept = (set(match.scorers.all()) - removed) | added
        match_update(match=match, actor=actor, scorers=sorted(kept, key=lambda u: u.pk))


def _check_reason(reason: Any, *, required: bool, what: str) -> str:
    if not isinstance(reason, str):
        raise Invalid("tournament.reason", gettext("reason is text"), field="reason")
    if required and not reason.strip():
        raise Refused("tournament.reason", what, field="reason")
    return reason.strip()


# ---- the stream --------------------------------------------------------------------------------------
def _lock(tournament: Tournament, expected_version: Any) -> Tournament:
    """The tournament's row, locked until the transaction ends, refused with a conflict unless its
    stream is at ``expected_version``."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise Invalid(
            "version.malformed", gettext("expected_version must be a whole number"), field="expected_version"
        )
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.version != expected_version:
        raise ConcurrencyConflict(locked.stream_id, expected_version, locked.version)
    return locked


def _append(tournament: Tournament, event: Event, actor: User | None) -> store.AppendResult:
    appended = store.append(
        tournament.stream_id, [event], expected_version=tournament.version, actor=actor_name(actor)
    )
    tournament.version = appended.to_version
    tournament.save(update_fields=["version"])
    return appended


# ---- tournaments -------------------------------------------------------------------------------------
def tournament_create(
    *,
    club: Club,
    name: str,
    games: Sequence[str],
    kind: str = Tournament.Kind.TOURNAMENT,
    game_options: Mapping[str, Any] | None = None,
    scoring: str = Tournament.Scoring.NATURAL,
    tiebreaks: Sequence[str] | None = None,
    sit_out_score: int | str = 0,
    seed: int | None = None,
    rounds_planned: int | None = None,
    forbidden_pairs: Sequence[Sequence[int]] = (),
    published: bool = False,
    scorers: Sequence[Any] = (),
    actor: User | None = None,
) -> Tournament:
    """Set up a league or a tournament at a club; its director is the one who creates it."""
    name = _check_name(name)
    if kind not in Tournament.Kind.values:
        raise Invalid(
            "tournament.kind",
            gettext("kind is one of {kinds}").format(kinds=", ".join(Tournament.Kind.values)),
            field="kind",
        )
    games = _check_games(games)
    options = _check_game_options(games, game_options)
    scoring = _check_scoring(scoring, games)
    order = _check_tiebreaks(list(tiebreaks) if tiebreaks is not None else list(default_precedence(games)))
    sit_out = _check_score(sit_out_score, "sit_out_score")
    if seed is None:
        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise Invalid("tournament.seed", gettext("seed is a whole number from 0"), field="seed")
    planned = _check_rounds_planned(rounds_planned)
    pairs = _check_pairs(list(forbidden_pairs))
    assigned = _check_scorers(club, scorers)
    director: Any = actor if actor is not None and actor.is_authenticated else None
    with transaction.atomic():
        tournament = Tournament.objects.create(
            club=club,
            name=name,
            kind=kind,
            director=director,
            games=games,
            game_options=options,
            scoring=scoring,
            tiebreaks=order,
            sit_out_score=sit_out,
            seed=seed,
            rounds_planned=planned,
            forbidden_pairs=pairs,
        )
        if assigned:
            tournament.scorers.add(*assigned)
        created = events.TournamentCreated(
            club=club.pk,
            name=name,
            kind=kind,
            games=tuple(games),
            game_options=options,
            scoring=scoring,
            tiebreaks=tuple(order),
            sit_out_score=sit_out,
            seed=seed,
            rounds_planned=planned,
            forbidden_pairs=tuple((a, b) for a, b in pairs),
        )
        _append(tournament, created, actor)
        if published:
            tournament.published = True
            tournament.save(update_fields=["published"])
            _append(tournament, events.StandingsPublished(published=True), actor)
        projections.standings_start(tournament)
    return tournament


def tournament_update(
    *,
    tournament: Tournament,
    expected_version: int,
    actor: User | None,
    reason: str = "",
    **changes: Any,
) -> Tournament:
    """Change a tournament's settings. Once round 1 is open, a change to how it is ranked (scoring,
    tie-breaks, the sit-out score) needs a reason, kept with the change in the log."""
    allowed = {
        "name",
        "scoring",
        "tiebreaks",
        "sit_out_score",
        "rounds_planned",
        "forbidden_pairs",
        "game_options",
        "scorers",
    }
    unknown = set(changes) - allowed
    if unknown:
        raise Invalid(
            "tournament.field",
            gettext("{field} cannot be changed").format(field=sorted(unknown)[0]),
            field=sorted(unknown)[0],
        )
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        new: dict[str, Any] = {}
        if "name" in changes:
            new["name"] = _check_name(changes["name"])
        if "game_options" in changes:
            new["game_options"] = _check_game_options(t.games, changes["game_options"])
        if "scoring" in changes:
            new["scoring"] = _check_scoring(changes["scoring"], t.games)
        if "tiebreaks" in changes:
            new["tiebreaks"] = _check_tiebreaks(changes["tiebreaks"])
        if "sit_out_score" in changes:
            new["sit_out_score"] = _check_score(changes["sit_out_score"], "sit_out_score")
        if "rounds_planned" in changes:
            new["rounds_planned"] = _check_rounds_planned(changes["rounds_planned"])
        if "forbidden_pairs" in changes:
            new["forbidden_pairs"] = _check_pairs(changes["forbidden_pairs"])
        new = {k: v for k, v in new.items() if getattr(t, k) != v}
        scorers = _scorers_change(t, changes["scorers"]) if "scorers" in changes else None
        if scorers is not None:
            new["scorers"] = sorted(actor_name(u) for u in scorers[0])
        if not new:
            raise Refused("tournament.unchanged", gettext("nothing to change"), field=None)
        started = t.rounds.exists()
        ranking = [k for k in new if k in RANKING_SETTINGS]
        why = _check_reason(
            reason,
            required=started and bool(ranking),
            what=gettext("round 1 has been played: changing {settings} needs the director's reason").format(
                settings=", ".join(ranking)
            ),
        )
        appended = _append(t, events.TournamentChanged(changes=new, reason=why), actor)
        fields = [key for key in new if key != "scorers"]
        for key in fields:
            setattr(t, key, new[key])
        t.save(update_fields=fields)
        if scorers is not None:
            _apply_scorers(t, *scorers, actor=actor)
        if "sit_out_score" in new:
            # Every sit-out gets the new score, those of the rounds already played too (a director
            # changing it means the evening's rule): the reason is in the log with the change.
            SitOut.objects.filter(round__tournament=t).update(score=new["sit_out_score"])
            projections.standings_sit_out_score(t, appended)
        elif ranking or "name" in new:
            projections.standings_refresh(t)
    log.info("tournament %s changed by %s: %s (%s)", t.pk, actor_name(actor) or "-", new, why)
    return t


def player_register(
    *, tournament: Tournament, player: Player, guest: bool = False, expected_version: int, actor: User | None
) -> Registration:
    """Enter a player: a member of the tournament's club, or (``guest``) a player of another club."""
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        if player.club_id != t.club_id and not guest:
            raise Refused(
                "registration.other_club",
                gettext("{player} plays for another club: register him as a guest").format(player=player),
                field="guest",
            )
        if Registration.objects.filter(tournament=t, player=player).exists():
            raise Refused(
                "registration.twice",
                gettext("{player} is already registered").format(player=player),
                field="player",
            )
        guest = guest and player.club_id != t.club_id
        _append(t, events.PlayerRegistered(player=player.pk, name=player.name, guest=guest), actor)
        registration = Registration.objects.create(tournament=t, player=player, guest=guest)
        projections.standings_refresh(t)
    return registration


def player_join(
    *, tournament: Tournament, name: Any, expected_version: Any, actor: User | None = None
) -> Registration:
    """A walk-in: a new player of the tournament's club, registered at once (both or neither). A name the
    club already has is refused, so that nobody is entered twice: register that player instead."""
    if not isinstance(name, str) or not name.strip():
        raise Invalid("player.name", gettext("a new player needs a name"), field="name")
    name = name.strip()
    if len(name) > Player._meta.get_field("name").max_length:  # type: ignore[operator]
        raise Invalid("player.name", gettext("a name has at most {n} characters").format(n=120), field="name")
    if "\x00" in name:
        raise Invalid("player.name", gettext("a name cannot hold the NUL character"), field="name")
    with transaction.atomic():
        if Player.objects.filter(club_id=tournament.club_id, name__iexact=name).exists():
            raise Refused(
                "player.exists",
                gettext("{player} is already a player of the club: register him from the list").format(
                    player=name
                ),
                field="name",
            )
        player = Player.objects.create(club_id=tournament.club_id, name=name)
        return player_register(
            tournament=tournament, player=player, expected_version=expected_version, actor=actor
        )


def player_withdraw(
    *, tournament: Tournament, player: Player, reason: str, expected_version: int, actor: User | None
) -> Registration:
    """The player is seated no more from the next round on; his results so far keep counting."""
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        registration = Registration.objects.filter(tournament=t, player=player, active=True).first()
        if registration is None:
            raise Refused(
                "registration.none",
                gettext("{player} is not playing in {tournament}").format(player=player, tournament=t),
                field="player",
            )
        why = _check_reason(reason, required=True, what=gettext("a withdrawal needs a reason"))
        _append(t, events.PlayerWithdrawn(player=player.pk, reason=why), actor)
        registration.active = False
        registration.save(update_fields=["active"])
    return registration


def standings_publish(
    *, tournament: Tournament, published: bool, expected_version: int, actor: User | None
) -> Tournament:
    """Let anyone read the standings (and the tables' matches created from now on), or members only."""
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        if t.published == published:
            raise Refused("tournament.unchanged", gettext("the standings are already so"), field="published")
        _append(t, events.StandingsPublished(published=published), actor)
        t.published = published
        t.save(update_fields=["published"])
        Match.objects.filter(tournament_table__round__tournament=t).update(published=published)
    return t


# ---- rounds ------------------------------------------------------------------------------------------
def round_seed(tournament: Tournament, number: int) -> int:
    """The seating seed of a round when the director gives none: derived from the tournament's seed, so
    that the whole tournament is reproducible from one number."""
    return (tournament.seed * 1_000_003 + number * 7_919) % 2**31


def round_open(
    *,
    tournament: Tournament,
    expected_version: int,
    actor: User | None,
    game: str | None = None,
    seed: int | None = None,
) -> Round:
    """Seat the next round and create its tables' matches (the scorers only open them).

    The planner seats the registered players still playing so that they meet as many new opponents as it
    can over the rounds left (``rounds_planned``), with the earlier rounds as history.
    """
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        if t.rounds.filter(status=Round.Status.OPEN).exists():
            current = t.rounds.get(status=Round.Status.OPEN)
            raise Refused(
                "round.open",
                gettext("round {n} is still open: close it first").format(n=current.number),
                field="round",
            )
        if game is None:
            if len(t.games) > 1:
                raise Invalid(
                    "round.game",
                    gettext("name the game of this round (one of {games})").format(games=", ".join(t.games)),
                    field="game",
                )
            game = t.games[0]
        if game not in t.games:
            raise Invalid(
                "round.game",
                gettext("{game!r} is not one of {games}").format(game=game, games=", ".join(t.games)),
                field="game",
            )
        number = (t.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        if seed is None:
            seed = round_seed(t, number)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise Invalid("round.seed", gettext("seed is a whole number from 0"), field="seed")
        registrations = list(
            Registration.objects.filter(tournament=t, active=True)
            .select_related("player")
            .order_by("player_id")
        )
        players = {r.player_id: r.player for r in registrations}
        rules = get_game(game)
        smallest = min(rules.seat_counts)
        if len(players) < smallest:
            raise Refused(
                "round.too_few",
                gettext("{count} players registered: a table of {game} needs {smallest}").format(
                    count=len(players), game=words.game(game), smallest=smallest
                ),
                field="round",
            )
        history, history_sit_outs, history_dealers = _history(t)
        ahead = t.rounds_planned - number + 1 if t.rounds_planned and t.rounds_planned >= number else 1
        try:
            plan = plan_seating(
                players=sorted(players),
                table_sizes=tuple(sorted(rules.seat_counts, reverse=True)),
                rounds=ahead,
                seed=seed,
                history=history,
                history_sit_outs=history_sit_outs,
                history_dealers=history_dealers,
                forbidden=[(a, b) for a, b in t.forbidden_pairs if a in players and b in players],
                partnerships=game == "tressette",
                budget_seconds=settings.SEATING_BUDGET_SECONDS,
            )
        except SeatingError as exc:
            names = {k: players[v].name if v in players else v for k, v in exc.params.items()}
            said = _said(exc.template, names) if exc.template else str(exc)
            raise Refused("round.seating", said, field="round") from exc
        seated = plan.rounds[0]
        rnd = Round.objects.create(tournament=t, number=number, game=game, seed=seed, repeats=plan.repeats)
        options = t.game_options.get(game, {})
        scorers = list(t.scorers.all())
        tables: list[dict[str, Any]] = []
        for i, table in enumerate(seated.tables, start=1):
            match = match_create(
                club=t.club,
                game=game,
                seats=[players[p] for p in table.players],
                dealer=table.dealer,
                options=options,
                # In the director's language at the time: a title is the match's name, kept as written.
                title=gettext("{tournament} · round {n} · table {table}").format(
                    tournament=t.name, n=number, table=i
                ),
                published=t.published,
                scorers=scorers,
                guests=True,  # registered guests of other clubs sit at the tables too
                actor=actor,
            )
            pairs = [list(p) for p in table.pairs] if table.pairs else None
            Table.objects.create(
                round=rnd,
                number=i,
                match=match,
                players=list(table.players),
                dealer=table.dealer,
                pairs=pairs,
            )
            tables.append(
                {
                    "table": i,
                    "match": match.pk,
                    "players": list(table.players),
                    "dealer": table.dealer,
                    "pairs": pairs,
                }
            )
        sit_outs = sorted(seated.sit_outs)
        SitOut.objects.bulk_create(
            [SitOut(round=rnd, player=players[p], score=t.sit_out_score) for p in sit_outs]
        )
        opened = events.RoundOpened(
            number=number,
            game=game,
            seed=seed,
            tables=tuple(tables),
            sit_outs=tuple(sit_outs),
            sit_out_score=t.sit_out_score,
            repeats=plan.repeats,
        )
        appended = _append(t, opened, actor)
        projections.standings_sit_outs(t, rnd, appended)
    return rnd


def _history(t: Tournament) -> tuple[list[list[list[int]]], list[list[int]], list[int]]:
    """The earlier rounds' tables (player ids in seat order), sit-outs, and the first dealer of each table."""
    rounds = list(t.rounds.order_by("number").prefetch_related("tables", "sit_outs"))
    tables = [[list(table.players) for table in r.tables.all()] for r in rounds]
    sit_outs = [[s.player_id for s in r.sit_outs.all()] for r in rounds]
    dealers = [table.players[table.dealer] for r in rounds for table in r.tables.all()]
    return tables, sit_outs, dealers


def _open_round(t: Tournament, number: int) -> Round:
    rnd = t.rounds.filter(number=number).first()
    if rnd is None:
        raise Refused("round.unknown", gettext("there is no round {n}").format(n=number), field="round")
    if rnd.status != Round.Status.OPEN:
        raise Refused("round.closed", gettext("round {n} is closed").format(n=number), field="round")
    return rnd


def table_abandon(
    *,
    tournament: Tournament,
    round_number: int,
    table_number: int,
    reason: str,
    expected_version: int,
    actor: User | None,
) -> Table:
    """Record that a table's match stopped unfinished: the round can close, and the table counts nothing."""
    why = _check_reason(reason, required=True, what=gettext("an abandoned table needs the director's reason"))
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        rnd = _open_round(t, round_number)
        table = rnd.tables.select_related("match").filter(number=table_number).first()
        if table is None:
            raise Refused(
                "table.unknown",
                gettext("round {n} has no table {table}").format(n=round_number, table=table_number),
                field="table",
            )
        if table.abandoned:
            raise Refused(
                "table.abandoned",
                gettext("table {table} is already abandoned").format(table=table_number),
                field="table",
            )
        if table.match.status == Match.Status.FINISHED:
            raise Refused(
                "table.finished",
                gettext("table {table} has finished its match").format(table=table_number),
                field="table",
            )
        _append(t, events.TableAbandoned(round=round_number, table=table_number, reason=why), actor)
        table.abandoned = True
        table.abandon_reason = why
        table.save(update_fields=["abandoned", "abandon_reason"])
        projections.standings_refresh(t, table=table)
    return table


def round_close(
    *, tournament: Tournament, round_number: int, expected_version: int, actor: User | None
) -> Round:
    """Close a round once every table has finished its match or was recorded as abandoned."""
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        rnd = _open_round(t, round_number)
        waiting = [
            table.number
            for table in rnd.tables.select_related("match").order_by("number")
            if not table.abandoned and table.match.status != Match.Status.FINISHED
        ]
        if waiting:
            listed = ", ".join(str(n) for n in waiting)
            raise Refused(
                "round.unfinished",
                gettext(
                    "table {tables} has not finished: finish it, or record it as abandoned with a reason"
                ).format(tables=listed),
                field="round",
            )
        appended = _append(t, events.RoundClosed(number=round_number), actor)
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = timezone.now()
        rnd.closed_position = appended.positions[-1]
        rnd.save(update_fields=["status", "closed_at", "closed_position"])
    return rnd


def standings_rebuild_queue(*, tournament: Tournament) -> bool:
    """Ask a worker to compute the tournament's standings (and ratings) again from the event log; whether
    the request reached the broker (if not, the periodic catch-up will see to it)."""
    return tasks.enqueue(tasks.standings_rebuild, tournament.pk)
