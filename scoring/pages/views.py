"""The pages people use at the table: match list, new match, the table entry page of a hand, the score
sheet, the replay viewer and the director's ruling form.

Views check the permission (``scoring.permissions``), validate the form, call one service or selector,
and render; :mod:`scoring.pages.display` arranges what the selectors return for the templates.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Club
from clubs.permissions import Role, club_role
from common.errors import ConcurrencyConflict, ServiceError
from scoring import permissions, words
from scoring.models import Hand, Match
from scoring.pages import display, offline
from scoring.pages.forms import (
    DealForm,
    GameForm,
    MatchForm,
    MoveForm,
    OptionsForm,
    RulingForm,
    UndoForm,
    VersionedForm,
)
from scoring.rules import ImpossibleMove, MalformedMove, RulesError, get_game
from scoring.rules.cards import LANGUAGES
from scoring.selectors import (
    hand_audit,
    hand_claim_line,
    hand_disputed_claim,
    hand_replay,
    hand_state,
    match_hashes,
    match_rescore,
    match_sheet,
)
from scoring.services import hand_start, match_create, move_record, move_undo, ruling_preview, ruling_record
from scoring.voice import Voice, error_text, verdict_text


# ---- clubs and matches ---------------------------------------------------------------------------
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.order_by("name")
    return render(request, "scoring/club_list.html", {"clubs": clubs})


def match_list(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    matches = permissions.readable_matches(request.user, club).prefetch_related("seats", "hands")
    return render(
        request,
        "scoring/match_list.html",
        {
            "club": club,
            "matches": [_match_row(m) for m in matches],
            "can_create": permissions.can_create_match(request.user, club),
        },
    )


def _match_row(match: Match) -> dict[str, Any]:
    hands = list(match.hands.all())
    return {
        "match": match,
        "title": display.game_title(match.game),
        "seats": [s.name for s in match.seats.all()],
        "hands": len(hands),
        "flagged": sum(h.flagged for h in hands),
        "current": hands[-1] if hands else None,
    }


@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    if not permissions.can_create_match(request.user, club):
        return _denied(request)
    picker = GameForm(request.GET or None)
    if not picker.is_valid():
        return render(request, "scoring/match_new.html", {"club": club, "picker": GameForm()})
    game = get_game(picker.cleaned_data["game"])
    form = MatchForm(request.POST or None, game=game, club=club)
    if club_role(request.user, club) != Role.DIRECTOR:
        del form.fields["published"]  # publishing a match is a director's (docs/api.md)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                match = match_create(
                    club=club,
                    game=game.name,
                    seats=data["seats"],
                    dealer=data["dealer"],
                    options=data["options"],
                    direction=data["direction"],
                    title=data["title"],
                    published=data.get("published", False),
                    actor=request.user,
                )
                # A scorer who opens a match scores it: he is its first assigned scorer.
                if request.user.is_authenticated:
                    match.scorers.add(request.user)
        except RulesError as exc:
            _form_error(form, exc, Voice.of(game.name), prefix="opt_")
        else:
            return redirect("pages:hand-table", match_id=match.pk, number=1)
    return render(
        request,
        "scoring/match_new.html",
        {
            "club": club,
            "picker": picker,
            "game": game,
            "game_title": display.game_title(game.name),
            "seat_counts": _(" or ").join(str(n) for n in game.seat_counts),
            "form": form,
        },
        status=400 if form.errors else 200,
    )


def _form_error(form: Any, exc: RulesError, voice: Voice, *, prefix: str = "") -> None:
    """Attach an engine or service error, in words, to the field it names, or to the form."""
    text = error_text(exc, voice)
    # A ruling's rectification names its own fields (``rectification.line``): the form has them bare.
    bare = exc.field.removeprefix("rectification.") if exc.field else None
    for name in (f"{prefix}{exc.field}", exc.field, bare):
        if name and name in form.fields:
            form.add_error(name, text)
            return
    form.add_error(None, text)


# ---- the score sheet -----------------------------------------------------------------------------
def match_sheet_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    if not permissions.can_read(request.user, match):
        return _denied(request)
    sheet = match_sheet(match)
    hands = list(match.hands.order_by("number"))
    return render(
        request,
        "scoring/sheet.html",
        {
            "match": match,
            "title": display.game_title(match.game),
            "options": display.options(match),
            "sheet": sheet,
            "table": display.sheet_table(sheet, {h.number: h for h in hands}),
            "hands": hands,
            "current": hands[-1] if hands else None,
            "winners": [sheet["seats"][i] for i in sheet.get("winners", [])],
            "sides": display.sides(sheet),
            "adjusted": display.adjusted_totals(sheet),
            "flagged_hands": [h.number for h in hands if h.flagged],
            "can_record": permissions.can_record(request.user, match),
            "hashes": match_hashes(match, hands),
        },
    )


def match_compare_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """What if the match had been played by other rules: its recorded moves scored again under the
    options chosen here, hand by hand beside the sheet. A read: nothing is written, and the page says
    everywhere that it is not the official result."""
    match = _match(match_id)
    if not permissions.can_read(request.user, match):
        return _denied(request)
    game = get_game(match.game)
    if "compare" in request.GET:
        form = OptionsForm.asked(game, match.options, request.GET)
    else:
        form = OptionsForm(game, match.options)
    v = _voice(request, match)
    report = None
    if form.is_bound and form.is_valid():
        try:
            report = match_rescore(match, form.options())
        except RulesError as exc:
            form.add_error(None, error_text(exc, v))
    return render(
        request,
        "scoring/compare.html",
        {
            "match": match,
            "title": display.game_title(match.game),
            "options": display.options(match),
            "form": form,
            "report": report,
            "view": display.whatif_view(report, v) if report else None,
        },
    )


@require_POST
def hand_next(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    if not permissions.can_record(request.user, match):
        return _denied(request)
    try:
        hand = hand_start(match=match, actor=request.user)
    except RulesError as exc:
        messages.error(request, error_text(exc, _voice(request, match)))
        return redirect("pages:match-sheet", match_id=match.pk)
    except ServiceError as exc:  # an abandoned table
        messages.error(request, exc.message)
        return redirect("pages:match-sheet", match_id=match.pk)
    return redirect("pages:hand-table", match_id=match.pk, number=hand.number)


# ---- the table entry page ------------------------------------------------------------------------
def hand_table(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    if not permissions.can_read(request.user, hand.match):
        return _denied(request)
    return _table(request, hand)


@require_POST
def hand_move(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    if not permissions.can_record(request.user, hand.match):
        return _denied(request)
    seats = _seat_names(hand.match)
    voice = _voice(request, hand.match, seats)
    form: MoveForm | DealForm
    if request.POST.get("entry") == "deal":
        form = DealForm(request.POST, seats=seats, voice=voice)
    else:
        form = MoveForm(request.POST, seats=seats, voice=voice)
    if not form.is_valid():
        return _refused(request, hand, _first_error(form), 400, form, field=next(iter(form.errors), None))
    data = form.cleaned_data
    try:
        outcome = move_record(
            hand=hand,
            move=data["move_dict"],
            expected_version=data["expected_version"],
            idempotency_key=data["idempotency_key"] or None,
            actor=request.user,
        )
    except MalformedMove as exc:
        return _refused(request, hand, error_text(exc, voice), 400, form)
    except ImpossibleMove as exc:
        return _refused(request, hand, error_text(exc, voice), 422, form)
    except ConcurrencyConflict as exc:
        return _refused(request, hand, _stale(exc), 409)
    except ServiceError as exc:  # an abandoned table
        return _refused(request, hand, exc.message, exc.status_code, form)
    if outcome.replayed:
        messages.info(request, _("Already recorded (the same tap arrived twice)."))
    else:
        label = display.label_with_seat(data["move_dict"], voice)
        messages.success(request, _("Recorded: {move}").format(move=label))
        for verdict in outcome.verdicts:
            text = verdict_text(verdict.as_dict(), voice)
            messages.warning(
                request, _("Irregular, flagged for the director: {verdict}").format(verdict=text)
            )
    return _after_write(request, match_id, number)


@require_POST
def hand_undo(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    if not permissions.can_record(request.user, hand.match):
        return _denied(request)
    form = UndoForm(request.POST)
    if not form.is_valid():
        return _refused(request, hand, _first_error(form), 400)
    try:
        move_undo(
            hand=hand,
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
            reason=form.cleaned_data["reason"],
        )
    except RulesError as exc:
        return _refused(request, hand, error_text(exc, _voice(request, hand.match)), 422)
    except ConcurrencyConflict as exc:
        return _refused(request, hand, _stale(exc), 409)
    except ServiceError as exc:  # an abandoned table
        return _refused(request, hand, exc.message, exc.status_code)
    messages.success(request, _("Last move undone."))
    return _after_write(request, match_id, number)


def _in_place(request: HttpRequest) -> bool:
    """A write sent by the table page's script (``scoring/static/scoring/table.js``), which puts the
    page it gets back in place of the current one: no reload, no redirect to follow."""
    return request.headers.get("X-Requested-With") == "fetch"


def _after_write(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """Post/redirect/get for a form; for the script, the table as it now stands, in the same answer."""
    if _in_place(request):
        return _table(request, _hand(match_id, number))
    return redirect("pages:hand-table", match_id=match_id, number=number)


REFUSAL = "table_refusal"


def _refused(
    request: HttpRequest,
    hand: Hand,
    error: str,
    status: int,
    posted: MoveForm | DealForm | None = None,
    *,
    field: str | None = None,
) -> HttpResponse:
    """A write that was not recorded. The script gets the table with the reason in place (and the status
    saying why); a plain form is redirected to the table, which shows the reason and what was typed,
    so that reloading the page never sends the move again."""
    if _in_place(request):
        return _table(request, hand, error=error, status=status, posted=posted, field=field)
    typed = {k: v for k, v in posted.data.items() if k not in ("csrfmiddlewaretoken",)} if posted else {}
    request.session[REFUSAL] = {
        "hand": hand.pk,
        "error": error,
        "status": status,
        "deal": isinstance(posted, DealForm),
        "field": field,
        "typed": {k: str(v)[:300] for k, v in typed.items()},
    }
    return redirect("pages:hand-table", match_id=hand.match_id, number=hand.number)


def hand_version(request: HttpRequest, match_id: int, number: int) -> JsonResponse:
    """The hand's version, which the table page polls to follow moves recorded on another device."""
    hand = _hand(match_id, number)
    if not permissions.can_read(request.user, hand.match):
        return JsonResponse({"code": "not_found", "message": _("No such hand."), "field": None}, status=404)
    return JsonResponse({"version": hand.version, "status": hand.status})


def _table(
    request: HttpRequest,
    hand: Hand,
    *,
    error: str | None = None,
    status: int = 200,
    posted: MoveForm | DealForm | None = None,
    field: str | None = None,
) -> HttpResponse:
    match = hand.match
    game = get_game(match.game)
    now = hand_state(hand)
    state, seats = now["state"], now["seats"]
    voice = _voice(request, match, seats)
    audit = hand_audit(hand)
    can_record = permissions.can_record(request.user, match)
    last = audit[-1] if audit else None
    latest = match.hands.order_by("-number").values_list("number", flat=True).first() == hand.number
    fresh = VersionedForm.fresh(hand.version)
    typed: Mapping[str, Any] = posted.data if posted is not None else {}
    typed_deal = isinstance(posted, DealForm)
    refusal = request.session.pop(REFUSAL, None) if request.method == "GET" else None
    if refusal and refusal.get("hand") == hand.pk:
        error, typed, typed_deal = refusal["error"], refusal["typed"], refusal["deal"]
        field = refusal.get("field")
    entry = can_record and not state["over"] and match.status != Match.Status.ABANDONED
    # A card keyed by hand is refused beside its field, where the scorer's eyes and thumb are.
    keyed = bool(typed.get("card")) and not (typed.get("move") or typed.get("move_json") or typed_deal)
    card_error = error if keyed and entry and state["phase"] != "deal" else None
    # A seat's cards (or the stock) that do not read: the refusal goes under that field of the deal.
    deal_field = field if typed_deal and entry and state["phase"] == "deal" and error else None
    # A keying error keeps what was typed, so that it can be corrected rather than keyed again.
    move_form = MoveForm(
        initial={
            **fresh,
            "card": "" if typed_deal else typed.get("card", ""),
            "seat": display.default_seat(state),
        },
        seats=seats,
    )
    deal_form = DealForm(initial=fresh, seats=seats)
    if typed_deal:
        kept = {k: typed.get(k) for k in typed if k.startswith("hand_") or k == "stock"}
        deal_form = DealForm(initial={**fresh, **kept}, seats=seats)
    context = {
        "match": match,
        "hand": hand,
        "title": display.game_title(match.game),
        "card_lang": voice.lang,
        "card_langs": LANGUAGES,
        "now": now,
        "state": state,
        **_felt(state, voice, match.direction),
        "moves": display.move_log(now, voice),
        "result": display.result_view(now.get("result"), voice),
        "can_record": can_record,
        "can_rule": permissions.can_rule(request.user, match),
        "entry": entry,
        "abandoned": match.status == Match.Status.ABANDONED,
        "deal_phase": state["phase"] == "deal",
        "legal": display.legal_buttons(state, game, voice),
        "claim": display.claim_move(game, state, voice),
        "claim_answer": display.claim_view(hand_disputed_claim(hand), voice),
        "move_form": move_form,
        "deal_form": deal_form,
        "fresh": fresh,
        "can_undo": can_record
        and match.status != Match.Status.ABANDONED
        and latest
        and last is not None
        and last["type"] == "MoveRecorded"
        and last["by"] == request.user.get_username(),
        "next_hand": can_record and latest and state["over"] and match.status == Match.Status.OPEN,
        "error": None if card_error or deal_field else error,
        "card_error": card_error,
        "deal_field": deal_field,
        "deal_error": error if deal_field else None,
        "offline_hand": offline.snapshot(
            now,
            voice,
            match_id=match.pk,
            number=hand.number,
            api=reverse("api:moves", args=[match.pk, hand.number]),
            queue=reverse("api:move-queue", args=[match.pk, hand.number]),
            deck=list(voice.deck.cards) if voice.deck is not None else [],
        ),
        "offline_words": offline.words(),
    }
    return render(request, "scoring/table.html", context, status=status)


# The assets a table page needs, kept by the service worker so that the page opens without a network.
OFFLINE_ASSETS = ("scoring/pages.css", "scoring/favicon.svg", "scoring/table.js", "scoring/offline.js")


def service_worker(request: HttpRequest) -> HttpResponse:
    """The table pages' service worker (scoring/static/scoring/offline.js registers it). Served under
    /matches/ so that its scope covers the table pages; never cached by the browser's HTTP cache, so that
    a new version takes over at the next visit."""
    response = render(
        request,
        "scoring/sw.js",
        {"assets": json.dumps([static(a) for a in OFFLINE_ASSETS])},
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/matches/"
    response["Cache-Control"] = "no-cache"
    return response


# ---- the replay viewer ---------------------------------------------------------------------------
def hand_replay_page(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    if not permissions.can_read(request.user, hand.match):
        return _denied(request)
    if "line" in request.GET:
        return _claim_line_page(request, hand)
    try:
        step = int(request.GET.get("step", "0"))
        at = hand_replay(hand, step)
    except (ValueError, ImpossibleMove):
        raise Http404(_("There is no such step in this hand.")) from None
    state, seats = at["state"], at["seats"]
    voice = _voice(request, hand.match, seats)
    log = display.move_log(at, voice)
    whole = hand_state(hand)  # rulings and the audit trail name moves by their numbers in the whole hand
    numbers = display.move_numbers(whole)
    claim = hand_disputed_claim(hand) if step else None
    return render(
        request,
        "scoring/replay.html",
        {
            "match": hand.match,
            "hand": hand,
            "title": display.game_title(hand.match.game),
            "at": at,
            "state": state,
            "step": step,
            "steps": at["steps"],
            "prev": step - 1 if step > 0 else None,
            "next": step + 1 if step < at["steps"] else None,
            **_felt(state, voice, hand.match.direction),
            "moves": log,
            "legal": display.legal_by_seat(state, voice),
            "rulings": [display.ruling_view(r, numbers, voice) for r in at["rulings"]],
            "audit": display.audit_rows(hand_audit(hand), voice),
            "result": display.result_view(at.get("result"), voice),
            # At the disputed claim, the way into the solver's line from there.
            "line_here": bool(claim and claim.get("line") and claim["step"] == step),
        },
    )


def _claim_line_page(request: HttpRequest, hand: Hand) -> HttpResponse:
    """The replay viewer on the solver's line after the hand's disputed claim, card by card."""
    try:
        played = int(request.GET.get("line", "0"))
        at = hand_claim_line(hand, played)
    except (ValueError, ImpossibleMove):
        raise Http404(_("There is no such step in this hand.")) from None
    if at is None:
        raise Http404(_("This hand has no disputed claim with a line of play."))
    state, seats = at["state"], at["seats"]
    voice = _voice(request, hand.match, seats)
    whole = hand_state(hand)
    numbers = display.move_numbers(whole)
    shown = at["step"] + 1  # the recorded moves up to the claim, the claim included
    recorded = display.move_log({**at, "moves": whole["moves"][:shown], "verdicts": whole["verdicts"]}, voice)
    line = display.claim_line_view(at, voice)
    return render(
        request,
        "scoring/replay.html",
        {
            "match": hand.match,
            "hand": hand,
            "title": display.game_title(hand.match.game),
            "at": at,
            "state": state,
            "step": at["step"],
            "steps": at["steps"],
            "line": line,
            "played": played,
            "line_steps": at["line_steps"],
            "prev": played - 1 if played > 0 else None,
            "next": played + 1 if played < at["line_steps"] else None,
            **_felt(state, voice, hand.match.direction),
            "moves": recorded,
            "legal": display.legal_by_seat(state, voice),
            "rulings": [display.ruling_view(r, numbers, voice) for r in at["rulings"]],
            "audit": display.audit_rows(hand_audit(hand), voice),
            "result": display.result_view(at.get("result"), voice),
            "line_result": at["line_result"],
        },
    )


# ---- the director's ruling -----------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def hand_ruling(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    match = hand.match
    if not permissions.can_rule(request.user, match):
        return _denied(request)
    now = hand_state(hand)
    seats = now["seats"]
    voice = _voice(request, match, seats)
    moves = display.move_log(now, voice)
    refs = [
        (m["position"], f"{'⚑ ' if m['verdicts'] else ''}{m['n']}. {m['seat']}: {m['label']}") for m in moves
    ]
    initial = {
        **VersionedForm.fresh(hand.version),
        "refs": request.GET.getlist("ref"),
        "rule": request.GET.get("rule", ""),
    }
    form = RulingForm(request.POST or None, initial=initial, refs=refs, seats=seats)
    preview, status = None, 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        args = {
            "hand": hand,
            "refs": data["refs"],
            "rule": data["rule"],
            "reason": data["reason"],
            "rectification": data["rectification"],
            "actor": request.user,
        }
        try:
            if request.POST.get("action") == "commit":
                ruling_record(**args, expected_version=data["expected_version"])
                messages.success(
                    request, _("Ruling recorded: {rule}").format(rule=words.rule(str(data["rule"])))
                )
                return redirect("pages:hand-table", match_id=match_id, number=number)
            preview = _preview(ruling_preview(**args), voice)
        except RulesError as exc:
            _form_error(form, exc, voice)
            status = 422
        except ConcurrencyConflict as exc:
            form.add_error(None, _stale(exc))
            status = 409
        except ServiceError as exc:  # an abandoned table
            form.add_error(None, exc.message)
            status = exc.status_code
    elif request.method == "POST":
        status = 400
    return render(
        request,
        "scoring/ruling.html",
        {
            "match": match,
            "hand": hand,
            "title": display.game_title(match.game),
            "form": form,
            "moves": moves,
            "seats": seats,
            "rules": _rules_named(moves),
            "result": display.result_view(now.get("result"), voice),
            "preview": preview,
            "claim": display.claim_view(hand_disputed_claim(hand), voice),
        },
        status=status,
    )


def _rules_named(moves: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The rules the engine's verdicts on this hand name: the director's usual choices."""
    found: dict[str, str] = {}
    for m in moves:
        for v in m["verdicts"]:
            found.setdefault(v["rule"], v["rule_name"])
    return sorted(found.items(), key=lambda kv: kv[1])


def _preview(raw: Mapping[str, Any], voice: Voice) -> dict[str, Any]:
    return {
        "before": display.result_view(raw["before"]["hand"], voice),
        "after": display.result_view(raw["after"]["hand"], voice),
        "totals_before": display.totals(raw["before"]["sheet"], voice.seats),
        "totals_after": display.totals(raw["after"]["sheet"], voice.seats),
        "flagged_after": raw["flagged_after"],
    }


# ---- lookups and refusals ------------------------------------------------------------------------
def _match(match_id: int) -> Match:
    return get_object_or_404(Match.objects.select_related("club"), pk=match_id)


def _hand(match_id: int, number: int) -> Hand:
    return get_object_or_404(Hand.objects.select_related("match__club"), match_id=match_id, number=number)


def _denied(request: HttpRequest) -> HttpResponse:
    """Anonymous visitors are asked to sign in; a signed-in user without the right gets a 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), reverse("pages:login"))
    raise PermissionDenied(_("Your role at this club does not allow this."))


def _stale(exc: ConcurrencyConflict) -> str:
    return _(
        "Someone else recorded at this table meanwhile (the hand is at version {actual}, this page "
        "showed {expected}). Here is the hand as it is now: check it and key again."
    ).format(actual=exc.actual, expected=exc.expected)


def _first_error(form: Any) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return _("The form is not valid.")


CARD_LANGUAGE = "card_language"


def _felt(state: Mapping[str, Any], voice: Voice, direction: str) -> dict[str, Any]:
    """What the table shows of a hand's state, the same on the table page and in the replay viewer: the
    phase, the seats around the felt, the trick and the last one, the game's own facts."""
    return {
        "phase": words.word(words.PHASES, state["phase"]),
        "seats": display.seats_around(state, voice, direction),
        "trick": display.trick_view(state.get("trick"), voice),
        "last_trick": display.trick_view(state.get("last_trick"), voice),
        "game_state": display.table_facts(state.get("game_state") or {}, voice),
    }


def _voice(request: HttpRequest, match: Match, seats: Sequence[str] | None = None) -> Voice:
    """How this page names the match's cards and seats. ``?lang=`` chooses the language of the card names
    for this game, kept for the session; otherwise the game's default (``voice.card_language``)."""
    chosen: dict[str, str] = dict(request.session.get(CARD_LANGUAGE) or {})
    asked = request.GET.get("lang")
    if asked in LANGUAGES and chosen.get(match.game) != asked:
        chosen[match.game] = str(asked)
        request.session[CARD_LANGUAGE] = chosen
    names = seats if seats is not None else _seat_names(match)
    return Voice.of(match.game, names, chosen.get(match.game))


def _seat_names(match: Match) -> list[str]:
    return list(match.seats.values_list("name", flat=True))
