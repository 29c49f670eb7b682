"""What the table page needs to keep scoring without a network (issue 27, docs/offline.md).

The page carries the hand as it last stood (the engine's state, the card names in the reader's words, the
seats' names) in a data attribute; ``scoring/static/scoring/offline.js`` keeps it in IndexedDB beside the
queue of moves not yet sent, and works out from it whose turn it is and which cards are left while the
network is away. The verdicts stay the server's: they come when the moves are sent."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.voice import Voice


def snapshot(
    now: Mapping[str, Any],
    voice: Voice,
    *,
    match_id: int,
    number: int,
    api: str,
    queue: str,
    deck: Sequence[str],
) -> str:
    """The hand as the page saw it, as JSON: its version, seats, the engine's state (the plays among the
    legal moves only: without the deal they are the cards nobody has seen), the names of the deck's cards."""
    state = now["state"]
    plays = [m for m in state.get("legal_moves") or () if m.get("type") == "play"]
    return json.dumps(
        {
            "hand": f"{match_id}/{number}",
            "version": now["version"],
            "api": api,
            "queue": queue,
            "seats": list(now["seats"]),
            "state": {
                "phase": state.get("phase"),
                "over": bool(state.get("over")),
                "deal_known": bool(state.get("deal_known")),
                "hands": state.get("hands"),
                "hand_counts": state.get("hand_counts"),
                "to_act": state.get("to_act") or [],
                "trick": state.get("trick"),
                "last_trick": state.get("last_trick"),
                "plays": plays,
                "complete": len(plays) == len(state.get("legal_moves") or ()),
            },
            "cards": {code: voice.card(code) for code in deck},
        },
        separators=(",", ":"),
    )


def words() -> str:
    """The page's words for what waits to be sent, in the reader's language."""
    return json.dumps(
        {
            "one": _("1 move not yet sent"),
            "many": _("{n} moves not yet sent"),
            "waiting": _("not yet sent"),
            "refused": _("refused by the server:"),
            "undo": _("Undo"),
            "change": _("Change"),
            "resend": _("Resend"),
            "changing": _("Tap the card that replaces it."),
            "offline": _("No network: the moves wait on this device and are sent when it returns."),
            "stopped": _("Sending stopped at a refused move: the moves after it wait."),
            "signin": _("The server asks you to sign in again: the moves wait on this device."),
            "next": _("Next move (kept on this device)"),
            "lead": _("Who leads the next trick?"),
            "leads": _("{seat} leads"),
            "plays": _("{seat} to play"),
            "any_seat": _("A card names its seat: tap the card played."),
            "other_seat": _("A card of another seat"),
            "all_played": _(
                "Every card is recorded: the result comes from the server when the moves are sent."
            ),
            "not_play": _("This phase is recorded online only: the moves wait until the network returns."),
        },
        separators=(",", ":"),
    )
