"""What the pages show, arranged from what the selectors return, in the page's language: card names,
seats around the table by their players' names, moves, verdicts and outcomes in words, sheet cells.
No rule of any game lives here, and nothing touches the database.

The engine speaks in codes and in message templates with parameters (``scoring.rules.errors``); a
:class:`Voice` carries what it takes to put them into words for one hand: the game, its deck, the
language of the card names and the players' names by seat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from scoring import words
from scoring.models import Hand, Match
from scoring.rules import Game
from scoring.rules.cards import suit_of
from scoring.rules.core import Game as BaseGame
from scoring.voice import Voice, card, rank_label, say, verdict_text


def game_title(name: str) -> str:
    return words.game(name)


def verdict_view(verdict: Mapping[str, Any], v: Voice, number: Mapping[int, int]) -> dict[str, Any]:
    return {
        **verdict,
        "rule_name": words.rule(str(verdict.get("rule", ""))),
        "text": verdict_text(verdict, v),
        "proved_by": number.get(verdict["proved_at"]) if verdict.get("proved_at") is not None else None,
    }


# ---- seats, tricks and moves ---------------------------------------------------------------------
# Where seat i sits when seat 0 is at the bottom of the screen, in the direction of play.
AROUND = {
    ("anticlockwise", 2): ("bottom", "top"),
    ("clockwise", 2): ("bottom", "top"),
    ("anticlockwise", 3): ("bottom", "top-right", "top-left"),
    ("clockwise", 3): ("bottom", "top-left", "top-right"),
    ("anticlockwise", 4): ("bottom", "right", "top", "left"),
    ("clockwise", 4): ("bottom", "left", "top", "right"),
}


def seats_around(state: Mapping[str, Any], v: Voice, direction: str) -> list[dict[str, Any]]:
    seats = v.seats
    places = AROUND.get((direction, len(seats)), tuple(f"row-{i}" for i in range(len(seats))))
    hands, counts = state.get("hands"), state.get("hand_counts")
    taken = state.get("tricks_taken")
    trick = state.get("trick") or {}
    played = {seat: code for seat, code in trick.get("plays", [])}
    return [
        {
            "index": i,
            "number": i + 1,
            "name": name,
            "place": places[i],
            "dealer": state.get("dealer") == i,
            "to_act": i in state.get("to_act", []),
            "tricks": taken[i] if taken else None,
            "count": counts[i] if counts else None,
            "holding": by_suit(hands[i], v) if hands else None,
            "played": card(played[i], v.deck, v.lang) if i in played else None,
        }
        for i, name in enumerate(seats)
    ]


def by_suit(codes: Sequence[str], v: Voice) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, str]]] = {}
    for code in codes:
        groups.setdefault(suit_of(code), []).append(card(code, v.deck, v.lang))
    return [{"suit": s, "label": v.suit(s), "cards": cards} for s, cards in groups.items()]


def trick_view(trick: Mapping[str, Any] | None, v: Voice) -> Any:
    if not trick:
        return None
    winner = trick.get("winner")
    return {
        "number": trick.get("number"),
        "plays": [{"seat": v.seat(s), "card": card(c, v.deck, v.lang)} for s, c in trick.get("plays", [])],
        "winner": v.seat(winner) if winner is not None else None,
    }


def legal_buttons(state: Mapping[str, Any], game: Game[Any], v: Voice) -> dict[str, Any]:
    """The engine's legal moves as buttons: card plays by seat and suit, every other move by its label."""
    plays: dict[int, list[str]] = {}
    others = []
    for move in state["legal_moves"]:
        if move["type"] == "play":
            plays.setdefault(move["seat"], []).append(move["card"])
        else:
            others.append(button(move, v))
    return {
        "plays": [
            {
                "seat": v.seat(seat),
                "suits": [
                    {
                        **group,
                        "cards": [
                            {**c, "json": move_json({"type": "play", "seat": seat, "card": c["code"]})}
                            for c in group["cards"]
                        ],
                    }
                    for group in by_suit(cards, v)
                ],
            }
            for seat, cards in plays.items()
        ],
        "others": others,
        "shown": len(state["legal_moves"]),
        "count": state["legal_move_count"],
    }


def legal_by_seat(state: Mapping[str, Any], v: Voice) -> list[dict[str, Any]]:
    """The legal moves in a few lines: each seat once, with its moves after its name."""
    out: dict[str, list[str]] = {}
    for move in state["legal_moves"]:
        seat = move.get("seat")
        who = v.seat(seat) if isinstance(seat, int) else pgettext("who", "the table")
        out.setdefault(who, []).append(move_label(move, v))
    return [{"seat": who, "moves": labels} for who, labels in out.items()]


def claim_move(game: Game[Any], state: Mapping[str, Any], v: Voice) -> dict[str, str] | None:
    """A "claims the rest" button for the player on lead between tricks, in games that allow claims at
    all. The engine still judges the claim: where it may not be made, it is refused with its reason."""
    if type(game).can_claim is BaseGame.can_claim or state["over"] or state.get("claim"):
        return None
    trick = state.get("trick")
    if trick is None or trick.get("plays") or len(state["to_act"]) != 1:
        return None
    seat = state["to_act"][0]
    return {
        "json": move_json({"type": "claim", "seat": seat}),
        "label": gettext("claims the rest"),
        "seat": v.seat(seat),
    }


def button(move: Mapping[str, Any], v: Voice) -> dict[str, str]:
    seat = move.get("seat")
    return {
        "json": move_json(move),
        "seat": v.seat(seat) if isinstance(seat, int) else "",
        "label": move_label(move, v),
    }


def move_json(move: Mapping[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"))


def move_label(move: Mapping[str, Any], v: Voice) -> str:
    """A move in words, without the seat: ``Re di coppe (KH)``, ``gioco``, ``exchanges 3 cards``."""
    kind = move.get("type")
    if kind == "deal":
        return gettext("deal (cards entered)") if move.get("hands") else gettext("deal (cards not entered)")
    if kind == "play":
        shown = card(str(move.get("card", "")), v.deck, v.lang)
        return f"{shown['name']} ({shown['code']})"
    if kind == "call":
        return _call_label(move, v)
    if kind == "choose":
        return _choice_label(move, v)
    if kind == "exchange":
        return _exchange_label(move, v)
    if kind == "pass_cards":
        cards = move.get("cards") or []
        if cards:
            return gettext("passes {cards}").format(cards=v.cards(cards))
        n = move.get("count") or 0
        return ngettext("passes {n} card", "passes {n} cards", n).format(n=n)
    if kind == "declare":
        return gettext("declares {combination}: {cards}").format(
            combination=words.word(words.COMBINATIONS, move.get("combination")),
            cards=v.cards(move.get("cards")),
        )
    if kind == "claim":
        if move.get("split") is not None:
            split = " / ".join(str(x) for x in move["split"])
            return gettext("claims, the rest split {split}").format(split=split)
        if move.get("tricks") is not None:
            n = move["tricks"]
            return ngettext("claims {n} trick", "claims {n} tricks", n).format(n=n)
        return gettext("claims the rest")
    if kind == "claim_response":
        return gettext("accepts the claim") if move.get("accept") else gettext("disputes the claim")
    return str(kind)


def _call_label(move: Mapping[str, Any], v: Voice) -> str:
    text = words.call(v.game, move.get("call"))
    if move.get("value") is not None:
        text = pgettext("call with a value", "{call} {value}").format(call=text, value=move["value"])
    if move.get("suit"):
        text = pgettext("call with a suit", "{call} in {suit}").format(call=text, suit=v.suit(move["suit"]))
    if isinstance(move.get("target"), int):
        text = pgettext("call taking an offer", "{call}: the offer of {target}").format(
            call=text, target=v.seat(move["target"])
        )
    return text


def _choice_label(move: Mapping[str, Any], v: Voice) -> str:
    choice, value = move.get("choice"), move.get("value")
    if choice == "trump" and isinstance(value, str):
        return gettext("trumps: {suit}").format(suit=v.suit(value))
    if choice == "contract":
        return gettext("contract: {contract}").format(contract=words.contract(v.game, value))
    if choice == "opening_rank" and isinstance(value, str):
        return gettext("opens with the {rank}").format(rank=rank_label(v.deck, value, v.lang))
    values = words.CHOICE_VALUES.get(str(choice), {})
    if value is not None and str(value) in values:
        return str(values[str(value)])
    name = words.word(words.CHOICES, choice)
    return f"{name}: {value}" if value is not None else name


def _exchange_label(move: Mapping[str, Any], v: Voice) -> str:
    discard, take = move.get("discard") or [], move.get("take") or []
    n = move.get("count") if move.get("count") is not None else len(discard)
    if discard and take:
        return gettext("exchanges: puts aside {discard}; takes {take}").format(
            discard=v.cards(discard), take=v.cards(take)
        )
    if discard:
        return gettext("exchanges: puts aside {discard}").format(discard=v.cards(discard))
    return ngettext("exchanges {n} card", "exchanges {n} cards", n or 0).format(n=n)


def label_with_seat(move: Mapping[str, Any], v: Voice) -> str:
    seat = move.get("seat")
    label = move_label(move, v)
    return f"{v.seat(seat)}: {label}" if isinstance(seat, int) else label


def claim_view(answer: Mapping[str, Any] | None, v: Voice) -> dict[str, Any] | None:
    """A claim decided by search (``scoring.selectors.hand_claim``), said for the reader."""
    if answer is None:
        return None
    verdicts = {
        "holds": gettext("The claim holds, even playing any card."),
        "holds_with_best_play": gettext("The claim holds only with best play: careless play loses it."),
        "fails": gettext("The claim fails: the defence beats it."),
        "undecided": gettext("Not decided within the time allowed."),
    }
    unit = gettext("tricks") if answer["unit"] == "tricks" else gettext("points")
    line = [label_with_seat(m, v) for m in answer.get("line", [])]
    settlement = answer.get("settlement")
    return {
        "verdict": answer["verdict"],
        "text": verdicts[answer["verdict"]],
        "claimer": v.seat(answer["claimer"]),
        "claimed": answer["claimed"],
        "best": answer["best"],
        "careless": answer["careless"],
        "unit": unit,
        "line": line,
        "line_result": answer.get("line_result"),
        "step": answer["step"],
        "position": answer.get("position"),
        "elapsed_ms": answer["elapsed_ms"],
        # What a director's ruling gives for it, while it can still be given (the hand not over).
        "settlement": settlement if answer.get("open") else None,
        "settles_to": settlement["result"] if settlement else None,
        "settled": bool(answer.get("settled")),
        "reason": claim_reason(answer, v) if settlement else "",
        "line_json": move_json(settlement["rectification"]["line"]) if settlement else "",
    }


def claim_reason(answer: Mapping[str, Any], v: Voice) -> str:
    """The director's reason for settling a disputed claim from its answer, for him to edit."""
    unit = gettext("tricks") if answer["unit"] == "tricks" else gettext("points")
    settlement = answer["settlement"]
    if not settlement["rectification"]["line"]:
        return gettext(
            "{seat}'s claim, decided by search, holds even playing any card: scored as claimed "
            "({claimed} {unit})."
        ).format(seat=v.seat(answer["claimer"]), claimed=answer["claimed"], unit=unit)
    return gettext(
        "{seat}'s claim ({claimed} {unit}), decided by search, does not hold playing any card; careless "
        "play counts as normal and doubtful points go against the claimer: the claimer's side gets "
        "{result} {unit}, as the line of play shown gives."
    ).format(
        seat=v.seat(answer["claimer"]), claimed=answer["claimed"], unit=unit, result=settlement["result"]
    )


def claim_line_view(at: Mapping[str, Any], v: Voice) -> dict[str, Any]:
    """The solver's line after a claim, as the replay viewer steps through it: each play in words with
    the engine's verdicts on it, the current one marked."""
    plays = [
        {
            "n": p["n"],
            "seat": v.seat(p["move"]["seat"]),
            "label": move_label(p["move"], v),
            "verdicts": [verdict_view(x, v, {}) for x in p["verdicts"]],
        }
        for p in at["line"]
    ]
    answer = at["claim_answer"]
    rest = [
        {"n": n, "seat": v.seat(m["seat"]), "label": move_label(m, v)}
        for n, m in enumerate(answer["line"][len(plays) :], start=len(plays) + 1)
    ]
    return {
        "plays": plays,
        "rest": rest,
        "current": plays[-1] if plays else None,
        "claim": claim_view(answer, v),
    }


def move_log(at: Mapping[str, Any], v: Voice) -> list[dict[str, Any]]:
    """The standing moves, numbered from 1, each with the verdicts that concern it (and the number of the
    move that proved the irregularity, when the proof came later)."""
    number = move_numbers(at)
    verdicts: dict[int, list[dict[str, Any]]] = {}
    for verdict in at["verdicts"]:
        verdicts.setdefault(verdict["position"], []).append(verdict_view(verdict, v, number))
    out = []
    for n, entry in enumerate(at["moves"], start=1):
        move = entry["move"]
        seat = move.get("seat")
        out.append(
            {
                "n": n,
                "position": entry["position"],
                "seat": v.seat(seat) if isinstance(seat, int) else pgettext("who", "the table"),
                "label": move_label(move, v),
                "by": entry["by"],
                "verdicts": verdicts.get(entry["position"], []),
            }
        )
    return out


def move_numbers(at: Mapping[str, Any]) -> dict[int, int]:
    """Each standing move's number (from 1) by its position in the log."""
    return {entry["position"]: n for n, entry in enumerate(at["moves"], start=1)}


def default_seat(state: Mapping[str, Any]) -> int | None:
    to_act = state.get("to_act") or []
    return to_act[0] if to_act else None


# ---- outcomes, the sheet, the table's facts ------------------------------------------------------
UNITS = {
    "points": pgettext_lazy("unit", "points"),
    "jetons": pgettext_lazy("unit", "jetons"),
    "stakes": pgettext_lazy("unit", "stakes"),
}


def outcome_text(result: Mapping[str, Any], v: Voice) -> str:
    """A hand's outcome in words: the engine's sentence in the page's language, or the name of its kind."""
    text = result.get("outcome_text")
    if isinstance(text, Mapping) and text.get("template"):
        return say(str(text["template"]), text.get("params"), v, fallback=str(result.get("outcome", "")))
    return words.word(words.OUTCOMES, result.get("outcome"))


def result_view(result: Mapping[str, Any] | None, v: Voice) -> dict[str, Any] | None:
    if not result:
        return None
    teams = [" & ".join(v.seat(s) for s in team) for team in result.get("teams", [])]
    unit = str(result.get("unit", "points"))
    return {
        "outcome": outcome_text(result, v),
        "unit": str(UNITS.get(unit, unit)),
        "scores": list(zip(v.seats, result["scores"], strict=False)),
        "teams": list(zip(teams, result.get("team_scores", []), strict=False)),
    }


def totals(sheet: Mapping[str, Any], seats: Sequence[str]) -> list[tuple[str, Any]]:
    return list(zip(seats, sheet.get("totals", []), strict=False))


def adjusted_totals(sheet: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """The totals' rows when a director adjusted the match: the game's own, the adjustments, and the
    match's (their sum); empty when there is no adjustment (the totals are the game's own)."""
    details = sheet.get("details") or {}
    game, adjustments = details.get("game_totals"), details.get("adjustments")
    if not isinstance(game, list) or not isinstance(adjustments, list):
        return []
    return [
        (gettext("Game"), game),
        (gettext("Director's adjustments"), adjustments),
        (gettext("Total"), list(sheet.get("totals") or [])),
    ]


def options(match: Match) -> list[tuple[str, str]]:
    """The options a match was opened with, in words."""
    return [(words.word(words.OPTIONS, k), words.option_value(v)) for k, v in sorted(match.options.items())]


def table_facts(game_state: Mapping[str, Any], v: Voice) -> list[tuple[str, str]]:
    """What a player at the table would say of the hand so far (contract, trumps, the calls, the
    declarations ...), in words; the engine's bookkeeping is left out."""
    facts: list[tuple[str, str]] = []
    calls = game_state.get("calls")
    if calls:
        facts.append((gettext("Calls"), "; ".join(_call_entry(c, v) for c in calls)))
    if game_state.get("hombre") is not None:
        facts.append((gettext("Hombre"), v.seat(game_state["hombre"])))
    contract = game_state.get("contract")
    if contract:
        facts.append((gettext("Contract"), words.contract(v.game, contract)))
    if game_state.get("trump"):
        facts.append((gettext("Trumps"), v.suit(game_state["trump"])))
    if game_state.get("opening_rank"):
        facts.append((gettext("Opening rank"), rank_label(v.deck, game_state["opening_rank"], v.lang)))
    if isinstance(game_state.get("talon_left"), int) and game_state.get("contract"):
        facts.append((gettext("Talon"), _cards_count(game_state["talon_left"])))
    auction = game_state.get("auction")
    if v.game == "tarocchi" and auction:
        facts.append((gettext("Auction"), _tarocchi_auction(game_state, v)))
    if v.game == "lhombre" and isinstance(game_state.get("table"), Mapping):
        pot = game_state["table"].get("pot")
        if pot is not None:
            facts.append((gettext("Pot"), ngettext("{n} jeton", "{n} jetons", _int(pot)).format(n=pot)))
    for d in game_state.get("declarations") or []:
        facts.append((gettext("Declaration"), _declaration(d, v)))
    return facts


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 2


def _cards_count(n: int) -> str:
    return ngettext("{n} card left", "{n} cards left", n).format(n=n)


def _call_entry(entry: Any, v: Voice) -> str:
    if isinstance(entry, Mapping):
        return f"{v.seat(entry.get('seat'))}: {_call_label(entry, v)}"
    if isinstance(entry, list | tuple) and len(entry) == 2:
        return f"{v.seat(entry[0])}: {words.call(v.game, entry[1])}"
    return str(entry)


_TAROCCHI_AUCTION = {
    "played": pgettext_lazy("tarocchi auction", "the deal is played"),
    "abandoned_free": pgettext_lazy("tarocchi auction", "the deal is thrown in free"),
    "abandoned_offer": pgettext_lazy("tarocchi auction", "the deal ends on an accepted offer"),
}


def _tarocchi_auction(game_state: Mapping[str, Any], v: Voice) -> str:
    auction = str(game_state.get("auction"))
    return str(_TAROCCHI_AUCTION.get(auction, auction.replace("_", " ")))


_DECLARATION_STANDING = {
    "valid": pgettext_lazy("declaration", "valid"),
}


def _declaration(d: Mapping[str, Any], v: Voice) -> str:
    what = words.word(words.COMBINATIONS, d.get("combination"))
    cards = v.cards(d.get("cards"))
    ruling = d.get("ruling")
    standing = str(_DECLARATION_STANDING["valid"]) if ruling in (None, "valid") else words.rule(str(ruling))
    points = d.get("points")
    text = pgettext("declaration", "{seat}: {combination} ({cards})").format(
        seat=v.seat(d.get("seat")), combination=what, cards=cards
    )
    if points is not None:
        text += " · " + ngettext("{n} point", "{n} points", _int(points)).format(n=points)
    return f"{text} · {standing}"


# Row keys that hold a seat number, a suit, a contract or a word in the games' sheets.
SEAT_KEYS = {"dealer", "hombre", "deal_winner", "codille", "made"}
# What a sheet leaves out: the engine's own bookkeeping, and the texts that are shown in their column's
# place (``outcome_text`` is the outcome in words).
HIDDEN_KEYS = {"ruled", "waiting_betes", "bete_in_play", "collected", "pot_to", "doubling", "drawn", "note"}


def sheet_table(sheet: Mapping[str, Any], hands: Mapping[int, Hand]) -> dict[str, Any]:
    """The game's own sheet rows as a table, in words: one column per key the game puts in its rows."""
    rows = sheet.get("rows") or []
    v = Voice.of(str(sheet.get("game", "")), sheet.get("seats") or ())
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns and k not in HIDDEN_KEYS and not k.endswith("_text")]
    if any(row.get("note_text") for row in rows):
        columns.append("note")
    numbers = sheet.get("hands") or []
    if "hand" in columns and [row.get("hand") for row in rows] == numbers[: len(rows)]:
        columns.remove("hand")  # the game's own count of hands says what the # column already says
    out = []
    for i, row in enumerate(rows):
        number = numbers[i] if i < len(numbers) else None
        hand = hands.get(number) if number is not None else None
        cells = [sheet_cell(key, row, v, hand) for key in columns]
        out.append({"number": number, "flagged": bool(hand and hand.flagged), "cells": cells})
    return {"columns": [words.word(words.COLUMNS, c) for c in columns], "rows": out}


def sheet_cell(key: str, row: Mapping[str, Any], v: Voice, hand: Hand | None = None) -> str:
    value = row.get(key)
    text = row.get(f"{key}_text")
    if key == "outcome" and hand is not None and hand.result and hand.result.get("outcome_text"):
        return outcome_text(hand.result, v)  # the hand's own result: a ruling's words included
    if isinstance(text, Mapping) and text.get("template"):
        return say(str(text["template"]), text.get("params"), v, fallback=cell(value))
    if key == "outcome":
        return words.word(words.OUTCOMES, value)
    if key == "note":
        return ""
    if key in SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return v.seat(value)
    if key == "contract" and value:
        return words.contract(v.game, value)
    if key == "trump" and value:
        return v.suit(value)
    if key == "abandon" and value:
        return words.word(words.ABANDON, value)
    if key == "vole" and isinstance(value, str):
        return words.word(words.CHOICE_VALUES["vole"], value)
    return cell(value)


def sides(sheet: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The sides and their totals, where the game plays in sides (its sheet details name them)."""
    seats, groups = sheet.get("seats") or [], (sheet.get("details") or {}).get("sides")
    team_totals = sheet.get("team_totals") or []
    if not isinstance(groups, list) or len(groups) != len(team_totals):
        return []
    names = [" & ".join(seats[s] for s in group if isinstance(s, int) and s < len(seats)) for group in groups]
    return list(zip(names, team_totals, strict=True))


def cell(value: Any) -> str:
    """A sheet value in a few characters: lists by seat as ``3 / -1 / -2``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, Mapping):
        return ", ".join(cell(v) for v in value.values() if v not in (None, []))
    if isinstance(value, list | tuple):
        return " / ".join(cell(v) for v in value)
    return str(value)


# ---- rulings and the audit trail -----------------------------------------------------------------
def ruling_view(r: Mapping[str, Any], number: Mapping[int, int], v: Voice) -> dict[str, Any]:
    """A ruling with the moves it concerns by their numbers, its rectification in words."""
    rect = dict(r["rectification"])
    kind = str(rect.pop("kind", ""))
    return {
        **r,
        "rule_name": words.rule(str(r["rule"])),
        "refs": [_move_ref(p, number) for p in r["refs"]],
        "kind": words.word(words.RECTIFICATIONS, kind),
        "details": rectification_details(kind, rect, v),
    }


def _move_ref(position: int, number: Mapping[int, int]) -> str:
    if position in number:
        return gettext("move {n}").format(n=number[position])
    return gettext("a move since undone")


def rectification_details(kind: str, rect: Mapping[str, Any], v: Voice) -> str:
    if kind == "replace_move" and isinstance(rect.get("move"), Mapping):
        return gettext("by {move}").format(move=label_with_seat(rect["move"], v))
    if kind == "transfer_tricks":
        n = rect.get("count") or 0
        return ngettext(
            "{n} trick from {giver} to {taker}", "{n} tricks from {giver} to {taker}", _int(n)
        ).format(n=n, giver=v.seat(rect.get("from_seat")), taker=v.seat(rect.get("to_seat")))
    if kind in ("penalty", "assign_score") and isinstance(rect.get("scores"), list):
        return ", ".join(f"{v.seat(i)} {s}" for i, s in enumerate(rect["scores"]))
    if kind == "settle_claim" and isinstance(rect.get("line"), list):
        if not rect["line"]:
            return gettext("the claim as stated")
        n = len(rect["line"])
        return ngettext("played out by a line of {n} card", "played out by a line of {n} cards", n).format(
            n=n
        )
    return cell(rect) if rect else ""


def audit_rows(events: Sequence[Mapping[str, Any]], v: Voice) -> list[dict[str, Any]]:
    """Every event of the hand in words. Moves are named by the number they had when they were keyed
    (the numbers of the move list), so that an undo or a ruling names the move as the table knew it."""
    standing: list[int] = []  # positions of the moves standing at each point of the log
    out = []
    for e in events:
        payload, kind = e["payload"], e["type"]
        why = ""
        if kind == "MoveRecorded":
            standing.append(e["version"])
            move = payload.get("move", {})
            what = gettext("move {n}: {move}").format(n=len(standing), move=label_with_seat(move, v))
            why = "; ".join(verdict_text(x, v) for x in payload.get("verdicts", []))
        elif kind == "MoveUndone":
            of = payload.get("of_version")
            n = standing.index(of) + 1 if of in standing else None
            if of in standing:
                standing.remove(of)
            what = gettext("undo of move {n}").format(n=n) if n else gettext("undo")
            why = payload.get("reason", "")
        elif kind == "RulingRecorded":
            refs = ", ".join(
                str(standing.index(p) + 1) if p in standing else "?" for p in payload.get("refs", [])
            )
            what = gettext("ruling: {rule}, on move {refs}").format(
                rule=words.rule(str(payload.get("rule", ""))), refs=refs
            )
            why = payload.get("reason", "")
        elif kind == "HandStarted":
            what = (
                gettext("hand started, {dealer} deals").format(dealer=v.seat(payload["dealer"]))
                if "dealer" in payload
                else gettext("hand started")
            )
        else:
            what = kind
        out.append(
            {
                "version": e["version"],
                "type": kind,
                "by": e["by"] or "—",
                "at": datetime.fromisoformat(e["at"]),
                "what": what,
                "why": why,
            }
        )
    return out


# ---- what if: the match under other options ----------------------------------------------------------
def whatif_view(report: Mapping[str, Any], v: Voice) -> dict[str, Any]:
    """A what-if comparison in words: each hand's outcome and scores as recorded and under the other
    options, the totals, who wins, and where a move could not stand."""

    def side(hand: Mapping[str, Any] | None) -> dict[str, Any] | None:
        if hand is None:
            return None
        return {
            "outcome": outcome_text(hand, v) if hand.get("result") else "",
            "scores": hand.get("scores") or [],
        }

    refused = report.get("refused")
    refusal = None
    if refused:
        text = say(str(refused["template"]), refused.get("params"), v, fallback=str(refused["message"]))
        if refused.get("move") is not None:
            refusal = gettext("Hand {hand}, move {move}: {why}").format(
                hand=refused["hand"] + 1, move=refused["move"] + 1, why=text
            )
        else:
            refusal = gettext("Hand {hand}: {why}").format(hand=refused["hand"] + 1, why=text)
    totals = report["totals"]
    return {
        "seats": list(v.seats) or [v.seat(i) for i in range(len(totals["recorded"]))],
        "changed": [
            (words.word(words.OPTIONS, k), words.option_value(a), words.option_value(b))
            for k, (a, b) in sorted(report["changed"].items())
        ],
        "hands": [
            {
                "number": row["hand"] + 1,
                "recorded": side(row["recorded"]),
                "what_if": side(row["what_if"]),
                "differs": row["differs"],
                "cells": _cells(row),
            }
            for row in report["hands"]
        ],
        "totals": list(zip(totals["recorded"], totals["what_if"], totals["differs"], strict=True)),
        "winners": [v.seat(i) for i in report["winners"]["recorded"]],
        "winners_what_if": [v.seat(i) for i in report["winners"]["what_if"]],
        "refusal": refusal,
    }


def _cells(row: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """Each seat's score as recorded and under the other options, and whether they differ."""
    was = (row["recorded"] or {}).get("scores") or []
    now = (row["what_if"] or {}).get("scores") or []
    size = max(len(was), len(now))
    was, now = was + ["–"] * (size - len(was)), now + ["–"] * (size - len(now))
    return [(a, b, a != b) for a, b in zip(was, now, strict=True)]
