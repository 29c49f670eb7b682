"""The director's pages: set up a tournament or league, register the players as they arrive, open a
round and watch its tables, abandon a table, close the round, publish the standings, change the
settings.

Plain forms, post/redirect/get: a write that succeeds answers with a redirect to the page that shows its
result; one that is refused shows the same page again with the service's refusal (on the field it names,
and what was typed kept), with the status the API would give (400, 422, or 409 for a form posted against
a tournament that has changed since the page was drawn). Every write is one service call; readers who are
not directors see the same pages without the forms.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Club, Player
from common.errors import ConcurrencyConflict, ServiceError
from tournaments import permissions, selectors, services
from tournaments.models import Round, Tournament
from tournaments.pages import display
from tournaments.pages.forms import (
    AbandonForm,
    GuestForm,
    JoinForm,
    MembersForm,
    OpenRoundForm,
    PublishForm,
    RegisterForm,
    SettingsForm,
    TournamentForm,
    VersionedForm,
    WithdrawForm,
)
from tournaments.pages.views import LIVE_SECONDS, readable_or_denied
from tournaments.plan.standings import default_precedence


# ---- access ------------------------------------------------------------------------------------------
def _denied(request: HttpRequest, then: str) -> HttpResponse:
    """An anonymous visitor signs in first (and comes back to ``then``); anyone else is refused (403)."""
    if not request.user.is_authenticated:
        return redirect_to_login(then, reverse("pages:login"))
    raise PermissionDenied(gettext("Only a director of the club runs its tournaments."))


def _directed(request: HttpRequest, tournament_id: int) -> tuple[Tournament, HttpResponse | None]:
    tournament = selectors.tournament_get(tournament_id)
    if permissions.can_direct(request.user, tournament):
        return tournament, None
    return tournament, _denied(request, reverse("tournament", args=[tournament.pk]))


def _field_error(form: Any, exc: ServiceError, message: str) -> None:
    """Put a service's refusal on the field it names, or over the form."""
    field = (exc.field or "").split(".")[0]
    form.add_error(field if field in form.fields else None, message)


# ---- a new tournament --------------------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    if not permissions.can_create(request.user, club):
        return _denied(request, request.get_full_path())
    form = TournamentForm(request.POST or None, club=club)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                tournament = services.tournament_create(
                    club=club,
                    name=data["name"],
                    kind=data["kind"],
                    games=data["games"],
                    game_options=data["game_options"],
                    scoring=data["scoring"],
                    tiebreaks=data["tiebreaks"] or None,
                    sit_out_score=data["sit_out_score"],
                    rounds_planned=data["rounds_planned"],
                    tressette_tables=data["tressette_tables"],
                    published=data["published"],
                    scorers=list(data["scorers"]),
                    actor=request.user,
                )
            except ServiceError as exc:
                _field_error(form, exc, display.refusal(exc))
                status = exc.status_code
            else:
                messages.success(
                    request,
                    gettext("%(name)s is set up: register the players as they arrive.")
                    % {"name": tournament.name},
                )
                return redirect("tournament", tournament_id=tournament.pk)
    return render(request, "tournaments/new.html", {"club": club, "form": form}, status=status)


# ---- the tournament's page ---------------------------------------------------------------------------
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_get(tournament_id)
    if (denied := readable_or_denied(request, tournament)) is not None:
        return denied
    return _tournament_page(request, tournament)


def _tournament_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    status: int = 200,
    error: str | None = None,
    register: MembersForm | None = None,
    guest: RegisterForm | None = None,
    guest_new: GuestForm | None = None,
    join: JoinForm | None = None,
    withdraw: tuple[int, WithdrawForm] | None = None,
    open_form: OpenRoundForm | None = None,
) -> HttpResponse:
    tournament.refresh_from_db()  # a refused write leaves the page to show the tournament as it is now
    can_direct = permissions.can_direct(request.user, tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "can_direct": can_direct,
        "registrations": selectors.registration_rows(tournament),
        "rounds": selectors.round_summaries(tournament),
        "open_round": selectors.round_open_now(tournament),
        "table_warning": selectors.table_warning(
            tournament, "tressette", tournament.registrations.filter(active=True).count()
        )
        if "tressette" in tournament.games
        else "",
        "scorers": list(tournament.scorers.order_by("username")),
        "error": error,
    }
    if can_direct:
        candidates = selectors.registration_candidates(tournament)
        guests = [(club, [(p.pk, p.name) for p in players]) for club, players in candidates["guests"]]
        context.update(
            register_form=register or MembersForm(choices=[(p.pk, p.name) for p in candidates["members"]]),
            guest_new_form=guest_new or GuestForm(prefix="newguest"),
            club_names=list(Club.objects.exclude(pk=tournament.club_id).values_list("name", flat=True)),
            guest_form=guest or RegisterForm(choices=guests, prefix="guest"),
            join_form=join or JoinForm(prefix="join"),
            has_guests=bool(guests),
            withdraw_player=withdraw[0] if withdraw else None,
            withdraw_form=withdraw[1] if withdraw else None,
            open_form=open_form or OpenRoundForm(games=tournament.games),
            several_games=len(tournament.games) > 1,
        )
    return render(request, "tournaments/detail.html", context, status=status)


@require_POST
def player_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    guest = "guest-player" in request.POST
    if not guest:
        return _members_register(request, tournament)
    form = RegisterForm(request.POST, prefix="guest")

    def again(status: int, error: str | None = None) -> HttpResponse:
        return _tournament_page(request, tournament, status=status, error=error, guest=form)

    if not form.is_valid():
        return again(400)
    player: Player = form.cleaned_data["player"]
    try:
        services.player_register(
            tournament=tournament,
            player=player,
            guest=guest,
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return again(409, display.stale(exc))
    except ServiceError as exc:
        _field_error(form, exc, display.refusal(exc, player=player.name))
        return again(exc.status_code)
    if guest:
        messages.success(request, gettext("%(player)s registered as a guest.") % {"player": player.name})
    else:
        messages.success(request, gettext("%(player)s registered.") % {"player": player.name})
    return redirect("tournament", tournament_id=tournament.pk)


def _members_register(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The members ticked on the tournament's page, registered in one go."""
    candidates = selectors.registration_candidates(tournament)
    form = MembersForm(request.POST, choices=[(p.pk, p.name) for p in candidates["members"]])
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, register=form)
    players: list[Player] = list(form.cleaned_data["player"])
    try:
        services.players_register(
            tournament=tournament,
            players=players,
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return _tournament_page(request, tournament, status=409, error=display.stale(exc), register=form)
    except ServiceError as exc:
        named = next((p.name for p in players if p.name in exc.message), players[0].name)
        _field_error(form, exc, display.refusal(exc, player=named))
        return _tournament_page(request, tournament, status=exc.status_code, register=form)
    if len(players) == 1:
        messages.success(request, gettext("%(player)s registered.") % {"player": players[0].name})
    else:
        messages.success(
            request,
            ngettext(
                "%(count)s player registered: %(players)s.",
                "%(count)s players registered: %(players)s.",
                len(players),
            )
            % {"count": len(players), "players": ", ".join(p.name for p in players)},
        )
    return redirect("tournament", tournament_id=tournament.pk)


@require_POST
def guest_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A guest from another club, typed in: his club found or created, then registered as a guest."""
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    form = GuestForm(request.POST, prefix="newguest")
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, guest_new=form)
    try:
        registration = services.guest_join(
            tournament=tournament,
            name=form.cleaned_data["name"],
            club_name=form.cleaned_data["club"],
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return _tournament_page(request, tournament, status=409, error=display.stale(exc), guest_new=form)
    except ServiceError as exc:
        _field_error(form, exc, display.refusal(exc, player=form.cleaned_data["name"]))
        return _tournament_page(request, tournament, status=exc.status_code, guest_new=form)
    messages.success(
        request,
        gettext("%(player)s of %(club)s registered as a guest.")
        % {"player": registration.player.name, "club": registration.player.club.name},
    )
    return redirect("tournament", tournament_id=tournament.pk)


@require_POST
def player_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A walk-in, not yet a player of the club: added to the club and registered in one step."""
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    form = JoinForm(request.POST, prefix="join")
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, join=form)
    try:
        registration = services.player_join(
            tournament=tournament,
            name=form.cleaned_data["name"],
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return _tournament_page(request, tournament, status=409, error=display.stale(exc), join=form)
    except ServiceError as exc:
        form.add_error("name" if exc.field == "name" else None, exc.message)
        return _tournament_page(request, tournament, status=exc.status_code, join=form)
    messages.success(
        request,
        gettext("%(player)s joined the club and is registered.") % {"player": registration.player.name},
    )
    return redirect("tournament", tournament_id=tournament.pk)


@require_POST
def player_withdraw(request: HttpRequest, tournament_id: int, player_id: int) -> HttpResponse:
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    player = selectors.player_get(player_id)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, withdraw=(player.pk, form))
    try:
        services.player_withdraw(
            tournament=tournament,
            player=player,
            reason=form.cleaned_data["reason"],
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return _tournament_page(
            request, tournament, status=409, error=display.stale(exc), withdraw=(player.pk, form)
        )
    except ServiceError as exc:
        message = display.refusal(
            exc, {"tournament.reason": gettext("A withdrawal needs a reason.")}, player=player.name
        )
        _field_error(form, exc, message)
        return _tournament_page(request, tournament, status=exc.status_code, withdraw=(player.pk, form))
    messages.success(
        request,
        gettext("%(player)s is withdrawn: seated no more from the next round on; the results so far count.")
        % {"player": player.name},
    )
    return redirect("tournament", tournament_id=tournament.pk)


@require_POST
def tournament_publish(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    form = PublishForm(request.POST)
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, error=gettext("The form was incomplete."))
    published = form.cleaned_data["published"]
    try:
        services.standings_publish(
            tournament=tournament,
            published=published,
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return _tournament_page(request, tournament, status=409, error=display.stale(exc))
    except ServiceError as exc:
        message = display.refusal(exc, {"tournament.unchanged": gettext("The standings are already so.")})
        return _tournament_page(request, tournament, status=exc.status_code, error=message)
    if published:
        messages.success(request, gettext("The standings are published: anyone may read them."))
    else:
        messages.success(request, gettext("The standings are for the club's members only again."))
    return redirect("tournament", tournament_id=tournament.pk)


# ---- settings ----------------------------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def tournament_settings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    initial = SettingsForm.initial_for(tournament)
    form = SettingsForm(request.POST or None, initial=initial, club=tournament.club)
    status = 200
    preview = None
    if request.method == "POST" and "preview" in request.POST:
        # What the standings would be under the new ranking: a read, nothing saved.
        if form.is_valid():
            changes = {k: v for k, v in form.changes().items() if k in selectors.WHATIF_SETTINGS}
            if "tiebreaks" in changes and not changes["tiebreaks"]:
                changes["tiebreaks"] = list(default_precedence(tournament.games))
            try:
                checked = services.whatif_changes(tournament, changes)
            except ServiceError as exc:
                _field_error(form, exc, display.refusal(exc))
                status = exc.status_code
            else:
                preview = _preview(selectors.standings_whatif(tournament, checked))
        else:
            status = 400
    elif request.method == "POST":
        status = 400
        if form.is_valid():
            changes = form.changes()
            if "tiebreaks" in changes and not changes["tiebreaks"]:
                changes["tiebreaks"] = list(default_precedence(tournament.games))
            try:
                services.tournament_update(
                    tournament=tournament,
                    expected_version=form.cleaned_data["expected_version"],
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    **changes,
                )
            except ConcurrencyConflict as exc:
                form.add_error(None, display.stale(exc))
                status = 409
            except ServiceError as exc:
                reason = gettext(
                    "Round 1 has been played: changing the scoring, the tie-breaks or the sit-out score "
                    "needs a reason, kept in the tournament's log."
                )
                _field_error(form, exc, display.refusal(exc, {"tournament.reason": reason}))
                status = exc.status_code
            else:
                messages.success(request, gettext("The settings are changed."))
                return redirect("tournament", tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return render(
        request,
        "tournaments/settings.html",
        {
            "tournament": tournament,
            "form": form,
            "started": tournament.rounds.exists(),
            "changes": [_change_view(c) for c in selectors.tournament_changes(tournament)],
            "preview": preview,
        },
        status=status,
    )


def _preview(report: dict[str, Any]) -> dict[str, Any]:
    """The what-if standings for the settings page: the rows in their new order, each with its place as
    it stands, the values and the new reason it is below the row above."""
    keys = [k for k in report["precedence"] if k != "lot"]
    return {
        "columns": display.metric_columns(keys),
        "rows": display.standings_rows(report["rows"], keys, []),
        "moved": report["moved"],
        "order": [display.metric_name(k) for k in report["precedence"]],
        "refused": report["refused"],
    }


def _change_view(change: dict[str, Any]) -> dict[str, Any]:
    """A settings change from the log, with each setting by its name and its new value for people."""
    labels = {
        "name": gettext("name"),
        "scoring": gettext("scoring"),
        "tiebreaks": gettext("tie-breaks"),
        "sit_out_score": gettext("score for a sit-out"),
        "rounds_planned": gettext("rounds planned"),
        "forbidden_pairs": gettext("players kept apart"),
        "game_options": gettext("game options"),
        "scorers": gettext("scorers of the evening"),
        "tressette_tables": gettext("Tressette tables"),
    }
    shown = []
    for key, value in change["changes"].items():
        if key == "scoring":
            value = display.scoring_name(value)
        elif key == "tiebreaks":
            value = ", ".join(display.metric_name(k) for k in value)
        elif key == "scorers":
            value = ", ".join(value) or "–"
        elif key in ("forbidden_pairs", "game_options"):
            value = ""
        elif key == "tressette_tables" and value in Tournament.TressetteTables.values:
            value = Tournament.TressetteTables(value).label
        elif value is None:
            value = "–"
        shown.append({"setting": labels.get(key, key), "value": value})
    return {**change, "shown": shown}


# ---- rounds ------------------------------------------------------------------------------------------
@require_POST
def round_open(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    form = OpenRoundForm(request.POST, games=tournament.games)
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, open_form=form)
    game = form.cleaned_data["game"] or None
    if not services.tasks_run_here() and not services.seating_ready(tournament=tournament, game=game):
        # No plan kept for these players: a worker plans and opens the round while a page says so.
        services.round_open_queue(
            tournament=tournament,
            expected_version=form.cleaned_data["expected_version"],
            game=game,
            actor=request.user,
        )
        return redirect("round-opening", tournament_id=tournament.pk)
    try:
        rnd = services.round_open(
            tournament=tournament,
            expected_version=form.cleaned_data["expected_version"],
            game=form.cleaned_data["game"] or None,
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        opened = selectors.round_open_now(tournament)
        if opened is not None:  # two directors pressed the button: the other one's round is this one
            messages.warning(
                request,
                gettext("Round %(number)s was opened meanwhile by someone else: here it is.")
                % {"number": opened.number},
            )
            return redirect("round", tournament_id=tournament.pk, number=opened.number)
        return _tournament_page(request, tournament, status=409, error=display.stale(exc), open_form=form)
    except ServiceError as exc:
        if exc.field in form.fields:
            form.add_error(exc.field, display.refusal(exc))
            return _tournament_page(request, tournament, status=exc.status_code, open_form=form)
        return _tournament_page(request, tournament, status=exc.status_code, error=display.refusal(exc))
    tables = rnd.tables.count()
    messages.success(
        request,
        ngettext(
            "Round %(number)s is open: %(count)s table is seated.",
            "Round %(number)s is open: %(count)s tables are seated.",
            tables,
        )
        % {"number": rnd.number, "count": tables},
    )
    return redirect("round", tournament_id=tournament.pk, number=rnd.number)


OPENING_SECONDS = 2  # how often the page waiting for a round's seating looks again
# A planning not done by then is taken as lost (a worker stopped): the budget, and time to queue.
OPENING_PATIENCE_SECONDS = 60


def round_opening(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page a director waits on while a worker plans the next round: it looks again every few
    seconds and goes to the round once it is open, or says why it did not open."""
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    waiting = selectors.round_opening(tournament)
    if waiting["round"] is not None:
        return redirect("round", tournament_id=tournament.pk, number=waiting["round"])
    late = waiting["seconds"] > max(OPENING_PATIENCE_SECONDS, 3 * settings.SEATING_BUDGET_SECONDS)
    return render(
        request,
        "tournaments/round_opening.html",
        {
            "tournament": tournament,
            "number": waiting["number"],
            "players": waiting["players"],
            "waiting": waiting["planning"] and not late,
            "message": waiting["message"],
            "refresh_seconds": OPENING_SECONDS,
        },
    )


def round_page(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = selectors.tournament_get(tournament_id)
    if (denied := readable_or_denied(request, tournament)) is not None:
        return denied
    return _round_page(request, tournament, selectors.round_get(tournament, number))


def round_progress(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """The round page's progress alone, which the page's script asks for every few seconds."""
    tournament = selectors.tournament_get(tournament_id)
    if (denied := readable_or_denied(request, tournament)) is not None:
        return denied
    rnd = selectors.round_get(tournament, number)
    return render(
        request,
        "tournaments/_round_progress.html",
        {
            "tournament": tournament,
            "progress": selectors.round_progress(rnd),
            "can_direct": permissions.can_direct(request.user, tournament),
        },
    )


def _round_page(
    request: HttpRequest,
    tournament: Tournament,
    rnd: Round,
    *,
    status: int = 200,
    error: str | None = None,
    abandon: AbandonForm | None = None,
) -> HttpResponse:
    tournament.refresh_from_db()
    rnd.refresh_from_db()
    progress = selectors.round_progress(rnd)
    in_play = [t["number"] for t in progress["tables"] if t["progress"] == "in_play"]
    can_direct = permissions.can_direct(request.user, tournament)
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "round": rnd,
            "progress": progress,
            "can_direct": can_direct,
            "abandon_form": (abandon or AbandonForm()).offer(in_play),
            "error": error,
            "refresh_seconds": LIVE_SECONDS,
        },
        status=status,
    )


@require_POST
def round_close(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    rnd = selectors.round_get(tournament, number)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        return _round_page(request, tournament, rnd, status=400, error=gettext("The form was incomplete."))
    try:
        services.round_close(
            tournament=tournament,
            round_number=number,
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return _round_page(request, tournament, rnd, status=409, error=display.stale(exc))
    except ServiceError as exc:
        return _round_page(
            request, tournament, rnd, status=exc.status_code, error=display.refusal(exc, round=number)
        )
    messages.success(request, gettext("Round %(number)s is closed.") % {"number": number})
    return redirect("tournament", tournament_id=tournament.pk)


@require_POST
def table_abandon(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament, denied = _directed(request, tournament_id)
    if denied is not None:
        return denied
    rnd = selectors.round_get(tournament, number)
    form = AbandonForm(request.POST)
    if not form.is_valid():
        return _round_page(request, tournament, rnd, status=400, abandon=form)
    table = form.cleaned_data["table"]
    try:
        services.table_abandon(
            tournament=tournament,
            round_number=number,
            table_number=table,
            reason=form.cleaned_data["reason"],
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
        )
    except ConcurrencyConflict as exc:
        return _round_page(request, tournament, rnd, status=409, error=display.stale(exc), abandon=form)
    except ServiceError as exc:
        message = display.refusal(
            exc,
            {"tournament.reason": gettext("An abandoned table needs the director's reason.")},
            table=table,
            round=number,
        )
        _field_error(form, exc, message)
        return _round_page(request, tournament, rnd, status=exc.status_code, abandon=form)
    messages.success(
        request, gettext("Table %(table)s is recorded as abandoned: it counts nothing.") % {"table": table}
    )
    return redirect("round", tournament_id=tournament.pk, number=number)
