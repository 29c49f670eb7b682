"""What a director assigns for a disputed claim, from the search of :mod:`scoring.rules.claims`.

The laws settle a doubtful claim against the claimer and count careless play as normal. So a claim that
does not hold whatever the claimer's side plays is settled at the least that side gets playing any legal
card against the best defence (the answer's ``careless``), and a claim that holds even so is scored as it
was stated. The least is shown as play: :func:`careless_line` finds a line of play from the claim to the end
that gives exactly that much, which a ruling plays out through the game's own scoring
(``settle_claim``, ``docs/rules/claims.md``). A claimer can therefore never get more by claiming than by
playing on carelessly: nothing to exploit.

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .claims import DEFAULT_BUDGET, HOLDS, OutOfTime, Search, _line, question
from .core import Game, HandState
from .moves import Claim


def careless_line(
    game: Game[Any],
    state: HandState,
    claim: Claim,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, Any] | None:
    """A line from ``claim`` (made at ``state``) to the end of the hand where the claimer's side, playing
    any legal card, gets the least it can against the best defence: ``{"line": [...], "result": n}``,
    ``result`` in the claim's unit. None when the budget runs out first."""
    q = question(game, state, claim, hands)
    pos = q.position
    search = Search(pos, careless=True, deadline=time.perf_counter() + budget, counter=[0])
    live = 0
    for h in pos.hands:
        live |= h
    lo, hi = search._range(live, pos.trick_no, pos.tricks_left)
    try:
        # Each line found below the bound lowers it; the last test, which finds none, proves the least.
        hi = min(hi, _line(q, search, hi + 1)[1])
        while lo < hi:
            if search.test(hi):
                lo = hi
            else:
                hi = min(hi - 1, _line(q, search, hi)[1])
        plays, value = _line(q, search, lo + 1)
    except OutOfTime:
        return None
    assert value == lo, (value, lo)
    cards = pos.rules.cards
    return {
        "line": [{"type": "play", "seat": s, "card": cards[c]} for s, c in plays],
        "result": q.to_unit(value),
    }


def settlement(
    game: Game[Any],
    state: HandState,
    claim: Claim,
    answer: dict[str, Any],
    *,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, Any] | None:
    """The ``settle_claim`` rectification a director gives for ``claim`` answered by ``answer`` (the
    solver's), with ``result``, what it gives the claimer's side in the claim's unit: the claim as stated
    when it holds even playing carelessly, otherwise the careless line. None when the answer is undecided
    or the budget runs out."""
    if answer["verdict"] == HOLDS:
        return {"rectification": {"kind": "settle_claim", "line": []}, "result": answer["claimed"]}
    if answer.get("careless") is None:
        return None
    found = careless_line(game, state, claim, budget=budget)
    if found is None:
        return None
    return {"rectification": {"kind": "settle_claim", "line": found["line"]}, "result": found["result"]}
