"""The pages' words: the engine's codes and messages put into the page's language, seats by name and
moves by their numbers from 1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from scoring.pages import display
from scoring.voice import Voice, verdict_text

SEATS = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


def test_the_felt_says_the_contract_and_leaves_out_what_holds_nothing() -> None:
    facts = display.table_facts(
        {"contract": "NPR", "layout": [None] * 4, "trump": None, "passes": [], "crossed": [[], [], [], []]},
        Voice.of("barbu", SEATS),
    )

    assert facts == [("Contract", "No King of Hearts")]


def test_the_felt_names_the_callers_and_the_hombre_not_the_engine_s_bookkeeping() -> None:
    state = {
        "table": {"chips": [397, 397, 397], "pot": 9, "live": 9, "queue": [], "drawn": 0, "hands": 0},
        "calls": [[1, "vole"], [2, "pass"], [0, "je_joue"]],
        "best": [1, "vole"],
        "hombre": 1,
        "contract": "vole",
        "trump": "C",
        "talon_left": 7,
        "maker": 2,
    }

    facts = dict(display.table_facts(state, Voice.of("lhombre", SEATS[:3], "en")))

    assert facts["Calls"] == "Bruno: vole (all nine tricks); Carla: passe (pass); Anna: je joue (I play)"
    assert facts["Hombre"] == "Bruno"
    assert facts["Trumps"] == "batons"
    assert facts["Talon"] == "7 cards left"
    assert facts["Pot"] == "9 jetons"
    assert set(facts) == {"Calls", "Hombre", "Contract", "Trumps", "Talon", "Pot"}


def test_a_declaration_is_said_with_its_player_cards_points_and_standing() -> None:
    declared = {
        "seat": 2,
        "combination": "three_twos",
        "cards": ["2S", "2H", "2C"],
        "points": 3,
        "ruling": "valid",
    }
    refused = {**declared, "seat": 0, "ruling": "tressette.window"}

    facts = display.table_facts({"declarations": [declared, refused]}, Voice.of("tressette", SEATS, "en"))

    assert facts[0] == (
        "Declaration",
        "Carla: three twos (Two of swords, Two of cups, Two of batons) · 3 points · valid",
    )
    assert facts[1][1].startswith("Anna: three twos") and facts[1][1].endswith("Declared too late")


def test_an_engine_message_is_put_into_words_by_the_names_of_its_parameters() -> None:
    v = Voice.of("tressette", SEATS, "en")
    verdict = {
        "rule": "follow_suit",
        "seat": 1,
        "template": "{seat} did not follow {lead} with {card} in trick {trick}",
        "params": {"seat": 1, "lead": "S", "card": "KH", "trick": 3},
        "message": "seat 2 did not follow S with KH in trick 3",
    }

    assert verdict_text(verdict, v) == "Bruno did not follow swords with King of cups in trick 3"


def test_a_verdict_stored_before_templates_says_its_rule_and_who_broke_it() -> None:
    old = {"rule": "tarocchi.king", "seat": 3, "message": "seat 3 broke the King rule in trick 2"}

    assert verdict_text(old, Voice.of("tressette", SEATS)) == "Dario: Broke the King rule"


def test_a_seat_beyond_the_table_is_numbered_from_one() -> None:
    v = Voice.of("tressette", SEATS[:2])

    assert v.seat(0) == "Anna" and v.seat(3) == "seat 4"


def test_the_legal_moves_name_each_seat_once() -> None:
    state = {
        "legal_moves": [{"type": "play", "seat": 1, "card": c} for c in ("AS", "2S", "3S")]
        + [{"type": "claim", "seat": 1}]
    }

    shown = display.legal_by_seat(state, Voice.of("tressette", SEATS, "en"))

    assert shown == [
        {
            "seat": "Bruno",
            "moves": ["Ace of swords (AS)", "Two of swords (2S)", "Three of swords (3S)", "claims the rest"],
        }
    ]


def _event(version: int, kind: str, **payload: object) -> dict[str, object]:
    return {
        "version": version,
        "type": kind,
        "by": "sandro",
        "at": "2026-11-25T20:00:00+00:00",
        "payload": payload,
    }


def test_the_audit_trail_names_moves_by_the_numbers_of_the_move_list() -> None:
    play = {"type": "play", "seat": 0, "card": "AS"}
    events = [
        _event(1, "HandStarted", dealer=3),
        _event(2, "MoveRecorded", move={"type": "deal", "hands": None}, verdicts=[]),
        _event(3, "MoveRecorded", move=play, verdicts=[]),
        _event(4, "MoveRecorded", move={**play, "seat": 1, "card": "2S"}, verdicts=[]),
        _event(5, "MoveUndone", of_version=4, reason="wrong card"),
        _event(6, "MoveRecorded", move={**play, "seat": 1, "card": "3S"}, verdicts=[]),
        _event(7, "RulingRecorded", refs=[6], rule="follow_suit", reason="seen"),
    ]

    rows = display.audit_rows(events, Voice.of("tressette", SEATS, "en"))

    assert [r["what"] for r in rows] == [
        "hand started, Dario deals",
        "move 1: deal (cards not entered)",
        "move 2: Anna: Ace of swords (AS)",
        "move 3: Bruno: Two of swords (2S)",
        "undo of move 3",
        "move 3: Bruno: Three of swords (3S)",
        "ruling: Did not follow suit, on move 3",
    ]
    assert rows[4]["why"] == "wrong card"


def test_a_ruling_names_its_moves_and_its_rectification_in_words() -> None:
    ruling = {
        "rule": "hombre.follow_suit",
        "refs": [7, 99],
        "reason": "seen",
        "rectification": {"kind": "transfer_tricks", "from_seat": 0, "to_seat": 2, "count": 2},
    }

    shown = display.ruling_view(ruling, {7: 4}, Voice.of("hombre_it", SEATS[:3]))

    assert shown["rule_name"] == "Did not follow suit"
    assert shown["refs"] == ["move 4", "a move since undone"]
    assert shown["kind"] == "transfer tricks"
    assert shown["details"] == "2 tricks from Anna to Carla"


def test_l_hombre_names_its_cards_in_french_unless_another_language_is_chosen() -> None:
    assert Voice.of("lhombre", SEATS[:3]).card("KH") == "Roi de cœur"
    assert Voice.of("lhombre", SEATS[:3], "it").card("KH") == "Re di coppe"
    assert Voice.of("tressette", SEATS).card("QS") == "Knight of swords"  # the page's language: a Cavallo
