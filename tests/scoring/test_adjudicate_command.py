"""``manage.py adjudicate FILE [--at N]``: a claim in a hand record decided by search, printed as JSON; exit 0
when answered, 2 for a malformed file, 3 for an impossible record or a move that is not a claim."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from scoring.rules import get_game
from scoring.rules.claims import question, random_claim, random_position, solve
from scoring.rules.moves import ClaimResponse, move_to_dict

TIMING = ("nodes", "elapsed_ms")


def claim_record(name: str, seed: int, *, tricks: int = 3) -> tuple[dict[str, Any], Any, Any, Any]:
    """A hand record played at random to a claim with ``tricks`` left, disputed by the next seat."""
    game = get_game(name)
    rng = random.Random(seed)
    found = None
    while found is None:
        found = random_position(game, rng, tricks_left=tricks)
    state, moves = found
    claim = random_claim(game, state, rng)
    deal = move_to_dict(moves[0])
    del deal["type"]
    disputer = (claim.seat + 1) % state.seats
    record = {
        "format": "segnapunti.hand",
        "format_version": 1,
        "game": name,
        "options": {},
        "seats": [f"P{i}" for i in range(state.seats)],
        "dealer": state.dealer,
        "deal": deal,
        "moves": [move_to_dict(m) for m in moves[1:]]
        + [move_to_dict(claim), move_to_dict(ClaimResponse(seat=disputer, accept=False))],
    }
    return record, game, state, claim


def adjudicate(path: str, *args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("adjudicate", path, *args, stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def write(tmp_path: Path, record: Any) -> str:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    return str(path)


def without_timing(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in (*TIMING, "at")}


@pytest.mark.parametrize("name", ["tressette", "barbu", "tarocchi", "hombre_it", "lhombre"])
def test_it_prints_the_answer_to_the_last_claim(tmp_path: Path, name: str) -> None:
    record, game, state, claim = claim_record(name, 7)

    answer = adjudicate(write(tmp_path, record))

    assert answer["at"] == len(record["moves"]) - 2
    assert without_timing(answer) == without_timing(solve(question(game, state, claim)))
    assert answer["verdict"] in ("holds", "holds_with_best_play", "fails")
    assert answer["tricks_left"] == 3


def test_at_names_the_claim(tmp_path: Path) -> None:
    record, _game, _state, _claim = claim_record("tressette", 3)
    at = len(record["moves"]) - 2

    assert adjudicate(write(tmp_path, record), "--at", str(at))["at"] == at


def test_a_move_that_is_not_a_claim_is_an_impossible_request(tmp_path: Path) -> None:
    record, _game, _state, _claim = claim_record("tressette", 3)

    with pytest.raises(CommandError) as caught:
        adjudicate(write(tmp_path, record), "--at", "0")

    assert caught.value.returncode == 3


def test_a_record_without_a_claim_is_an_impossible_request(tmp_path: Path) -> None:
    record, _game, _state, _claim = claim_record("barbu", 3)
    record["moves"] = record["moves"][:-2]

    with pytest.raises(CommandError) as caught:
        adjudicate(write(tmp_path, record))

    assert caught.value.returncode == 3


def test_a_file_that_is_not_json_is_malformed(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as caught:
        adjudicate(write(tmp_path, "{not json"))

    assert caught.value.returncode == 2


def test_a_record_missing_a_field_is_malformed(tmp_path: Path) -> None:
    record, _game, _state, _claim = claim_record("barbu", 3)
    del record["dealer"]

    with pytest.raises(CommandError) as caught:
        adjudicate(write(tmp_path, record))

    assert caught.value.returncode == 2


def test_an_impossible_record_exits_3(tmp_path: Path) -> None:
    record, _game, state, _claim = claim_record("tressette", 3)
    # The first card played is given to a seat that was not dealt it.
    first = next(m for m in record["moves"] if m["type"] == "play")
    first["seat"] = (first["seat"] + 1) % state.seats

    with pytest.raises(CommandError) as caught:
        adjudicate(write(tmp_path, record))

    assert caught.value.returncode == 3


def test_a_claim_by_a_player_not_on_lead_is_impossible(tmp_path: Path) -> None:
    record, _game, state, _claim = claim_record("hombre_it", 5)
    record["moves"][-2]["seat"] = (record["moves"][-2]["seat"] + 1) % state.seats

    with pytest.raises(CommandError) as caught:
        adjudicate(write(tmp_path, record))

    assert caught.value.returncode == 3


def test_without_the_deal_the_keyed_hands_decide(tmp_path: Path) -> None:
    record, game, state, claim = claim_record("tressette", 11)
    hands = [sorted(h) for h in state.hands.hands]
    record["deal"] = None

    answer = adjudicate(write(tmp_path, record), "--hands", json.dumps(hands))

    assert without_timing(answer) == without_timing(solve(question(game, state, claim)))


def test_without_the_deal_nor_keyed_hands_it_says_so(tmp_path: Path) -> None:
    record, _game, _state, _claim = claim_record("tressette", 11)
    record["deal"] = None

    with pytest.raises(CommandError) as caught:
        adjudicate(write(tmp_path, record))

    assert caught.value.returncode == 3
    assert "claim.hands_unknown" in str(caught.value)


def test_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    record, _game, _state, _claim = claim_record("tarocchi", 2)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))

    assert adjudicate("-")["verdict"] in ("holds", "holds_with_best_play", "fails")
