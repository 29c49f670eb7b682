"""Every text the engine shows a user is a translatable template with params (issue 14).

Three checks: the engine's source builds every error, verdict, assertion and outcome text from a
``_("literal")`` template (never an f-string or a concatenation); in random hands that also try moves that
cannot stand, every template's placeholders are exactly the params given; and every param holds what its
name promises (``scoring/rules/errors.py`` has the convention).
"""

from __future__ import annotations

import ast
import random
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import RulesError, game_names, get_game
from scoring.rules.barbu_contracts import CONTRACT_SETS
from scoring.rules.core import Game, HandResult, HandState, Verdict
from scoring.rules.errors import Text, param_kind, render
from scoring.rules.moves import (
    Call,
    Choose,
    Claim,
    ClaimResponse,
    Declare,
    Exchange,
    Move,
    PassCards,
    PlayCard,
)

from .playout import examples

ENGINE = Path(__file__).resolve().parents[3] / "scoring" / "rules"
MODULES = sorted(ENGINE.glob("*.py"))

# The constructors of texts, and where each takes its template: (position, keyword).
ERRORS = {"RulesError", "MalformedMove", "ImpossibleMove", "IrregularMoveRefused", "InvalidOptions"}
TEMPLATE_ARGUMENT = {
    **{name: (1, "message") for name in ERRORS},
    "Verdict": (3, "template"),
    "Pending": (3, "template"),
    "Text": (0, "template"),
}


# ---- (a) the source ------------------------------------------------------------------------------------
def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_marked(node: ast.expr) -> bool:
    """``_("literal")``: one plain string, so that xgettext can take it."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


@dataclass
class Source:
    """One engine module: its functions by name, and what encloses each node."""

    path: Path
    tree: ast.Module
    functions: dict[str, list[ast.FunctionDef]] = field(default_factory=dict)
    parents: dict[ast.AST, ast.AST] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Source:
        source = cls(path, ast.parse(path.read_text(), str(path)))
        for node in ast.walk(source.tree):
            for child in ast.iter_child_nodes(node):
                source.parents[child] = node
            if isinstance(node, ast.FunctionDef):
                source.functions.setdefault(node.name, []).append(node)
        return source

    def scope(self, node: ast.AST) -> ast.FunctionDef | ast.Module:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef):
                return node
        return self.tree

    def bindings(
        self, name: str, scope: ast.FunctionDef | ast.Module
    ) -> Iterator[tuple[ast.expr, int | None]]:
        """What ``name`` is bound to in ``scope`` (else at module level): each value, with the position
        taken from it when the name is unpacked from a tuple. A parameter yields nothing to check."""
        found = False
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id == name:
                        found = True
                        yield node.value, None
                    elif isinstance(target, ast.Tuple):
                        for i, element in enumerate(target.elts):
                            if isinstance(element, ast.Name) and element.id == name:
                                found = True
                                yield node.value, i
        if not found and not isinstance(scope, ast.Module):
            yield from self.bindings(name, self.tree)

    def returns(self, call: ast.Call) -> Iterator[tuple[ast.FunctionDef, ast.expr]]:
        """The values the functions named by ``call`` return (functions of this module only)."""
        name = _name(call.func)
        for function in self.functions.get(name or "", []):
            for node in ast.walk(function):
                if isinstance(node, ast.Return) and node.value is not None:
                    yield function, node.value


def _element(source: Source, value: ast.expr, index: int) -> Iterator[ast.expr]:
    """The ``index``-th value of a tuple expression (a tuple literal, or a call returning tuples)."""
    if isinstance(value, ast.Tuple):
        elements = value.elts
        if elements and isinstance(elements[-1], ast.Starred) and index >= len(elements) - 1:
            starred = elements[-1].value
            assert isinstance(starred, ast.Call), ast.unparse(value)
            for _function, returned in source.returns(starred):
                yield from _element(source, returned, index - len(elements) + 1)
            return
        yield elements[index]
    elif isinstance(value, ast.Call):
        for _function, returned in source.returns(value):
            yield from _element(source, returned, index)
    elif isinstance(value, ast.Name):  # a tuple kept in a name first, then unpacked
        for bound, at in source.bindings(value.id, source.scope(value)):
            assert at is None, f"{value.id} is itself unpacked"
            yield from _element(source, bound, index)
    elif not (isinstance(value, ast.Constant) and value.value is None):
        raise AssertionError(f"cannot follow {ast.unparse(value)}")


def faults(source: Source, node: ast.expr, seen: frozenset[str] = frozenset()) -> list[str]:
    """Why ``node``, used as a template, is not made of ``_("literal")`` templates (empty: it is)."""
    where = f"{source.path.name}:{getattr(node, 'lineno', '?')}"
    if _is_marked(node):
        return []
    if isinstance(node, ast.IfExp):
        return faults(source, node.body, seen) + faults(source, node.orelse, seen)
    if isinstance(node, ast.Attribute) and node.attr == "template":
        return []  # an existing template handed on (an assertion proved, a verdict refused)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        tables = [v for v, _at in source.bindings(node.value.id, source.tree) if isinstance(v, ast.Dict)]
        if not tables:
            return [f"{where}: {ast.unparse(node)} is not looked up in a table of templates"]
        return [f for table in tables for v in table.values if v is not None for f in faults(source, v, seen)]
    if isinstance(node, ast.Name):
        if node.id in seen:
            return []
        scope = source.scope(node)
        bound = list(source.bindings(node.id, scope))
        if not bound:
            return [f"{where}: {node.id} comes from outside (a parameter): its template cannot be checked"]
        out: list[str] = []
        for value, index in bound:
            if index is None:
                out += faults(source, value, seen | {node.id})
            else:
                for element in _element(source, value, index):
                    out += faults(source, element, seen | {node.id})
        return out
    return [f'{where}: {ast.unparse(node)} is not a _("literal") template']


def template_arguments(source: Source) -> Iterator[tuple[str, ast.expr]]:
    for node in ast.walk(source.tree):
        if not isinstance(node, ast.Call):
            continue
        if _name(node.func) == "_tuple_new" and node.args and _name(node.args[0]) in TEMPLATE_ARGUMENT:
            # A named tuple made from the tuple of its fields (tuple.__new__), on a hot path.
            fields = node.args[1]
            assert isinstance(fields, ast.Tuple), ast.unparse(node)
            position, _keyword = TEMPLATE_ARGUMENT[_name(node.args[0]) or ""]
            yield f"{source.path.name}:{node.lineno}", fields.elts[position]
            continue
        if _name(node.func) not in TEMPLATE_ARGUMENT:
            continue
        position, keyword = TEMPLATE_ARGUMENT[_name(node.func) or ""]
        given = node.args[position] if len(node.args) > position else None
        given = next((k.value for k in node.keywords if k.arg == keyword), given)
        if given is not None and not isinstance(given, ast.Starred):
            yield f"{source.path.name}:{node.lineno}", given


def marked_literals() -> set[str]:
    return {
        node.args[0].value
        for path in MODULES
        for node in ast.walk(ast.parse(path.read_text()))
        if _is_marked(node) and isinstance(node, ast.Call) and isinstance(node.args[0], ast.Constant)
    }


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_text_is_built_from_marked_literal_templates(path: Path) -> None:
    source = Source.read(path)
    problems = [problem for _where, given in template_arguments(source) for problem in faults(source, given)]
    assert problems == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_marker_is_only_ever_given_one_literal(path: Path) -> None:
    tree = ast.parse(path.read_text())
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    wrong = [ast.unparse(n) for n in calls if n.func.id == "_" and not _is_marked(n)]  # type: ignore[attr-defined]
    assert wrong == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_hand_result_says_its_outcome_for_users(path: Path) -> None:
    tree = ast.parse(path.read_text())
    results = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) == "HandResult"]
    assert all(any(k.arg == "outcome_text" for k in n.keywords) for n in results), path.name


def test_the_checker_catches_what_it_is_for() -> None:
    bad = Source.read(ENGINE / "core.py")
    for text in (
        'f"{card} is gone"',
        '"seat " + str(seat)',
        '"plain words"',
        '_(f"{card}")',
        '_("a") + _("b")',
        '"{card}".format(card=card)',
    ):
        assert faults(bad, ast.parse(text, mode="eval").body), text
    assert not faults(bad, ast.parse('_("{card} is gone")', mode="eval").body)


# ---- (b) and (c) the texts of random hands, irregular and impossible moves included ----------------------
SUITS = frozenset("SHDCT")
CALL_WORDS = (
    "pass",
    "passo",
    "gioco",
    "solo",
    "volo",
    "vado",
    "offro",
    "piglio",
    "tengo",
    "close",
    "je_joue",
    "sans_prendre",
    "vole",
    "fuori",
    "zzz",
)
CHOICES = (
    ("contract", ("MP", "NPR", "DOM", "XX")),
    ("trump", ("S", "H", "none", "T")),
    ("opening_rank", ("2", "7", "Z")),
    ("close", (None,)),
    ("talon", ("shown", "x")),
    ("vole", ("go_on", "stop", "x")),
    ("espadille", ("declare", "concealed", "talon", "x")),
    ("zz", ("1",)),
)
COMBINATIONS = ("three_aces", "four_aces", "three_twos", "four_threes", "napoletana", "matadors", "bogus")


def codes(game: Game[Any]) -> dict[str, frozenset[Any]]:
    """The codes a param of each kind may hold in this game."""
    calls = {c for c in CALL_WORDS if c != "zzz"}
    return {
        "call": frozenset(calls),
        "combination": frozenset(
            {
                "three_aces",
                "four_aces",
                "three_twos",
                "four_twos",
                "three_threes",
                "four_threes",
                "napoletana",
                "matadors",
            }
        ),
        "contract": frozenset(c.code for specs in CONTRACT_SETS.values() for c in specs),
        "option": frozenset(game.ruleset.by_name),
    }


def check_text(game: Game[Any], seats: int, template: str, params: Mapping[str, Any]) -> None:
    """(b) the placeholders are exactly the params; (c) each param holds what its name promises."""
    named = {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name is not None}
    assert named == set(params), (template, params)
    render(template, params)  # renders in English
    known = codes(game)
    for name, value in params.items():
        kind = param_kind(name)
        where = (template, name, value)
        if kind == "seat":
            assert type(value) is int and 0 <= value < seats, where
        elif kind == "seats":
            assert isinstance(value, list) and value and all(type(s) is int and 0 <= s < seats for s in value)
        elif kind == "card":
            assert isinstance(value, str) and value in game.deck, where
        elif kind == "cards":
            assert isinstance(value, list) and all(isinstance(c, str) and c in game.deck for c in value), (
                where
            )
        elif kind == "suit":
            assert value in SUITS, where
        elif kind in known:
            assert value in known[kind], where
        elif kind == "text":
            check_text(game, seats, value["template"], value["params"])
        else:
            assert plain(value), where


def plain(value: Any) -> bool:
    """A number, or a plain literal: a code (no spaces: never words), a flag, null, or a list of them."""
    if isinstance(value, list):
        return all(plain(v) for v in value)
    if isinstance(value, str):
        return not any(c.isspace() for c in value)
    return value is None or isinstance(value, bool | int | float)


def random_move(rng: random.Random, game: Game[Any], state: HandState, seats: int) -> Move:
    """A move that may well not stand: a card the seat to act holds or not, a word no game knows …"""
    deck = game.deck.cards
    if rng.random() < 0.5 and state.holdings is not None:
        actors = sorted(game.to_act(state))
        holdings = state.holdings
        if actors:
            seat = rng.choice(actors)
            pool = (
                sorted(holdings.hands[seat])
                if holdings.hands is not None
                else sorted(holdings.deck - holdings.gone)
            )
            if pool:
                return PlayCard(seat=seat, card=rng.choice(pool))
    seat = rng.choice([*range(seats), None])
    kind = rng.random()
    if kind < 0.4:
        return PlayCard(seat=seat, card=rng.choice(deck))
    if kind < 0.5:
        return Call(
            seat=seat,
            call=rng.choice(CALL_WORDS),
            value=rng.choice([None, 1, 12, 0]),
            target=rng.choice([None, 0, 1]),
        )
    if kind < 0.6:
        choice, values = rng.choice(CHOICES)
        return Choose(seat=seat, choice=choice, value=rng.choice(values))
    if kind < 0.7:
        rank = rng.choice("A23")
        cards = (
            tuple(rng.sample([rank + s for s in "SHDC"], 3))
            if rng.random() < 0.7
            else tuple(rng.sample(deck, 3))
        )
        return Declare(seat=seat, combination=rng.choice(COMBINATIONS), cards=cards)
    if kind < 0.8:
        return Claim(
            seat=seat,
            tricks=rng.choice([None, 1, 13]),
            split=rng.choice([None, (1, 2, 3), (0, 0, 0, 13), (5, 6)]),
        )
    if kind < 0.85:
        return ClaimResponse(seat=seat, accept=rng.random() < 0.5)
    if kind < 0.95:
        n = rng.randrange(0, 5)
        return Exchange(
            seat=seat,
            discard=tuple(rng.sample(deck, n)),
            take=tuple(rng.sample(deck, n)),
            count=rng.choice([None, n, 3]),
        )
    return PassCards(seat=seat, cards=tuple(rng.sample(deck, 3)), count=rng.choice([None, 3]))


def random_options(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    return {o.name: rng.choice(o.choices) for o in game.ruleset.options if o.choices and rng.random() < 0.5}


@dataclass
class Texts:
    """The texts a run produced: errors, verdicts, outcomes."""

    errors: int = 0
    verdicts: int = 0
    outcomes: int = 0


def run(game: Game[Any], rng: random.Random, texts: Texts) -> None:
    seats = rng.choice(game.seat_counts)
    options = random_options(game, rng) if rng.random() < 0.5 else {}
    options["strict"] = rng.random() < 0.15
    state = game.initial_state(options, seats=seats, dealer=rng.randrange(seats))
    deal = game.random_deal(state, rng)
    moves_only = rng.random() < 0.4
    state = game.apply(state, game.moves_only([deal])[0] if moves_only else deal).state
    for _step in range(600):
        if state.over:
            break
        legal = game.legal_moves(state)
        move = rng.choice(legal) if legal and rng.random() < 0.65 else random_move(rng, game, state, seats)
        try:
            step = game.apply(state, move)
        except RulesError as exc:
            texts.errors += 1
            check_text(game, seats, exc.template, exc.params)
            assert exc.message == render(exc.template, exc.params)
            continue
        for verdict in step.verdicts:
            texts.verdicts += 1
            check_verdict(game, seats, verdict)
        state = step.state
    for verdict in state.verdicts:
        check_verdict(game, seats, verdict)
    if state.over:
        result = game.result(state)
        check_result(game, seats, result)
        texts.outcomes += 1
        sheet = game.match_result(options, seats, [result])
        for row in sheet.rows:
            for key in ("outcome_text", "note_text"):
                if row.get(key) is not None:
                    check_text(game, seats, row[key]["template"], row[key]["params"])


def check_verdict(game: Game[Any], seats: int, verdict: Verdict) -> None:
    check_text(game, seats, verdict.template, verdict.params)
    again = Verdict.from_dict(verdict.as_dict())
    assert again == verdict and again.message == verdict.message


def check_result(game: Game[Any], seats: int, result: HandResult) -> None:
    text = result.outcome_text
    assert isinstance(text, Text), f"{game.name}: a result without its outcome_text"
    check_text(game, seats, text.template, text.params)
    assert result.as_dict()["outcome_text"] == text.as_dict()


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=examples(15))
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_texts_in_random_hands_fill_their_templates(name: str, seed: int) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    texts = Texts()
    for _hand in range(12):  # three hands, more when they ended before any move was refused
        run(game, rng, texts)
        if texts.outcomes >= 3 and texts.errors:
            break
    assert texts.errors and texts.outcomes


@pytest.mark.parametrize("name", game_names())
def test_every_template_met_is_a_marked_literal(name: str) -> None:
    """What runs is what the catalogues hold: each template met in play is a ``_()`` literal of the source."""
    literals = marked_literals()
    game = get_game(name)
    rng = random.Random(14)
    met: set[str] = set()
    for _hand in range(30):
        seats = rng.choice(game.seat_counts)
        state = game.initial_state(random_options(game, rng), seats=seats, dealer=0)
        state = game.apply(state, game.random_deal(state, rng)).state
        for _step in range(600):
            if state.over:
                break
            legal = game.legal_moves(state)
            move = rng.choice(legal) if rng.random() < 0.7 else random_move(rng, game, state, seats)
            try:
                step = game.apply(state, move)
            except RulesError as exc:
                met.add(exc.template)
                continue
            met.update(v.template for v in step.verdicts)
            state = step.state
        if state.over:
            outcome = game.result(state).outcome_text
            assert outcome is not None
            met.add(outcome.template)
    assert met - literals == set()


def test_option_errors_and_their_params() -> None:
    for name in game_names():
        game = get_game(name)
        seats = game.seat_counts[0]
        for option in game.ruleset.options:
            for wrong in ("nonsense", 10**6, -5, True, None, ["x"]):
                try:
                    game.initial_state({option.name: wrong}, seats=seats, dealer=0)
                except RulesError as exc:
                    check_text(game, seats, exc.template, exc.params)
        for seats_wrong, dealer in ((9, 0), (seats, 7), (seats, -1)):
            with pytest.raises(RulesError) as refused:
                game.initial_state(None, seats=seats_wrong, dealer=dealer)
            check_text(game, seats, refused.value.template, refused.value.params)


def test_seats_are_counted_from_one_in_english() -> None:
    game = get_game("tressette")
    state = game.initial_state(None, seats=4, dealer=3)  # seat 0 leads
    state = game.apply(state, game.random_deal(state, random.Random(1))).state
    with pytest.raises(RulesError) as wrong:
        game.apply(state, PlayCard(seat=2, card=sorted(state.hands.hand(2))[0]))
    assert wrong.value.params == {"seat": 2, "seats": [0]}
    assert wrong.value.message == "it is not seat 3's turn: seat 1 to act"
    assert wrong.value.as_dict()["params"] == {"seat": 2, "seats": [0]}


def test_a_verdict_stored_before_templates_reads_back_with_its_message() -> None:
    stored = {
        "rule": "follow_suit",
        "seat": 2,
        "trick": 1,
        "message": "seat 2 did not follow S to trick 1 while holding it {as said then}",
        "move_index": 4,
        "proved_at": None,
    }
    old = Verdict.from_dict(stored)
    assert old.message == stored["message"] and old.params == {}
    assert old.as_dict() == {**stored, "template": stored["message"], "params": {}}


def test_a_result_says_its_outcome_as_a_template() -> None:
    text = Text(
        "{seats} win the deal, {points} to {other_points}", {"seats": (0, 2), "points": 7, "other_points": 4}
    )
    result = HandResult("seats 0+2 7, seats 1+3 4: seats 0+2 win the deal", (7, 4, 7, 4), outcome_text=text)
    stored = result.as_dict()["outcome_text"]
    assert stored == {"template": text.template, "params": {"seats": [0, 2], "points": 7, "other_points": 4}}
    assert Text.from_dict(stored).message == "seats 1 and 3 win the deal, 7 to 4"
