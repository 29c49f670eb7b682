"""``move_input_values``: the move's body read without the serializer gives what the serializer gives,
and leaves everything it is not sure of to the serializer (so that its errors stay the same)."""

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from common.converters import ID_MAX
from scoring.api.views import IDEMPOTENCY_KEY_MAX, MoveAppendApi, move_input_values, validated

KEYS = ["expected_version", "idempotency_key", "move"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, ID_MAX, ID_MAX + 1, -1, 5.0, 0.5, float("inf")]),
    st.text(max_size=8),
    st.sampled_from(["", " ", " k", "k ", "a\tb", "k\x00", "\ud800", "clé", "\x7f", "5", "1e3"]),
    st.text(min_size=IDEMPOTENCY_KEY_MAX - 1, max_size=IDEMPOTENCY_KEY_MAX + 1, alphabet="ab "),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
moves = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["play", "deal", "call"]),
            "seat": st.integers(0, 3),
            "card": st.text(max_size=3),
        }
    ),
    st.dictionaries(st.text(max_size=6), json_values, max_size=4),
    json_values,
)
bodies = st.one_of(
    st.dictionaries(
        st.sampled_from([*KEYS, "moves", "version", ""]),
        st.one_of(json_values, moves, st.integers(0, ID_MAX)),
        max_size=4,
    ),
    json_values,
)
plainly_valid = st.fixed_dictionaries(
    {"expected_version": st.integers(0, ID_MAX), "move": moves.filter(lambda m: isinstance(m, dict))},
    optional={
        "idempotency_key": st.text(
            alphabet=st.characters(min_codepoint=33, max_codepoint=126),
            min_size=1,
            max_size=IDEMPOTENCY_KEY_MAX,
        )
    },
)


def by_serializer(body: Any) -> dict[str, Any] | None:
    try:
        return validated(MoveAppendApi.InputSerializer, body)
    except serializers.ValidationError:
        return None


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (``1 == True == 1.0`` would hide a difference)."""
    return repr(a) == repr(b) and a == b


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies)
@example({"expected_version": True, "move": {}})
@example({"expected_version": 3, "move": {}, "idempotency_key": " k"})
@example({"expected_version": 3, "move": {}, "idempotency_key": "\ud800"})
@example({"expected_version": 3, "move": {}, "idempotency_key": None})
@example({"expected_version": ID_MAX + 1, "move": {}})
@example({"expected_version": 3, "move": {1: "a"}})
def test_a_body_read_fast_is_read_as_the_serializer_reads_it(body: Any) -> None:
    fast = move_input_values(body)
    if fast is not None:
        assert same(fast, by_serializer(body))


@settings(max_examples=300, deadline=None)
@given(plainly_valid)
def test_a_plainly_valid_body_takes_the_fast_path(body: dict[str, Any]) -> None:
    fast = move_input_values(body)
    assert fast is not None
    assert same(fast, by_serializer(body))


@pytest.mark.parametrize(
    "body",
    [
        {"expected_version": 1, "move": {}, "extra": 1},
        {"expected_version": "1", "move": {}},
        {"expected_version": -1, "move": {}},
        {"move": {}},
        {"expected_version": 1},
        {"expected_version": 1, "move": []},
        {"expected_version": 1, "move": {}, "idempotency_key": ""},
        {"expected_version": 1, "move": {}, "idempotency_key": "x" * (IDEMPOTENCY_KEY_MAX + 1)},
        [],
    ],
)
def test_what_the_serializer_refuses_is_left_to_it(body: Any) -> None:
    assert by_serializer(body) is None
    assert move_input_values(body) is None
