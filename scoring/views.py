"""The pages people use at the table: match list, new match, the table entry page of a hand, the score
sheet, the replay viewer and the director's ruling form.

Views check the permission (``scoring.permissions``), validate the form, call one service or selector,
and render. The helpers at the bottom only arrange what the selectors return for the templates (card
names, seats around the table, sheet cells); they hold no rule of any game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from scoring import permissions
from scoring.forms import DealForm, GameForm, MatchForm, MoveForm, RulingForm, UndoForm, VersionedForm
from scoring.models import Hand, Match
from scoring.rules import Game, ImpossibleMove, MalformedMove, RulesError, get_game
from scoring.rules.cards import Deck, suit_of
from scoring.rules.core import Game as BaseGame
from scoring.selectors import hand_audit, hand_replay, hand_state, match_sheet
from scoring.services import hand_start, match_create, move_record, move_undo, ruling_preview, ruling_record
from scoring.store import ConcurrencyConflict
from tournaments.models import Club

LANGS = ("it", "fr", "en")


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
        "title": _game_title(match.game),
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
                    published=data["published"],
                    actor=request.user,
                )
                # A scorer who opens a match scores it: he is its first assigned scorer.
                if request.user.is_authenticated:
                    match.scorers.add(request.user)
        except RulesError as exc:
            _form_error(form, exc, prefix="opt_")
        else:
            return redirect("pages:hand-table", match_id=match.pk, number=1)
    return render(
        request,
        "scoring/match_new.html",
        {"club": club, "picker": picker, "game": game, "form": form},
        status=400 if form.errors else 200,
    )


def _form_error(form: Any, exc: RulesError, *, prefix: str = "") -> None:
    """Attach an engine or service error to the field it names, or to the form."""
    for name in (f"{prefix}{exc.field}", exc.field):
        if name and name in form.fields:
            form.add_error(name, exc.message)
            return
    form.add_error(None, exc.message)


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
            "title": _game_title(match.game),
            "options": _options(match),
            "sheet": sheet,
            "table": _sheet_table(sheet, {h.number: h for h in hands}),
            "hands": hands,
            "current": hands[-1] if hands else None,
            "winners": [sheet["seats"][i] for i in sheet.get("winners", [])],
            "flagged_hands": [h.number for h in hands if h.flagged],
            "can_record": permissions.can_record(request.user, match),
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
    form: MoveForm | DealForm
    if request.POST.get("entry") == "deal":
        form = DealForm(request.POST, seats=seats)
    else:
        form = MoveForm(request.POST, seats=seats)
    if not form.is_valid():
        return _table(request, hand, error=_first_error(form), status=400, posted=form)
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
        return _table(request, hand, error=exc.message, status=400, posted=form)
    except ImpossibleMove as exc:
        return _table(request, hand, error=exc.message, status=422, posted=form)
    except ConcurrencyConflict as exc:
        return _table(request, hand, error=_stale(exc), status=409)
    game = get_game(hand.match.game)
    if outcome.replayed:
        messages.info(request, "Already recorded (the same tap arrived twice).")
    else:
        label = _move_label(data["move_dict"], seats, game.deck, _lang(request))
        messages.success(request, f"Recorded: {label}")
        for verdict in outcome.verdicts:
            messages.warning(request, f"Irregular, flagged for the director: {verdict.message}")
    return redirect("pages:hand-table", match_id=match_id, number=number)


@require_POST
def hand_undo(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    if not permissions.can_record(request.user, hand.match):
        return _denied(request)
    form = UndoForm(request.POST)
    if not form.is_valid():
        return _table(request, hand, error=_first_error(form), status=400)
    try:
        move_undo(
            hand=hand,
            expected_version=form.cleaned_data["expected_version"],
            actor=request.user,
            reason=form.cleaned_data["reason"],
        )
    except RulesError as exc:
        return _table(request, hand, error=exc.message, status=422)
    except ConcurrencyConflict as exc:
        return _table(request, hand, error=_stale(exc), status=409)
    messages.success(request, "Last move undone.")
    return redirect("pages:hand-table", match_id=match_id, number=number)


def _table(
    request: HttpRequest,
    hand: Hand,
    *,
    error: str | None = None,
    status: int = 200,
    posted: MoveForm | DealForm | None = None,
) -> HttpResponse:
    match = hand.match
    game = get_game(match.game)
    lang = _lang(request)
    now = hand_state(hand)
    state, seats = now["state"], now["seats"]
    audit = hand_audit(hand)
    can_record = permissions.can_record(request.user, match)
    last = audit[-1] if audit else None
    fresh = VersionedForm.fresh(hand.version)
    # A keying error keeps what was typed, so that it can be corrected rather than keyed again.
    typed = posted.data if isinstance(posted, MoveForm) else {}
    move_form = MoveForm(
        initial={**fresh, "card": typed.get("card", ""), "seat": _default_seat(state)}, seats=seats
    )
    deal_form = DealForm(initial=fresh, seats=seats)
    if isinstance(posted, DealForm):
        deal_form = DealForm(initial={**fresh, **{k: posted.data.get(k) for k in posted.data}}, seats=seats)
    context = {
        "match": match,
        "hand": hand,
        "title": _game_title(match.game),
        "lang": lang,
        "now": now,
        "state": state,
        "seats": _seats_around(state, seats, match.direction, game.deck, lang),
        "trick": _trick(state.get("trick"), seats, game.deck, lang),
        "last_trick": _trick(state.get("last_trick"), seats, game.deck, lang),
        "game_state": _game_fields(state.get("game_state") or {}),
        "moves": _moves(now, seats, game.deck, lang),
        "result": _result(now.get("result"), seats),
        "can_record": can_record,
        "can_rule": permissions.can_rule(request.user, match),
        "entry": can_record and not state["over"],
        "deal_phase": state["phase"] == "deal",
        "legal": _legal(state, seats, game, lang),
        "claim": _claim_move(game, state),
        "move_form": move_form,
        "deal_form": deal_form,
        "fresh": fresh,
        "can_undo": can_record
        and last is not None
        and last["type"] == "MoveRecorded"
        and last["by"] == request.user.get_username(),
        "next_hand": can_record
        and state["over"]
        and match.status == Match.Status.OPEN
        and match.hands.order_by("-number").values_list("number", flat=True).first() == hand.number,
        "error": error,
    }
    return render(request, "scoring/table.html", context, status=status)


# ---- the replay viewer ---------------------------------------------------------------------------
def hand_replay_page(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    if not permissions.can_read(request.user, hand.match):
        return _denied(request)
    try:
        step = int(request.GET.get("step", "0"))
        at = hand_replay(hand, step)
    except (ValueError, ImpossibleMove):
        raise Http404("no such step in this hand") from None
    game = get_game(hand.match.game)
    lang = _lang(request)
    state, seats = at["state"], at["seats"]
    return render(
        request,
        "scoring/replay.html",
        {
            "match": hand.match,
            "hand": hand,
            "title": _game_title(hand.match.game),
            "at": at,
            "state": state,
            "step": step,
            "steps": at["steps"],
            "prev": step - 1 if step > 0 else None,
            "next": step + 1 if step < at["steps"] else None,
            "seats": _seats_around(state, seats, hand.match.direction, game.deck, lang),
            "trick": _trick(state.get("trick"), seats, game.deck, lang),
            "last_trick": _trick(state.get("last_trick"), seats, game.deck, lang),
            "game_state": _game_fields(state.get("game_state") or {}),
            "moves": _moves(at, seats, game.deck, lang),
            "legal": [_label_with_seat(m, seats, game.deck, lang) for m in state["legal_moves"]],
            "rulings": [_ruling(r, seats) for r in at["rulings"]],
            "audit": [_audit_row(e, seats, game.deck, lang) for e in hand_audit(hand)],
            "result": _result(at.get("result"), seats),
        },
    )


# ---- the director's ruling -----------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def hand_ruling(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    hand = _hand(match_id, number)
    match = hand.match
    if not permissions.can_rule(request.user, match):
        return _denied(request)
    game = get_game(match.game)
    lang = _lang(request)
    now = hand_state(hand)
    seats = now["seats"]
    moves = _moves(now, seats, game.deck, lang)
    refs = [(m["position"], f"#{m['n']} {m['seat']} {m['label']}") for m in moves]
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
                messages.success(request, f"Ruling recorded: {data['rule']}")
                return redirect("pages:hand-table", match_id=match_id, number=number)
            preview = _preview(ruling_preview(**args), seats)
        except RulesError as exc:
            _form_error(form, exc)
            status = 422
        except ConcurrencyConflict as exc:
            form.add_error(None, _stale(exc))
            status = 409
    elif request.method == "POST":
        status = 400
    return render(
        request,
        "scoring/ruling.html",
        {
            "match": match,
            "hand": hand,
            "title": _game_title(match.game),
            "form": form,
            "moves": moves,
            "seats": seats,
            "result": _result(now.get("result"), seats),
            "preview": preview,
        },
        status=status,
    )


def _preview(raw: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
    return {
        "before": _result(raw["before"]["hand"], seats),
        "after": _result(raw["after"]["hand"], seats),
        "totals_before": _totals(raw["before"]["sheet"], seats),
        "totals_after": _totals(raw["after"]["sheet"], seats),
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
    raise PermissionDenied("your role at this club does not allow this")


def _stale(exc: ConcurrencyConflict) -> str:
    return (
        f"Someone else recorded at this table meanwhile (the hand is at version {exc.actual}, "
        f"this page showed {exc.expected}). Here is the hand as it is now: check it and key again."
    )


def _first_error(form: Any) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return "the form is not valid"


def _lang(request: HttpRequest) -> str:
    """The language of card names: ``?lang=`` sets it for the session; Italian by default."""
    asked = request.GET.get("lang")
    if asked in LANGS:
        request.session["lang"] = asked
    lang = request.session.get("lang", "it")
    return lang if lang in LANGS else "it"


# ---- presentation --------------------------------------------------------------------------------
def _game_title(name: str) -> str:
    try:
        return get_game(name).title
    except ImpossibleMove:
        return name


def _seat_names(match: Match) -> list[str]:
    return list(match.seats.values_list("name", flat=True))


def _options(match: Match) -> list[tuple[str, Any]]:
    return [(k.replace("_", " "), v) for k, v in sorted(match.options.items())]


def _card(code: str, deck: Deck, lang: str) -> dict[str, str]:
    try:
        name = deck.name_of(code, lang)
    except (ImpossibleMove, MalformedMove, ValueError):
        name = code
    return {"code": code, "name": name, "suit": suit_of(code) if code else ""}


def _cards(codes: Sequence[str], deck: Deck, lang: str) -> list[dict[str, str]]:
    return [_card(c, deck, lang) for c in codes]


def _suit_label(deck: Deck, suit: str, lang: str) -> str:
    """The suit's name in the deck's own words, taken from the name of one of its cards."""
    if suit == "T":
        return {"it": "trionfi", "fr": "atouts", "en": "trumps"}[lang]
    sample = next((c for c in deck.cards if suit_of(c) == suit), None)
    if sample is None:
        return suit
    last = deck.name_of(sample, lang).split(" ")[-1]
    return last.removeprefix("d'")


# Where seat i sits when seat 0 is at the bottom of the screen, in the direction of play.
_AROUND = {
    ("anticlockwise", 2): ("bottom", "top"),
    ("clockwise", 2): ("bottom", "top"),
    ("anticlockwise", 3): ("bottom", "top-right", "top-left"),
    ("clockwise", 3): ("bottom", "top-left", "top-right"),
    ("anticlockwise", 4): ("bottom", "right", "top", "left"),
    ("clockwise", 4): ("bottom", "left", "top", "right"),
}


def _seats_around(
    state: Mapping[str, Any], seats: Sequence[str], direction: str, deck: Deck, lang: str
) -> list[dict[str, Any]]:
    places = _AROUND.get((direction, len(seats)), tuple(f"row-{i}" for i in range(len(seats))))
    hands, counts = state.get("hands"), state.get("hand_counts")
    taken = state.get("tricks_taken")
    trick = state.get("trick") or {}
    played = {seat: card for seat, card in trick.get("plays", [])}
    return [
        {
            "index": i,
            "name": name,
            "place": places[i],
            "dealer": state.get("dealer") == i,
            "to_act": i in state.get("to_act", []),
            "tricks": taken[i] if taken else None,
            "count": counts[i] if counts else None,
            "holding": _by_suit(hands[i], deck, lang) if hands else None,
            "played": _card(played[i], deck, lang) if i in played else None,
        }
        for i, name in enumerate(seats)
    ]


def _by_suit(codes: Sequence[str], deck: Deck, lang: str) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, str]]] = {}
    for code in codes:
        groups.setdefault(suit_of(code), []).append(_card(code, deck, lang))
    return [{"suit": s, "label": _suit_label(deck, s, lang), "cards": cards} for s, cards in groups.items()]


def _trick(trick: Mapping[str, Any] | None, seats: Sequence[str], deck: Deck, lang: str) -> Any:
    if not trick:
        return None
    winner = trick.get("winner")
    return {
        "number": trick.get("number"),
        "plays": [{"seat": seats[s], "card": _card(c, deck, lang)} for s, c in trick.get("plays", [])],
        "winner": seats[winner] if winner is not None else None,
    }


def _legal(state: Mapping[str, Any], seats: Sequence[str], game: Game[Any], lang: str) -> dict[str, Any]:
    """The engine's legal moves as buttons: card plays by seat and suit, every other move by its label."""
    plays: dict[int, list[str]] = {}
    others = []
    for move in state["legal_moves"]:
        if move["type"] == "play":
            plays.setdefault(move["seat"], []).append(move["card"])
        else:
            others.append(_button(move, seats, game.deck, lang))
    return {
        "plays": [
            {
                "seat": seats[seat],
                "suits": [
                    {
                        **group,
                        "cards": [
                            {**c, "json": _json({"type": "play", "seat": seat, "card": c["code"]})}
                            for c in group["cards"]
                        ],
                    }
                    for group in _by_suit(cards, game.deck, lang)
                ],
            }
            for seat, cards in plays.items()
        ],
        "others": others,
        "shown": len(state["legal_moves"]),
        "count": state["legal_move_count"],
    }


def _claim_move(game: Game[Any], state: Mapping[str, Any]) -> dict[str, str] | None:
    """A "claims the rest" button for the player on lead, in games that allow claims at all."""
    if type(game).can_claim is BaseGame.can_claim or state["phase"] == "deal" or state["over"]:
        return None
    trick = state.get("trick") or {}
    if trick.get("plays") or state.get("claim") or len(state["to_act"]) != 1:
        return None
    seat = state["to_act"][0]
    return {"json": _json({"type": "claim", "seat": seat}), "label": "claims the rest", "seat": str(seat)}


def _button(move: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> dict[str, str]:
    seat = move.get("seat")
    return {
        "json": _json(move),
        "seat": seats[seat] if isinstance(seat, int) else "",
        "label": _move_label(move, seats, deck, lang),
    }


def _json(move: Mapping[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"))


def _names(codes: Sequence[str] | None, deck: Deck, lang: str) -> str:
    return ", ".join(_card(c, deck, lang)["name"] for c in codes or ())


def _move_label(move: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> str:
    """A move in words, without the seat: ``Re di coppe (KH)``, ``gioco``, ``exchanges 3``."""
    kind = move.get("type")
    if kind == "deal":
        return "deal (cards entered)" if move.get("hands") else "deal (cards not entered)"
    if kind == "play":
        card = _card(str(move.get("card", "")), deck, lang)
        return f"{card['name']} ({card['code']})"
    if kind == "call":
        words = [str(move.get("call"))]
        if move.get("value") is not None:
            words.append(str(move["value"]))
        if move.get("suit"):
            words.append(_suit_label(deck, str(move["suit"]), lang))
        if isinstance(move.get("target"), int) and 0 <= move["target"] < len(seats):
            words.append(f"→ {seats[move['target']]}")
        return " ".join(words)
    if kind == "choose":
        value = move.get("value")
        if move.get("choice") == "trump" and isinstance(value, str) and len(value) == 1:
            value = _suit_label(deck, value, lang)
        return f"{move.get('choice')}: {value}" if value is not None else str(move.get("choice"))
    if kind == "exchange":
        discard, take = move.get("discard") or [], move.get("take") or []
        n = move.get("count") if move.get("count") is not None else len(discard)
        text = f"exchanges {n}"
        if discard:
            text += f": puts aside {_names(discard, deck, lang)}"
        if take:
            text += f"; takes {_names(take, deck, lang)}"
        return text
    if kind == "pass_cards":
        cards = move.get("cards") or []
        return f"passes {_names(cards, deck, lang)}" if cards else f"passes {move.get('count')} cards"
    if kind == "declare":
        return f"declares {move.get('combination')}: {_names(move.get('cards'), deck, lang)}"
    if kind == "claim":
        if move.get("split") is not None:
            return "claims, split " + " / ".join(str(v) for v in move["split"])
        if move.get("tricks") is not None:
            return f"claims {move['tricks']} tricks"
        return "claims the rest"
    if kind == "claim_response":
        return "accepts the claim" if move.get("accept") else "disputes the claim"
    return str(kind)


def _label_with_seat(move: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> str:
    seat = move.get("seat")
    who = f"{seats[seat]}: " if isinstance(seat, int) and 0 <= seat < len(seats) else ""
    return who + _move_label(move, seats, deck, lang)


def _moves(at: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> list[dict[str, Any]]:
    """The standing moves, numbered, each with the verdicts that concern it."""
    verdicts: dict[int, list[dict[str, Any]]] = {}
    for v in at["verdicts"]:
        verdicts.setdefault(v["position"], []).append(v)
    out = []
    for n, entry in enumerate(at["moves"], start=1):
        move = entry["move"]
        seat = move.get("seat")
        out.append(
            {
                "n": n,
                "position": entry["position"],
                "seat": seats[seat] if isinstance(seat, int) else "table",
                "label": _move_label(move, seats, deck, lang),
                "by": entry["by"],
                "verdicts": verdicts.get(entry["position"], []),
            }
        )
    return out


def _default_seat(state: Mapping[str, Any]) -> int | None:
    to_act = state.get("to_act") or []
    return to_act[0] if to_act else None


def _result(result: Mapping[str, Any] | None, seats: Sequence[str]) -> dict[str, Any] | None:
    if not result:
        return None
    teams = [" & ".join(seats[s] for s in team) for team in result.get("teams", [])]
    return {
        "outcome": result["outcome"],
        "unit": result["unit"],
        "scores": list(zip(seats, result["scores"], strict=False)),
        "teams": list(zip(teams, result.get("team_scores", []), strict=False)),
    }


def _totals(sheet: Mapping[str, Any], seats: Sequence[str]) -> list[tuple[str, Any]]:
    return list(zip(seats, sheet.get("totals", []), strict=False))


def _game_fields(game_state: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The game's own state fields that say something (contract, trump, declarations ...)."""
    return [(k.replace("_", " "), _cell(v)) for k, v in game_state.items() if v not in (None, "", [], {}, ())]


def _ruling(r: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
    rect = dict(r["rectification"])
    kind = str(rect.pop("kind", ""))
    return {**r, "kind": kind.replace("_", " "), "details": _cell(rect) if rect else ""}


def _audit_row(e: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> dict[str, Any]:
    payload = e["payload"]
    if e["type"] == "MoveRecorded":
        what = _label_with_seat(payload.get("move", {}), seats, deck, lang)
        why = "; ".join(v.get("message", "") for v in payload.get("verdicts", []))
    elif e["type"] == "MoveUndone":
        what, why = f"undo of #{payload.get('of_version')}", payload.get("reason", "")
    elif e["type"] == "RulingRecorded":
        what = f"ruling {payload.get('rule')} on {', '.join(f'#{r}' for r in payload.get('refs', []))}"
        why = payload.get("reason", "")
    elif e["type"] == "HandStarted":
        what, why = (
            f"hand started, dealer {seats[payload['dealer']]}" if "dealer" in payload else "hand started",
            "",
        )
    else:
        what, why = e["type"], ""
    return {
        "version": e["version"],
        "type": e["type"],
        "by": e["by"] or "—",
        "at": e["at"],
        "what": what,
        "why": why,
    }


# Row keys that hold a seat number in the games' sheets.
_SEAT_KEYS = {"dealer", "hombre"}


def _sheet_table(sheet: Mapping[str, Any], hands: Mapping[int, Hand]) -> dict[str, Any]:
    """The game's own sheet rows as a table: one column per key the game puts in its rows."""
    rows = sheet.get("rows") or []
    seats = sheet.get("seats") or []
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    numbers = sheet.get("hands") or []
    out = []
    for i, row in enumerate(rows):
        number = numbers[i] if i < len(numbers) else None
        hand = hands.get(number) if number is not None else None
        cells = []
        for key in columns:
            value = row.get(key)
            if key in _SEAT_KEYS and isinstance(value, int) and 0 <= value < len(seats):
                value = seats[value]
            cells.append(_cell(value))
        out.append({"number": number, "flagged": bool(hand and hand.flagged), "cells": cells})
    return {"columns": [c.replace("_", " ") for c in columns], "rows": out}


def _cell(value: Any) -> str:
    """A sheet value in a few characters: lists by seat as ``3 / -1 / -2``, objects as ``key value``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k.replace('_', ' ')} {_cell(v)}" for k, v in value.items() if v not in (None, []))
    if isinstance(value, list | tuple):
        return " / ".join(_cell(v) for v in value)
    return str(value)
