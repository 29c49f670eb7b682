"""The record commands: ``replay`` checks a record and prints JSON (exit 0 when well formed, irregular or
not; 2 malformed; 3 impossible), ``import_record`` and ``export_record`` round-trip a match."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club
from scoring.hands.records import check
from scoring.models import Match
from scoring.rules import game_names
from tests.scoring.api_support import engine_record

GAMES = game_names()
ROOT = Path(__file__).parents[2]


def replay(path: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("replay", path, stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def write(tmp_path: Path, record: Any, name: str = "hand.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    return str(path)


@pytest.mark.parametrize("name", GAMES)
def test_it_prints_legal_irregularities_result_and_scores(tmp_path: Path, name: str) -> None:
    record, at = engine_record(name, irregular=True)

    report = replay(write(tmp_path, record))

    assert report == json.loads(json.dumps(check(record)))
    assert report["legal"] is False
    first = report["irregularities"][0]
    assert (first["move"], first["seat"]) == (at - 1, record["moves"][at - 1]["seat"])
    assert first["rule"] and first["message"]
    assert isinstance(report["result"], str) and len(report["scores"]) == len(record["seats"])


def test_a_regular_hand_is_legal(tmp_path: Path) -> None:
    record, _ = engine_record(GAMES[0])

    report = replay(write(tmp_path, record))

    assert report["legal"] is True and report["irregularities"] == []


def test_it_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    record, _ = engine_record(GAMES[0])
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record)))

    report = replay("-")

    assert report["scores"] == check(record)["scores"]


@pytest.mark.parametrize(
    ("text", "status", "words"),
    [
        ("{not json", 2, "is not JSON"),
        (json.dumps({"format": "segnapunti.hand", "format_version": 1}), 2, "malformed record at game"),
        (json.dumps([1, 2]), 2, "malformed record"),
    ],
)
def test_a_malformed_record_exits_2_with_a_clear_message(
    tmp_path: Path, text: str, status: int, words: str
) -> None:
    with pytest.raises(CommandError) as caught:
        replay(write(tmp_path, text))

    assert caught.value.returncode == status
    assert words in str(caught.value)


def test_an_impossible_record_exits_3_naming_the_move(tmp_path: Path) -> None:
    record, _ = engine_record(GAMES[0])
    record["moves"][1] = dict(record["moves"][0])

    with pytest.raises(CommandError) as caught:
        replay(write(tmp_path, record))

    assert caught.value.returncode == 3
    assert "impossible record at moves[1]" in str(caught.value)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as caught:
        replay(str(tmp_path / "nowhere.json"))

    assert "cannot read" in str(caught.value)


def test_the_exit_status_is_that_of_the_process(tmp_path: Path) -> None:
    record, _ = engine_record(GAMES[0], irregular=True)
    good = write(tmp_path, record)
    bad = write(tmp_path, {**record, "moves": [record["moves"][0]] * 2}, "bad.json")

    ok = subprocess.run(
        [sys.executable, "manage.py", "replay", good], cwd=ROOT, capture_output=True, text=True
    )
    refused = subprocess.run(
        [sys.executable, "manage.py", "replay", bad], cwd=ROOT, capture_output=True, text=True
    )

    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["legal"] is False
    assert refused.returncode == 3
    assert "impossible record at moves[1]" in refused.stderr


@pytest.mark.django_db
def test_import_then_export_through_the_commands(tmp_path: Path) -> None:
    club = Club.objects.create(name="Circolo dei Comandi")
    record, _ = engine_record(GAMES[0], irregular=True)
    out = io.StringIO()

    call_command("import_record", write(tmp_path, record), "--club", club.name, stdout=out)
    match = Match.objects.get(pk=int(out.getvalue()))
    exported = io.StringIO()
    call_command("export_record", "--match", str(match.pk), "--hand", "1", stdout=exported)
    whole = tmp_path / "match.json"
    call_command("export_record", "--match", str(match.pk), "-o", str(whole))

    assert match.club == club and match.hands.get().flagged is True
    assert json.loads(exported.getvalue()) == {**record, "options": {}, "direction": "anticlockwise"}
    assert json.loads(whole.read_text())["hands"][0]["moves"] == record["moves"]


@pytest.mark.django_db
def test_import_refuses_an_unknown_club_and_an_impossible_record(tmp_path: Path) -> None:
    club = Club.objects.create(name="Circolo")
    record, _ = engine_record(GAMES[0])
    bad = {**record, "moves": [record["moves"][0]] * 2}

    with pytest.raises(CommandError, match="no club"):
        call_command("import_record", write(tmp_path, record), "--club", "Nessuno")
    with pytest.raises(CommandError) as caught:
        call_command("import_record", write(tmp_path, bad), "--club", str(club.pk))

    assert caught.value.returncode == 3
    assert Match.objects.count() == 0


def test_the_documented_example_replays_and_follows_the_schema() -> None:
    path = ROOT / "docs" / "examples" / "tressette-hand.json"
    record = json.loads(path.read_text())
    schema = json.loads((ROOT / "docs" / "record-format.schema.json").read_text())

    report = replay(str(path))

    assert jsonschema.Draft202012Validator(schema).is_valid(record)
    # Read off the file: Bruno leads the 2 of swords (moves[0]), Carla and Dario follow, Bruno declares his
    # three threes (moves[3]); Anna, dealt the 7 of swords, plays the 2 of coins (moves[4]): one revoke,
    # which the ruling at the end lets stand.
    assert [(i["move"], i["seat"], i["rule"], i["ruled"]) for i in report["irregularities"]] == [
        (4, 0, "follow_suit", True)
    ]
    assert report["legal"] is False and report["finished"] is True
    assert report["scores"][0] == report["scores"][2] and report["scores"][1] == report["scores"][3]
