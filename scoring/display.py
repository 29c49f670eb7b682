"""What the pages show, arranged from what the selectors return: card names, seats around the table,
move labels, sheet cells. No rule of any game lives here, and nothing touches the database."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from scoring.models import Hand, Match
from scoring.rules import Game, ImpossibleMove, MalformedMove, get_game
from scoring.rules.cards import Deck, suit_of
from scoring.rules.core import Game as BaseGame


def game_title(name: str) -> str:
    try:
        return get_game(name).title
    except ImpossibleMove:
        return name


# Barbù's seven contracts by their code (docs/rules/barbu.md), in the three languages of the pages.
BARBU_CONTRACTS: dict[str, dict[str, str]] = {
    "MP": {"it": "Mano positiva", "fr": "Plis positifs", "en": "Tricks count plus"},
    "MIS": {"it": "Misère", "fr": "Misère", "en": "Misère"},
    "NPR": {"it": "Non prendere il Re di cuori", "fr": "Pas le Roi de cœur", "en": "No King of Hearts"},
    "NPD": {"it": "Non prendere le Donne", "fr": "Pas de dames", "en": "No Queens"},
    "NPC": {"it": "Non prendere cuori", "fr": "Pas de cœurs", "en": "No Hearts"},
    "NPUD": {
        "it": "Non prendere le ultime due",
        "fr": "Pas les deux derniers plis",
        "en": "Not the last two",
    },
    "DOM": {"it": "Domino", "fr": "Domino", "en": "Domino"},
}


def options(match: Match) -> list[tuple[str, Any]]:
    return [(k.replace("_", " "), v) for k, v in sorted(match.options.items())]


def card(code: str, deck: Deck, lang: str) -> dict[str, str]:
    try:
        name, rank = deck.name_of(code, lang), deck.rank_label(code, lang)
    except (ImpossibleMove, MalformedMove, ValueError):
        name = rank = code
    return {"code": code, "name": name, "rank": rank, "suit": suit_of(code) if code else ""}


def suit_label(deck: Deck, suit: str, lang: str) -> str:
    """The suit's name in the deck's own words, taken from the name of one of its cards."""
    if suit == "T":
        return {"it": "trionfi", "fr": "atouts", "en": "trumps"}[lang]
    sample = next((c for c in deck.cards if suit_of(c) == suit), None)
    if sample is None:
        return suit
    last = deck.name_of(sample, lang).split(" ")[-1]
    return last.removeprefix("d'")


# Where seat i sits when seat 0 is at the bottom of the screen, in the direction of play.
AROUND = {
    ("anticlockwise", 2): ("bottom", "top"),
    ("clockwise", 2): ("bottom", "top"),
    ("anticlockwise", 3): ("bottom", "top-right", "top-left"),
    ("clockwise", 3): ("bottom", "top-left", "top-right"),
    ("anticlockwise", 4): ("bottom", "right", "top", "left"),
    ("clockwise", 4): ("bottom", "left", "top", "right"),
}


def seats_around(
    state: Mapping[str, Any], seats: Sequence[str], direction: str, deck: Deck, lang: str
) -> list[dict[str, Any]]:
    places = AROUND.get((direction, len(seats)), tuple(f"row-{i}" for i in range(len(seats))))
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
            "holding": by_suit(hands[i], deck, lang) if hands else None,
            "played": card(played[i], deck, lang) if i in played else None,
        }
        for i, name in enumerate(seats)
    ]


def by_suit(codes: Sequence[str], deck: Deck, lang: str) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, str]]] = {}
    for code in codes:
        groups.setdefault(suit_of(code), []).append(card(code, deck, lang))
    return [{"suit": s, "label": suit_label(deck, s, lang), "cards": cards} for s, cards in groups.items()]


def trick_view(trick: Mapping[str, Any] | None, seats: Sequence[str], deck: Deck, lang: str) -> Any:
    if not trick:
        return None
    winner = trick.get("winner")
    return {
        "number": trick.get("number"),
        "plays": [{"seat": seats[s], "card": card(c, deck, lang)} for s, c in trick.get("plays", [])],
        "winner": seats[winner] if winner is not None else None,
    }


def legal_buttons(
    state: Mapping[str, Any], seats: Sequence[str], game: Game[Any], lang: str
) -> dict[str, Any]:
    """The engine's legal moves as buttons: card plays by seat and suit, every other move by its label."""
    plays: dict[int, list[str]] = {}
    others = []
    for move in state["legal_moves"]:
        if move["type"] == "play":
            plays.setdefault(move["seat"], []).append(move["card"])
        else:
            others.append(button(move, seats, game.deck, lang))
    return {
        "plays": [
            {
                "seat": seats[seat],
                "suits": [
                    {
                        **group,
                        "cards": [
                            {**c, "json": move_json({"type": "play", "seat": seat, "card": c["code"]})}
                            for c in group["cards"]
                        ],
                    }
                    for group in by_suit(cards, game.deck, lang)
                ],
            }
            for seat, cards in plays.items()
        ],
        "others": others,
        "shown": len(state["legal_moves"]),
        "count": state["legal_move_count"],
    }


def claim_move(game: Game[Any], state: Mapping[str, Any], seats: Sequence[str]) -> dict[str, str] | None:
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
        "label": "claims the rest",
        "seat": seats[seat],
    }


def button(move: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> dict[str, str]:
    seat = move.get("seat")
    return {
        "json": move_json(move),
        "seat": seats[seat] if isinstance(seat, int) else "",
        "label": move_label(move, seats, deck, lang),
    }


def move_json(move: Mapping[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"))


def names(codes: Sequence[str] | None, deck: Deck, lang: str) -> str:
    return ", ".join(card(c, deck, lang)["name"] for c in codes or ())


def move_label(move: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> str:
    """A move in words, without the seat: ``Re di coppe (KH)``, ``gioco``, ``exchanges 3``."""
    kind = move.get("type")
    if kind == "deal":
        return "deal (cards entered)" if move.get("hands") else "deal (cards not entered)"
    if kind == "play":
        shown = card(str(move.get("card", "")), deck, lang)
        return f"{shown['name']} ({shown['code']})"
    if kind == "call":
        words = [str(move.get("call"))]
        if move.get("value") is not None:
            words.append(str(move["value"]))
        if move.get("suit"):
            words.append(suit_label(deck, str(move["suit"]), lang))
        if isinstance(move.get("target"), int) and 0 <= move["target"] < len(seats):
            words.append(f"→ {seats[move['target']]}")
        return " ".join(words)
    if kind == "choose":
        value = move.get("value")
        if move.get("choice") == "trump" and isinstance(value, str) and len(value) == 1:
            value = suit_label(deck, value, lang)
        if move.get("choice") == "contract" and value in BARBU_CONTRACTS:
            return f"{BARBU_CONTRACTS[value][lang]} ({value})"
        return f"{move.get('choice')}: {value}" if value is not None else str(move.get("choice"))
    if kind == "exchange":
        discard, take = move.get("discard") or [], move.get("take") or []
        n = move.get("count") if move.get("count") is not None else len(discard)
        text = f"exchanges {n}"
        if discard:
            text += f": puts aside {names(discard, deck, lang)}"
        if take:
            text += f"; takes {names(take, deck, lang)}"
        return text
    if kind == "pass_cards":
        cards = move.get("cards") or []
        return f"passes {names(cards, deck, lang)}" if cards else f"passes {move.get('count')} cards"
    if kind == "declare":
        return f"declares {move.get('combination')}: {names(move.get('cards'), deck, lang)}"
    if kind == "claim":
        if move.get("split") is not None:
            return "claims, split " + " / ".join(str(v) for v in move["split"])
        if move.get("tricks") is not None:
            return f"claims {move['tricks']} tricks"
        return "claims the rest"
    if kind == "claim_response":
        return "accepts the claim" if move.get("accept") else "disputes the claim"
    return str(kind)


def label_with_seat(move: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> str:
    seat = move.get("seat")
    who = f"{seats[seat]}: " if isinstance(seat, int) and 0 <= seat < len(seats) else ""
    return who + move_label(move, seats, deck, lang)


def move_log(at: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> list[dict[str, Any]]:
    """The standing moves, numbered, each with the verdicts that concern it (and the move that proved
    the irregularity, when the proof came later)."""
    number = {entry["position"]: n for n, entry in enumerate(at["moves"], start=1)}
    verdicts: dict[int, list[dict[str, Any]]] = {}
    for v in at["verdicts"]:
        verdicts.setdefault(v["position"], []).append({**v, "proved_by": number.get(v["proved_at"])})
    out = []
    for n, entry in enumerate(at["moves"], start=1):
        move = entry["move"]
        seat = move.get("seat")
        out.append(
            {
                "n": n,
                "position": entry["position"],
                "seat": seats[seat] if isinstance(seat, int) else "table",
                "label": move_label(move, seats, deck, lang),
                "by": entry["by"],
                "verdicts": verdicts.get(entry["position"], []),
            }
        )
    return out


def default_seat(state: Mapping[str, Any]) -> int | None:
    to_act = state.get("to_act") or []
    return to_act[0] if to_act else None


def result_view(result: Mapping[str, Any] | None, seats: Sequence[str]) -> dict[str, Any] | None:
    if not result:
        return None
    teams = [" & ".join(seats[s] for s in team) for team in result.get("teams", [])]
    return {
        "outcome": result["outcome"],
        "unit": result["unit"],
        "scores": list(zip(seats, result["scores"], strict=False)),
        "teams": list(zip(teams, result.get("team_scores", []), strict=False)),
    }


def totals(sheet: Mapping[str, Any], seats: Sequence[str]) -> list[tuple[str, Any]]:
    return list(zip(seats, sheet.get("totals", []), strict=False))


def game_fields(game_state: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The game's own state fields that say something (contract, trump, declarations ...)."""
    return [(k.replace("_", " "), cell(v)) for k, v in game_state.items() if _says_something(v)]


def _says_something(value: Any) -> bool:
    """False for nothing at all: None, "", and lists or mappings holding only such (a Domino layout of four
    empty rows outside Domino). Zero and False do say something."""
    if value is None or value == "":
        return False
    if isinstance(value, Mapping):
        return any(_says_something(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_says_something(v) for v in value)
    return True


def ruling_view(r: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A ruling with the moves it concerns by their numbers (log entries for moves not shown yet)."""
    number = {m["position"]: m["n"] for m in log}
    rect = dict(r["rectification"])
    kind = str(rect.pop("kind", ""))
    refs = [f"move {number[p]}" if p in number else f"entry {p}" for p in r["refs"]]
    return {**r, "refs": refs, "kind": kind.replace("_", " "), "details": cell(rect) if rect else ""}


def audit_row(e: Mapping[str, Any], seats: Sequence[str], deck: Deck, lang: str) -> dict[str, Any]:
    payload = e["payload"]
    if e["type"] == "MoveRecorded":
        what = label_with_seat(payload.get("move", {}), seats, deck, lang)
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
        "at": datetime.fromisoformat(e["at"]),
        "what": what,
        "why": why,
    }


# Row keys that hold a seat number in the games' sheets.
SEAT_KEYS = {"dealer", "hombre"}


def sheet_table(sheet: Mapping[str, Any], hands: Mapping[int, Hand]) -> dict[str, Any]:
    """The game's own sheet rows as a table: one column per key the game puts in its rows."""
    rows = sheet.get("rows") or []
    seats = sheet.get("seats") or []
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    numbers = sheet.get("hands") or []
    if "hand" in columns and [row.get("hand") for row in rows] == numbers[: len(rows)]:
        columns.remove("hand")  # the game's own count of hands says what the # column already says
    out = []
    for i, row in enumerate(rows):
        number = numbers[i] if i < len(numbers) else None
        hand = hands.get(number) if number is not None else None
        cells = []
        for key in columns:
            value = row.get(key)
            if key in SEAT_KEYS and isinstance(value, int) and 0 <= value < len(seats):
                value = seats[value]
            cells.append(cell(value))
        out.append({"number": number, "flagged": bool(hand and hand.flagged), "cells": cells})
    return {"columns": [c.replace("_", " ") for c in columns], "rows": out}


def sides(sheet: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The sides and their totals, where the game plays in sides (its sheet details name them)."""
    seats, groups = sheet.get("seats") or [], (sheet.get("details") or {}).get("sides")
    totals = sheet.get("team_totals") or []
    if not isinstance(groups, list) or len(groups) != len(totals):
        return []
    names = [" & ".join(seats[s] for s in group if isinstance(s, int) and s < len(seats)) for group in groups]
    return list(zip(names, totals, strict=True))


def cell(value: Any) -> str:
    """A sheet value in a few characters: lists by seat as ``3 / -1 / -2``, objects as ``key value``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k.replace('_', ' ')} {cell(v)}" for k, v in value.items() if v not in (None, []))
    if isinstance(value, list | tuple):
        return " / ".join(cell(v) for v in value)
    return str(value)
