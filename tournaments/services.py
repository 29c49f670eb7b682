"""Writes of the tournament half: create a tournament or league, change its settings, register players,
open a round (seated by :mod:`tournaments.plan.seating`, its tables' matches created with it), abandon a
table, close a round, publish the standings.

Every write is an event on the tournament's stream (:mod:`tournaments.events`), appended at the version
the caller saw (a stale version is a conflict: two directors opening the same round cannot both win), and
the read models are written in the same transaction. A refusal raises :class:`~common.errors.Invalid`
(400) or :class:`~common.errors.Refused` (422) naming the field, and nothing is written.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Membership, Player
from common.errors import ConcurrencyConflict, Conflict, Invalid, Refused, ServiceError
from scoring import words
from scoring.log import store
from scoring.log.events import Event
from scoring.models import Match
from scoring.rules import InvalidOptions, RulesError, game_names, get_game
from scoring.services import User, actor_name, match_abandon, match_create, match_update
from tournaments import events, projections, tasks
from tournaments.models import KeptSeating, Registration, Round, SitOut, Table, Tournament
from tournaments.plan.seating import SeatingError, plan_seating
from tournaments.plan.standings import SCORING_METHODS, StandingsError, check_precedence, default_precedence
from tournaments.selectors import table_sizes

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
        if not isinstance(values, Mapping):
            # A list, a text, a number or null where the game's options go: not an object of options.
            raise Invalid(
                "tournament.game_options",
                gettext("{game}: the options are an object of option names and values").format(
                    game=words.game(game)
                ),
                field=f"game_options.{game}",
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


def _check_tressette_tables(value: Any) -> str:
    if value not in Tournament.TressetteTables.values:
        raise Invalid(
            "tournament.tressette_tables",
            gettext("tressette_tables is one of {values}").format(
                values=", ".join(Tournament.TressetteTables.values)
            ),
            field="tressette_tables",
        )
    return str(value)


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
    tressette_tables: str = Tournament.TressetteTables.MIXED,
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
    tressette = _check_tressette_tables(tressette_tables)
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
            tressette_tables=tressette,
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
            tressette_tables=tressette,
        )
        _append(tournament, created, actor)
        if published:
            tournament.published = True
            tournament.save(update_fields=["published"])
            _append(tournament, events.StandingsPublished(published=True), actor)
        projections.standings_start(tournament)
    return tournament


def whatif_changes(tournament: Tournament, changes: Any) -> dict[str, Any]:
    """Settings asked for in a what-if (the standings under another scoring, precedence, sit-out score
    or game options), checked as a change of them would be; nothing is written."""
    if not isinstance(changes, dict):
        raise Invalid("tournament.whatif", gettext("the settings are an object"), field=None)
    allowed = ("scoring", "tiebreaks", "sit_out_score", "game_options")
    unknown = sorted(set(changes) - set(allowed))
    if unknown:
        raise Invalid(
            "tournament.field",
            gettext("{field} cannot be changed").format(field=unknown[0]),
            field=unknown[0],
        )
    checked: dict[str, Any] = {}
    if "game_options" in changes:
        checked["game_options"] = _check_game_options(tournament.games, changes["game_options"])
    if "scoring" in changes:
        checked["scoring"] = _check_scoring(changes["scoring"], tournament.games)
    if "tiebreaks" in changes:
        checked["tiebreaks"] = _check_tiebreaks(changes["tiebreaks"])
    if "sit_out_score" in changes:
        checked["sit_out_score"] = _check_score(changes["sit_out_score"], "sit_out_score")
    return checked


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
        "tressette_tables",
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
        if "tressette_tables" in changes:
            new["tressette_tables"] = _check_tressette_tables(changes["tressette_tables"])
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
        if {"forbidden_pairs", "rounds_planned", "tressette_tables"} & set(new):
            _prepare_later(t)
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
        _rank_later(t, registration)
        _prepare_later(t)
    return registration


def players_register(
    *, tournament: Tournament, players: Sequence[Player], expected_version: int, actor: User | None
) -> list[Registration]:
    """Enter several members of the tournament's club at once: all of them or, when one cannot be
    (another club's, already registered), none, with the reason naming him."""
    chosen = list(dict.fromkeys(players))
    if not chosen:
        raise Invalid("registration.none_ticked", gettext("tick at least one player"), field="player")
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        taken = set(
            Registration.objects.filter(tournament=t, player__in=chosen).values_list("player_id", flat=True)
        )
        for player in chosen:
            if player.club_id != t.club_id:
                raise Refused(
                    "registration.other_club",
                    gettext("{player} plays for another club: register him as a guest").format(player=player),
                    field="player",
                )
            if player.pk in taken:
                raise Refused(
                    "registration.twice",
                    gettext("{player} is already registered").format(player=player),
                    field="player",
                )
        registered = [events.PlayerRegistered(player=p.pk, name=p.name, guest=False) for p in chosen]
        appended = store.append(t.stream_id, registered, expected_version=t.version, actor=actor_name(actor))
        t.version = appended.to_version
        t.save(update_fields=["version"])
        rows = Registration.objects.bulk_create([Registration(tournament=t, player=p) for p in chosen])
        last = Registration.objects.get(tournament=t, player=chosen[-1])
        _rank_later(t, last)
        _prepare_later(t)
    return rows


def guest_join(
    *, tournament: Tournament, name: Any, club_name: Any, expected_version: Any, actor: User | None = None
) -> Registration:
    """A guest from another club, registered from the tournament's page: the club found by its name
    (capitals aside) or created, the player found there by his name (capitals aside) or added to it."""
    name = _check_person(name, "name", gettext("a guest needs a name"))
    club_name = _check_person(club_name, "club", gettext("a guest needs the name of his club"))
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        club = Club.objects.filter(name__iexact=club_name).order_by("pk").first()
        if club is None:
            club = Club.objects.create(name=club_name)
        if club.pk == t.club_id:
            raise Refused(
                "guest.own_club",
                gettext("{club} is this tournament's club: register {player} as a member").format(
                    club=club.name, player=name
                ),
                field="club",
            )
        player = Player.objects.filter(club=club, name__iexact=name).order_by("pk").first()
        if player is None:
            player = Player.objects.create(club=club, name=name)
        return player_register(
            tournament=t, player=player, guest=True, expected_version=t.version, actor=actor
        )


def _check_person(value: Any, field: str, missing: str) -> str:
    """A name typed on a form: present, at most 120 characters, no NUL."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"guest.{field}", missing, field=field)
    said = " ".join(value.split())
    if len(said) > 120:
        raise Invalid(
            f"guest.{field}", gettext("a name has at most {n} characters").format(n=120), field=field
        )
    if "\x00" in said:
        raise Invalid(f"guest.{field}", gettext("a name cannot hold the NUL character"), field=field)
    return said


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
    exists = Refused(
        "player.exists",
        gettext("{player} is already a player of the club: register him from the list").format(player=name),
        field="name",
    )
    with transaction.atomic():
        if Player.objects.filter(club_id=tournament.club_id, name__iexact=name).exists():
            raise exists
        # The lookup above misses a walk-in of the same name entered at the same moment: the constraint
        # (any case) is what decides. On PostgreSQL the second insert waits for the first transaction,
        # then fails here if it committed; the first one entered is the player, the other is told so.
        try:
            with transaction.atomic():
                player = Player.objects.create(club_id=tournament.club_id, name=name)
        except IntegrityError:
            raise exists from None
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
        _prepare_later(t)
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


# Seats planned ahead at most (players x rounds): beyond it the plan covers fewer rounds and is made again
# when they are played, so that the planner keeps its budget at 10,000 players.
PLAN_SEATS = 60_000


def _round_game(t: Tournament, game: str | None) -> str:
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
    return game


def _refuse_if_open(t: Tournament) -> None:
    current = t.rounds.filter(status=Round.Status.OPEN).first()
    if current is not None:
        raise Refused(
            "round.open",
            gettext("round {n} is still open: close it first").format(n=current.number),
            field="round",
        )


def _round_players(t: Tournament, game: str) -> dict[int, Player]:
    registrations = list(
        Registration.objects.filter(tournament=t, active=True).select_related("player").order_by("player_id")
    )
    players = {r.player_id: r.player for r in registrations}
    smallest = min(table_sizes(t, game))
    if len(players) < smallest:
        raise Refused(
            "round.too_few",
            gettext("{count} players registered: a table of {game} needs {smallest}").format(
                count=len(players), game=words.game(game), smallest=smallest
            ),
            field="round",
        )
    return players


def _seating_key(t: Tournament, game: str, players: Sequence[int]) -> str:
    """A digest of what a kept plan was made for: the players, the game and its table sizes, the
    forbidden pairs and the rounds planned. Any change makes the plan stale."""
    made_for = {
        "players": sorted(players),
        "game": game,
        "sizes": table_sizes(t, game),
        "forbidden": sorted(sorted(p) for p in t.forbidden_pairs),
        "rounds_planned": t.rounds_planned,
    }
    return hashlib.sha256(json.dumps(made_for, sort_keys=True).encode()).hexdigest()


def _kept_round(
    t: Tournament, key: str, number: int, history: list[list[list[int]]]
) -> tuple[dict[str, Any], KeptSeating] | None:
    """Round ``number`` of the kept plan, when the plan is for these players and the rounds played
    since it began were seated as it says."""
    kept = KeptSeating.objects.filter(tournament=t, status=KeptSeating.Status.READY, key=key).first()
    if kept is None or len(history) != number - 1:
        return None
    at = number - kept.first_round
    if not 0 <= at < len(kept.rounds):
        return None
    for played, planned in zip(history[kept.first_round - 1 :], kept.rounds[:at], strict=True):
        if played != [table["players"] for table in planned["tables"]]:
            return None
    return kept.rounds[at], kept


def _plan_ahead(
    t: Tournament, game: str, number: int, players: Mapping[int, Player], seed: int
) -> list[dict[str, Any]]:
    """Plan round ``number`` and the rounds after it (as many as are planned, within PLAN_SEATS), each
    round as kept: tables, sit-outs and the repeats that round adds."""
    history, history_sit_outs, history_dealers = _history(t)
    ahead = t.rounds_planned - number + 1 if t.rounds_planned and t.rounds_planned >= number else 1
    ahead = max(1, min(ahead, PLAN_SEATS // max(1, len(players))))
    try:
        plan = plan_seating(
            players=sorted(players),
            table_sizes=table_sizes(t, game),
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
    return [
        {
            "tables": [
                {
                    "players": list(table.players),
                    "dealer": table.dealer,
                    "pairs": [list(p) for p in table.pairs] if table.pairs else None,
                }
                for table in rnd.tables
            ],
            "sit_outs": sorted(rnd.sit_outs),
            "repeats": repeats,
        }
        for rnd, repeats in zip(plan.rounds, plan.round_repeats, strict=True)
    ]


def _keep(t: Tournament, key: str, number: int, seed: int, rounds: list[dict[str, Any]]) -> None:
    KeptSeating.objects.update_or_create(
        tournament=t,
        defaults={
            "key": key,
            "first_round": number,
            "seed": seed,
            "rounds": rounds,
            "status": KeptSeating.Status.READY,
            "message": "",
            "updated_at": timezone.now(),
        },
    )


def _seating(
    t: Tournament, game: str, number: int, players: Mapping[int, Player], seed: int | None
) -> tuple[dict[str, Any], int, int]:
    """Round ``number``'s seating, its plan's seed and the round the plan began at: from the kept plan
    when it still holds (and no seed is asked for), otherwise planned now and kept."""
    key = _seating_key(t, game, list(players))
    if seed is None:
        found = _kept_round(t, key, number, _history(t)[0])
        if found is not None:
            seating, kept = found
            return seating, kept.seed, kept.first_round
        seed = round_seed(t, number)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise Invalid("round.seed", gettext("seed is a whole number from 0"), field="seed")
    rounds = _plan_ahead(t, game, number, players, seed)
    _keep(t, key, number, seed, rounds)
    return rounds[0], seed, number


def seating_ready(*, tournament: Tournament, game: str | None = None) -> bool:
    """Whether the next round can open from the kept plan, with no planning to wait for."""
    t = Tournament.objects.get(pk=tournament.pk)
    try:
        game = _round_game(t, game)
    except Invalid:
        return False
    players = Registration.objects.filter(tournament=t, active=True).values_list("player_id", flat=True)
    history = _history(t)[0]
    return _kept_round(t, _seating_key(t, game, list(players)), len(history) + 1, history) is not None


def seating_prepare(*, tournament_id: int, game: str | None = None) -> bool:
    """Plan the next rounds ahead and keep the plan, unless the kept one still holds (a worker does it
    when the players change, so that opening the round needs no planning). Whether it planned."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None or t.rounds.filter(status=Round.Status.OPEN).exists():
        return False
    try:
        game = _round_game(t, game)
        players = _round_players(t, game)
    except ServiceError:
        return False
    history = _history(t)[0]
    number = len(history) + 1
    key = _seating_key(t, game, list(players))
    if _kept_round(t, key, number, history) is not None:
        return False
    try:
        _keep(
            t,
            key,
            number,
            round_seed(t, number),
            _plan_ahead(t, game, number, players, round_seed(t, number)),
        )
    except Refused:
        return False
    return True


def tasks_run_here() -> bool:
    """Whether this process runs the tasks itself (no worker to wait for)."""
    return tasks.in_process()


def _rank_later(t: Tournament, registration: Registration) -> None:
    """Show a new player in the standings. Ranking everyone again costs in proportion to the players, so
    with a broker a worker does it after the commit (once for a burst of registrations); run in-process
    there is nobody else to do it, and it is done here."""
    if tasks.in_process():
        projections.standings_refresh(t)
    else:
        transaction.on_commit(lambda: tasks.enqueue(tasks.standings_register, t.pk, registration.pk))


def _prepare_later(t: Tournament) -> None:
    """After the commit, ask a worker to plan the next rounds (with a broker only: run in-process, the
    planning would hold up the request; the round's opening plans instead)."""
    if not tasks.in_process() and len(t.games) == 1:
        transaction.on_commit(lambda: tasks.enqueue(tasks.seating_prepare, t.pk))


def round_open_queue(
    *, tournament: Tournament, expected_version: int, actor: User | None, game: str | None = None
) -> bool:
    """Ask a worker to plan the next round and open it (the page then waits, saying so); whether the
    request reached the broker. Nothing is queued when the round can open at once."""
    t = Tournament.objects.get(pk=tournament.pk)
    number = (t.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    KeptSeating.objects.update_or_create(
        tournament=t,
        defaults={
            "status": KeptSeating.Status.PLANNING,
            "opening": number,
            "message": "",
            "updated_at": timezone.now(),
        },
    )
    actor_id = actor.pk if actor is not None and actor.is_authenticated else None
    return tasks.enqueue(tasks.round_open_planned, t.pk, expected_version, game, actor_id)


def round_open_failed(*, tournament_id: int, message: str) -> None:
    """Record why a round queued to open did not (the waiting page shows it)."""
    KeptSeating.objects.filter(tournament_id=tournament_id).update(
        status=KeptSeating.Status.FAILED, message=message[:500], updated_at=timezone.now()
    )


# The class of the session advisory locks that let one opening of a tournament's round run at a time
# (PostgreSQL's two-key form: this class, the tournament's id; the log's ordering lock is a one-key lock,
# whose high half is 0, so the two never meet).
OPENING_LOCK_CLASS = 0x5E68
_openings = threading.Lock()  # SQLite: one process serves, and one opening runs at a time in it


@contextmanager
def _opening(tournament_id: int) -> Iterator[None]:
    """Hold the tournament's opening lock from before its matches are created until its round is
    recorded: the matches are created outside the round's transaction, so a second director's opening
    must wait for the first and then find the round opened (a conflict), not create matches of its own.
    A session lock, released at the end or when the connection closes (a killed worker holds nothing)."""
    if connection.vendor != "postgresql":
        with _openings:
            yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [OPENING_LOCK_CLASS, tournament_id])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [OPENING_LOCK_CLASS, tournament_id])


def round_open(
    *,
    tournament: Tournament,
    expected_version: int,
    actor: User | None,
    game: str | None = None,
    seed: int | None = None,
) -> Round:
    """Seat the next round and create its tables' matches (the scorers only open them).

    The seating comes from the plan kept for the tournament when it still holds (same players, the
    rounds since it began seated as it says); otherwise the planner seats the registered players still
    playing so that they meet as many new opponents as it can over the rounds left (``rounds_planned``),
    with the earlier rounds as history, and the plan is kept for the next rounds.

    The matches are created before the round's own transaction, each in a short one of its own (an
    append holds the log's ordering lock until its commit, and every club's moves wait for it), private
    until the round's transaction publishes them with the tournament. Should that transaction fail (the
    tournament changed meanwhile), they stay private matches of no table.
    """
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise Invalid(
            "version.malformed", gettext("expected_version must be a whole number"), field="expected_version"
        )
    with _opening(tournament.pk):
        t = Tournament.objects.get(pk=tournament.pk)
        if t.version != expected_version:
            raise ConcurrencyConflict(t.stream_id, expected_version, t.version)
        _refuse_if_open(t)
        game = _round_game(t, game)
        number = (t.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        players = _round_players(t, game)
        seated, seed, planned_from = _seating(t, game, number, players, seed)
        options = t.game_options.get(game, {})
        scorers = list(t.scorers.all())
        matches: list[Match] = []
        # One match per transaction (match_create's own): an append holds the log's ordering lock until its
        # transaction commits, and every club's moves wait for that lock, so never a round's hundreds at once.
        for i, table in enumerate(seated["tables"], start=1):
            matches.append(
                match_create(
                    club=t.club,
                    game=game,
                    seats=[players[p] for p in table["players"]],
                    dealer=table["dealer"],
                    options=options,
                    # In the director's language at the time: a title is the match's name, kept as written.
                    title=gettext("{tournament} · round {n} · table {table}").format(
                        tournament=t.name, n=number, table=i
                    ),
                    published=False,
                    scorers=scorers,
                    guests=True,  # registered guests of other clubs sit at the tables too
                    actor=actor,
                )
            )
        try:
            return _round_record(
                t, expected_version, actor, game, number, seed, planned_from, seated, matches
            )
        except (ConcurrencyConflict, ServiceError):
            log.warning(
                "round %s of tournament %s not opened: matches %s stay private and unused",
                number,
                t.pk,
                [m.pk for m in matches],
            )
            raise


def _round_record(
    tournament: Tournament,
    expected_version: int,
    actor: User | None,
    game: str,
    number: int,
    seed: int,
    planned_from: int,
    seated: dict[str, Any],
    matches: list[Match],
) -> Round:
    """The round's rows and its event, in one transaction (its matches already exist)."""
    with transaction.atomic():
        t = _lock(tournament, expected_version)
        _refuse_if_open(t)
        players = {
            r.player_id: r.player for r in Registration.objects.filter(tournament=t).select_related("player")
        }
        rnd = Round.objects.create(
            tournament=t, number=number, game=game, seed=seed, repeats=seated.get("repeats", 0)
        )
        if t.published:
            Match.objects.filter(pk__in=[m.pk for m in matches]).update(published=True)
        tables: list[dict[str, Any]] = []
        rows = []
        for i, (table, match) in enumerate(zip(seated["tables"], matches, strict=True), start=1):
            rows.append(
                Table(
                    round=rnd,
                    number=i,
                    match=match,
                    players=list(table["players"]),
                    dealer=table["dealer"],
                    pairs=table["pairs"],
                )
            )
            tables.append(
                {
                    "table": i,
                    "match": match.pk,
                    "players": list(table["players"]),
                    "dealer": table["dealer"],
                    "pairs": table["pairs"],
                }
            )
        Table.objects.bulk_create(rows)
        sit_outs = sorted(seated["sit_outs"])
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
            repeats=seated.get("repeats", 0),
            planned_from=planned_from,
        )
        appended = _append(t, opened, actor)
        # Nothing after the append: it holds the log's ordering lock until the commit.
    if sit_outs:
        # Ranking every player again costs in proportion to them: in a transaction of its own, after
        # the round's, so that it never holds the ordering lock that every club's moves wait for.
        with transaction.atomic():
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
    """Record that a table's match stopped unfinished: the round can close, the table counts nothing, and
    its match is closed to every write.

    One decision with the match's last move (issue 25): whichever commits first wins, and the other is
    answered with a conflict (409). A move that finished the match first leaves this abandon refused;
    an abandon first leaves the move refused (``scoring.services.match_abandon``).
    """
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
        # Decided under the match's locks, so that a last move recorded at the same moment either comes
        # first (the match is finished: this abandon is refused) or waits and is refused itself.
        if not match_abandon(match=table.match, reason=why):
            raise Conflict(
                "table.finished",
                gettext("table {table} has finished its match").format(table=table_number),
                field="table",
                expected_version=expected_version,
                current_version=t.version,
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
        _prepare_later(t)
    return rnd


def standings_rebuild_queue(*, tournament: Tournament) -> bool:
    """Ask a worker to compute the tournament's standings (and ratings) again from the event log; whether
    the request was handed on for publishing (done in the background: the broker is never waited for;
    a request the broker does not take is logged, and the periodic catch-up still applies every match)."""
    return tasks.enqueue(tasks.standings_rebuild, tournament.pk)
