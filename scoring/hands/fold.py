"""A hand's log folded through its game: the moves that stand, the states, the verdicts, the rulings.

The log of a hand is what its event stream holds (and what a hand record file holds): moves, undos and
director's rulings, each with its position in the log. Folding it gives everything the pages, the API,
the replay command and the match sheet show. Nothing here touches the database: the projection and the
record files call the same fold, so a file and a stored hand always score alike.

Rulings
-------
A ruling names the moves it concerns (``refs``, positions in the log), the rule, the reason, and a
rectification, one of:

* ``{"kind": "stands"}``: the irregularity stands as recorded, no change to the score;
* ``{"kind": "dismiss"}``: no irregularity after all (the verdicts on the refs no longer stand);
* ``{"kind": "replace_move", "move": {...}}``: the one referenced move was mistyped; the hand is
  replayed with the corrected move in its place (refused if the rest of the hand no longer fits);
* ``{"kind": "transfer_tricks", "from_seat": s, "to_seat": t, "count": n}``: the last ``n`` tricks
  won by ``s`` go to ``t`` (trick games), and the hand is scored again;
* ``{"kind": "penalty", "scores": [...]}``: the game's penalty as the director applies it, added to
  the hand's scores seat by seat;
* ``{"kind": "assign_score", "scores": [...]}``: the director assigns the hand's scores outright;
* ``{"kind": "settle_claim", "line": [...]}``: the referenced claim, disputed, is settled as the director
  decides it (``docs/rules/claims.md``): the hand ends as the card plays of ``line`` play it out from the
  claim, or, with an empty line, the claim is scored as it was stated. The plays are not recorded moves:
  they are the ruling's, and the hand's last state is theirs.

A penalty or an assigned score changes the hand's scores outside the game: the change is kept as the
result's ``adjustments`` (by seat), and the match's sheet adds it as a column of its own beside the
game's columns (:mod:`scoring.hands.match`, docs/rules/rulings.md).

Every ruling settles the verdicts on the moves it references: the hand is flagged for the director
while a verdict on a standing move has no ruling.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from fractions import Fraction
from typing import Any

from scoring.rules import (
    Game,
    HandResult,
    HandState,
    ImpossibleMove,
    MalformedMove,
    RulesError,
    Verdict,
    get_game,
)
from scoring.rules.core import Score
from scoring.rules.errors import Text, _, plain_params
from scoring.rules.moves import Claim, ClaimResponse, Move, PlayCard, move_from_dict
from scoring.rules.tricks import TrickPlay

RECTIFICATIONS = (
    "stands",
    "dismiss",
    "replace_move",
    "transfer_tricks",
    "penalty",
    "assign_score",
    "settle_claim",
)
# What each kind of rectification carries besides its kind: nothing else goes into the log.
RECTIFICATION_KEYS: dict[str, tuple[str, ...]] = {
    "stands": (),
    "dismiss": (),
    "replace_move": ("move",),
    "transfer_tricks": ("from_seat", "to_seat", "count"),
    "penalty": ("scores",),
    "assign_score": ("scores",),
    "settle_claim": ("line",),
}
LINE_MAX = 200  # card plays in a settled claim's line: more than any hand of these games holds
SCORE_LIMIT = 1_000_000  # no hand of any of these games scores anywhere near it


@dataclass(frozen=True)
class MoveEntry:
    position: int
    move: Move
    actor: str = ""


@dataclass(frozen=True)
class UndoEntry:
    position: int
    of_position: int
    reason: str = ""
    actor: str = ""


@dataclass(frozen=True)
class RulingEntry:
    position: int
    refs: tuple[int, ...]
    rule: str
    reason: str
    rectification: Mapping[str, Any]
    actor: str = ""


Entry = MoveEntry | UndoEntry | RulingEntry


@dataclass(frozen=True)
class Setup:
    """What a hand starts from: the game, its options, the seats (names) and the dealer, and the match
    context the game asks for."""

    game: str
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    dealer: int
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StandingVerdict:
    """A verdict of the engine, tied to the log position of the move it concerns."""

    verdict: Verdict
    position: int
    proved_at_position: int | None
    ruled_by: tuple[int, ...]  # positions of the rulings on that move
    stands: bool  # False once a ruling dismissed it

    def as_dict(self) -> dict[str, Any]:
        v = self.verdict
        return {
            "position": self.position,
            "move_index": v.move_index,
            "seat": v.seat,
            "trick": v.trick,
            "rule": v.rule,
            "message": v.message,
            "template": v.template,
            "params": plain_params(v.params),
            "proved_at": self.proved_at_position,
            "ruled_by": list(self.ruled_by),
            "stands": self.stands,
        }


@dataclass(frozen=True)
class HandView:
    """The fold of a hand's log."""

    setup: Setup
    game: Game[Any]
    moves: tuple[MoveEntry, ...]  # the moves that stand, in order, corrected by rulings
    states: tuple[HandState, ...]  # states[i]: after the first i standing moves
    verdicts: tuple[StandingVerdict, ...]
    rulings: tuple[RulingEntry, ...]
    undone: tuple[UndoEntry, ...]
    result: HandResult | None  # with the rulings' score changes applied
    # A disputed claim settled by a ruling: the plays the ruling adds after the standing moves (none when
    # the claim was scored as stated), and the finished state they lead to.
    ruled_line: tuple[Move, ...] = ()
    settled: HandState | None = None

    @property
    def state(self) -> HandState:
        return self.settled if self.settled is not None else self.states[-1]

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def unruled(self) -> tuple[StandingVerdict, ...]:
        return tuple(v for v in self.verdicts if v.stands and not v.ruled_by)

    @property
    def flagged(self) -> bool:
        """The director has something to rule on: an irregularity or a disputed claim with no ruling."""
        return bool(self.unruled)

    @property
    def legal(self) -> bool:
        """No irregularity stands (none found, or every one dismissed by a ruling)."""
        return not any(v.stands for v in self.verdicts)


def ruled_against(view: HandView) -> list[int]:
    """Per seat, the irregularities a director ruled on without dismissing them."""
    counts = [0] * len(view.setup.seats)
    for v in view.verdicts:
        if v.stands and v.ruled_by and v.verdict.seat is not None:
            counts[v.verdict.seat] += 1
    return counts


def fold(setup: Setup, entries: Sequence[Entry]) -> HandView:
    """Fold a hand's log. Raises ImpossibleMove if a move (or a ruling's correction) cannot stand."""
    game = get_game(setup.game)
    moves: list[MoveEntry] = []
    undone: list[UndoEntry] = []
    rulings: list[RulingEntry] = []
    for e in entries:  # one pass, the moves first (nearly every entry)
        if isinstance(e, MoveEntry):
            moves.append(e)
        elif isinstance(e, UndoEntry):
            undone.append(e)
        elif isinstance(e, RulingEntry):
            rulings.append(e)
    standing = moves
    if undone or rulings:
        undone_positions = {u.of_position for u in undone}
        replaced: dict[int, Move] = {}
        for r in rulings:
            if r.rectification.get("kind") == "replace_move":
                replaced[r.refs[0]] = move_from_dict(r.rectification["move"])
        standing = [
            replace(e, move=replaced[e.position]) if e.position in replaced else e
            for e in moves
            if e.position not in undone_positions
        ]
    state = game.initial_state(
        setup.options, seats=len(setup.seats), dealer=setup.dealer, context=setup.context
    )
    states = [state]
    apply, add = game.apply, states.append
    for entry in standing:
        try:
            state = apply(state, entry.move).state
        except ImpossibleMove as exc:
            message = f"move at position {entry.position}: {exc.message}"
            raise type(exc)(exc.code, message, field=exc.field) from exc
        add(state)
    return _view(setup, game, tuple(standing), tuple(states), tuple(rulings), tuple(undone))


def extend(view: HandView, entry: MoveEntry) -> tuple[HandView, tuple[Verdict, ...]]:
    """The fold of the log with one more move at its end, and the verdicts that move drew.

    Equal to ``fold(setup, entries + [entry])`` (no ruling can name a move that comes after it) without
    folding the whole hand again. An impossible move raises with the engine's own message.
    """
    step = view.game.apply(view.state, entry.move)
    new = _view(
        view.setup, view.game, (*view.moves, entry), (*view.states, step.state), view.rulings, view.undone
    )
    return new, step.verdicts


def check_log(
    setup: Setup, entries: Sequence[Entry], where: Callable[[int], str] | None = None
) -> tuple[HandView, dict[int, tuple[Verdict, ...]]]:
    """Fold a log entry by entry as the service records it live: each move against the hand so far, each
    ruling checked against the hand before it. Returns the final fold and each move's verdicts by position.

    This is how a record file is checked and imported, so that a file is refused exactly where the
    service would have refused the same entry. ``where(position)`` names an entry in an error (default:
    ``position N``); the error's field is prefixed with it.
    """
    name = where or (lambda p: f"position {p}")
    view = fold(setup, [])
    done: list[Entry] = []
    verdicts: dict[int, tuple[Verdict, ...]] = {}
    for entry in entries:
        done.append(entry)
        try:
            if isinstance(entry, MoveEntry):
                view, verdicts[entry.position] = extend(view, entry)
                continue
            if isinstance(entry, RulingEntry):
                check_ruling(view, entry.refs, entry.rectification)
            view = fold(setup, done)
        except RulesError as exc:
            at = name(entry.position)
            field = f"{at}.{exc.field}" if exc.field else at
            raise type(exc)(exc.code, f"{at}: {exc.message}", field=field) from exc
    return view, verdicts


def _view(
    setup: Setup,
    game: Game[Any],
    standing: tuple[MoveEntry, ...],
    states: tuple[HandState, ...],
    rulings: tuple[RulingEntry, ...],
    undone: tuple[UndoEntry, ...],
) -> HandView:
    state = states[-1]
    positions = [e.position for e in standing]
    ruled: dict[int, list[int]] = {}
    dismissed: set[int] = set()
    for r in rulings:
        for ref in r.refs:
            ruled.setdefault(ref, []).append(r.position)
            if r.rectification.get("kind") == "dismiss":
                dismissed.add(ref)
    verdicts = tuple(
        StandingVerdict(
            verdict=v,
            position=positions[v.move_index],
            proved_at_position=positions[v.proved_at] if v.proved_at is not None else None,
            ruled_by=tuple(ruled.get(positions[v.move_index], ())),
            stands=positions[v.move_index] not in dismissed,
        )
        for v in state.verdicts
    )
    line: tuple[Move, ...] = ()
    settled: HandState | None = None
    for r in rulings:
        if r.rectification.get("kind") == "settle_claim":
            line, settled = _settle_claim(game, standing, state, r)
            state = settled
    result = result_of(game, state, rulings) if state.over else None
    return HandView(setup, game, standing, states, verdicts, rulings, undone, result, line, settled)


def _settle_claim(
    game: Game[Any], standing: Sequence[MoveEntry], state: HandState, ruling: RulingEntry
) -> tuple[tuple[Move, ...], HandState]:
    """The hand once a disputed claim is settled by ``ruling``: its line played out from the standing
    moves' last state, or the claim scored as stated. Refused (naming the rule) when it cannot apply."""
    claim = _disputed_claim(standing, state, ruling.refs)
    line = _line(ruling.rectification.get("line"))
    if not line:
        return (), game.settle_claim(state, claim)
    for n, move in enumerate(line, start=1):
        assert isinstance(move, PlayCard)
        if state.over:
            raise ImpossibleMove(
                "ruling.claim_line",
                _("the hand is over before play {n} of the line"),
                field="rectification.line",
                n=n,
            )
        try:
            state = game.apply(state, move).state
        except ImpossibleMove as exc:
            raise ImpossibleMove(
                "ruling.claim_line",
                _("play {n} of the line, {card} by {seat}, cannot be played here"),
                field="rectification.line",
                n=n,
                card=move.card,
                seat=move.seat,
            ) from exc
    if not state.over:
        raise ImpossibleMove(
            "ruling.claim_line", _("the line does not play the hand to its end"), field="rectification.line"
        )
    return tuple(line), state


def _disputed_claim(standing: Sequence[MoveEntry], state: HandState, refs: Sequence[int]) -> Claim:
    """The claim a settle_claim ruling names: a standing, disputed claim, with no card played since."""
    at = [i for i, m in enumerate(standing) if m.position in refs]
    if len(refs) != 1 or not at or not isinstance(standing[at[0]].move, Claim):
        raise ImpossibleMove(
            "ruling.claim", _("a claim is settled by a ruling on that claim alone"), field="refs"
        )
    claim = standing[at[0]].move
    assert isinstance(claim, Claim)
    if claim not in getattr(state, "disputed_claims", ()):
        raise ImpossibleMove("ruling.claim", _("this claim was not disputed"), field="refs")
    if not all(isinstance(m.move, ClaimResponse) for m in standing[at[0] + 1 :]):
        raise ImpossibleMove(
            "ruling.claim",
            _("play went on after the claim: rule on the hand as played (transfer tricks or assign scores)"),
            field="refs",
        )
    return claim


def _line(raw: Any) -> list[Move]:
    if not isinstance(raw, list | tuple) or len(raw) > LINE_MAX:
        raise MalformedMove(
            "ruling.malformed",
            _("the line lists at most {count} card plays (empty: the claim as stated)"),
            field="rectification.line",
            count=LINE_MAX,
        )
    moves = [move_from_dict(m) for m in raw]
    if not all(isinstance(m, PlayCard) for m in moves):
        raise MalformedMove(
            "ruling.malformed", _("a claim's line holds card plays only"), field="rectification.line"
        )
    return moves


def result_of(game: Game[Any], state: HandState, rulings: Sequence[RulingEntry]) -> HandResult:
    """A finished hand's result with its rulings' score changes (transferred tricks, penalties, assigned
    scores), as :func:`fold` gives it."""
    for r in rulings:
        if r.rectification.get("kind") == "transfer_tricks":
            state = _transfer_tricks(state, r.rectification)
    result = played = game.result(state)
    seats = len(result.scores)
    for r in rulings:
        kind = r.rectification.get("kind")
        if kind == "penalty":
            delta = _scores(r.rectification, seats)
            result = _rescored(result, tuple(s + d for s, d in zip(result.scores, delta, strict=True)), r)
        elif kind == "assign_score":
            result = _rescored(result, _scores(r.rectification, seats), r)
    if result is played:  # no ruling changed the scores by hand (nearly every hand): no adjustment
        return result
    # What the rulings changed by hand is the director's adjustment, kept apart from the game's own
    # columns (see scoring.hands.match): the game's invariants hold on what the play scored.
    change = tuple(
        _whole(Fraction(s) - Fraction(p)) for s, p in zip(result.scores, played.scores, strict=True)
    )
    if any(change):
        result = replace(result, adjustments=change)
    return result


def _rescored(result: HandResult, scores: tuple[Score, ...], ruling: RulingEntry) -> HandResult:
    # The rules applied, not the rulings' positions: those depend on how the log was keyed (undos), and a
    # hand imported from its record must score exactly as the hand it was exported from.
    details = {**result.details, "ruled": [*result.details.get("ruled", []), ruling.rule]}
    # The outcome says so, so that the line above the scores never contradicts them (an assigned score
    # may give the hand to the side the play did not).
    # Its text for a user nests what the play said (``outcome``: see scoring.rules.errors).
    played = result.outcome_text or Text(result.outcome)
    params = {"rule": ruling.rule, "outcome": played.as_dict()}
    if ruling.rectification.get("kind") == "assign_score":
        outcome = f"scores assigned by the director ({ruling.rule}); as played: {result.outcome}"
        text = Text(_("scores assigned by the director ({rule}); as played: {outcome}"), params)
    else:
        outcome = f"{result.outcome}; penalty by the director ({ruling.rule})"
        text = Text(_("{outcome}; penalty by the director ({rule})"), params)
    return replace(
        result,
        outcome=outcome,
        outcome_text=text,
        scores=scores,
        team_scores=_team_scores(result, scores),
        details=details,
    )


def _team_scores(result: HandResult, scores: tuple[Score, ...]) -> tuple[Score, ...]:
    """The teams' scores after a ruling, kept the way the game counts them.

    Games count a side in one of two ways: every partner carries the side's score (Tressette's pairs add
    their thirds before rounding, so a side has one score), or each player scores alone and the side is
    the sum (the hombre's defenders each pay). The game's own result shows which: a side whose members
    all carry its score shares it, and then a ruling must give the partners one number.
    """
    if not result.team_scores:
        return ()
    out: list[Score] = []
    for team, before in zip(result.teams, result.team_scores, strict=True):
        shared = len(team) > 1 and all(result.scores[s] == before for s in team)
        if shared:
            side = {scores[s] for s in team}
            if len(side) != 1:
                raise MalformedMove(
                    "ruling.malformed",
                    "partners share their side's score: give them one number",
                    field="scores",
                )
            out.append(side.pop())
        else:
            out.append(_whole(sum((Fraction(scores[s]) for s in team), Fraction(0))))
    return tuple(out)


def _whole(value: Fraction) -> Score:
    return int(value) if value.denominator == 1 else value


def _scores(rect: Mapping[str, Any], seats: int) -> tuple[Score, ...]:
    raw = rect.get("scores")
    if not isinstance(raw, list | tuple) or len(raw) != seats:
        raise MalformedMove(
            "ruling.malformed", f"scores must list {seats} numbers, one per seat", field="scores"
        )
    out: list[Score] = []
    for value in raw:
        try:
            number = Fraction(value) if isinstance(value, str) and len(value) <= 32 else value
        except ValueError:
            number = None
        if isinstance(number, bool) or not isinstance(number, int | Fraction):
            raise MalformedMove(
                "ruling.malformed", "each score is a whole number or an exact fraction string", field="scores"
            )
        if not -SCORE_LIMIT <= number <= SCORE_LIMIT:
            raise MalformedMove(
                "ruling.malformed", f"a score is between -{SCORE_LIMIT} and {SCORE_LIMIT}", field="scores"
            )
        out.append(_whole(number) if isinstance(number, Fraction) else number)
    return tuple(out)


def _trick_field(state: HandState) -> str | None:
    if not is_dataclass(state):
        return None
    for f in fields(state):
        if isinstance(getattr(state, f.name), TrickPlay):
            return f.name
    return None


def _transfer_tricks(state: HandState, rect: Mapping[str, Any]) -> HandState:
    name = _trick_field(state)
    if name is None:
        raise ImpossibleMove("ruling.no_tricks", "this game has no tricks to transfer", field="rectification")
    tricks: TrickPlay = getattr(state, name)
    source, target, count = rect.get("from_seat"), rect.get("to_seat"), rect.get("count")
    for key, value in (("from_seat", source), ("to_seat", target), ("count", count)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedMove("ruling.malformed", f"{key} must be a whole number", field=key)
    assert isinstance(source, int) and isinstance(target, int) and isinstance(count, int)
    won = [i for i, t in enumerate(tricks.done) if t.winner == source]
    if not 0 < count <= len(won):
        raise ImpossibleMove(
            "ruling.transfer", f"seat {source} won {len(won)} tricks, cannot give {count}", field="count"
        )
    moved = set(won[-count:])
    done = tuple(replace(t, winner=target) if i in moved else t for i, t in enumerate(tricks.done))
    changes: dict[str, Any] = {name: replace(tricks, done=done)}
    return replace(state, **changes)


def check_ruling(view: HandView, refs: Sequence[int], rectification: Mapping[str, Any]) -> None:
    """Refuse a ruling that cannot apply to this hand, naming the field."""
    kind = rectification.get("kind") if isinstance(rectification, Mapping) else None
    if kind not in RECTIFICATIONS:
        raise MalformedMove(
            "ruling.malformed",
            f"rectification kind must be one of {', '.join(RECTIFICATIONS)}",
            field="rectification",
        )
    for key in rectification:
        if key != "kind" and key not in RECTIFICATION_KEYS[kind]:
            takes = ", ".join(RECTIFICATION_KEYS[kind]) or "nothing but its kind"
            raise MalformedMove(
                "ruling.malformed",
                f"a {kind} rectification has no {str(key)[:40]!r} (it takes {takes})",
                field=f"rectification.{str(key)[:40]}",
            )
    if not refs:
        raise MalformedMove("ruling.malformed", "a ruling references at least one move", field="refs")
    standing = {m.position for m in view.moves}
    for ref in refs:
        if ref not in standing:
            raise ImpossibleMove(
                "ruling.ref", f"position {ref} is not a move that stands in this hand", field="refs"
            )
    if kind == "replace_move":
        if len(refs) != 1:
            raise MalformedMove("ruling.malformed", "replace_move references exactly one move", field="refs")
        move_from_dict(rectification.get("move"))  # type: ignore[arg-type]  # it checks the type itself
    if kind in ("penalty", "assign_score", "transfer_tricks") and not view.over:
        raise ImpossibleMove("ruling.not_over", f"{kind} applies to a finished hand", field="rectification")
    if kind == "settle_claim":
        if view.over:
            raise ImpossibleMove(
                "ruling.claim", _("the hand is over: the claim can no longer be settled"), field="refs"
            )
        _settle_claim(view.game, view.moves, view.state, RulingEntry(0, tuple(refs), "", "", rectification))
