"""A move that cannot stand under other options, as the compare page says it: the hand and the move by
their numbers for people, and why in the reader's language (it, fr, en), on random matches of every
game under random other options."""

from __future__ import annotations

import random
import re
from typing import Any

from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hands.whatif import rescore
from scoring.pages.display import whatif_view
from scoring.voice import Voice
from tests.scoring.hands.test_whatif import random_match, random_options
from tests.scoring.rules.playout import examples

LANGUAGES = ("it", "fr", "en")
# The games some of whose options make recorded moves impossible (L'Hombre's options change the scores
# only: every move stands under them).
REFUSING = ("barbu", "tressette", "tarocchi", "hombre_it")


def refused_report(name: str, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random match of the game and random other options under which one of its moves cannot stand
    (trying seed after seed from `seed`)."""
    for k in range(100):
        rng = random.Random(seed + k)
        record = random_match(name, rng, rng.randint(1, 4), random_options(name, rng))
        report = rescore(record, random_options(name, rng))
        if report["refused"] is not None:
            return record, report
    raise AssertionError(f"no refusal found for {name} from seed {seed}")


@settings(max_examples=examples(25), deadline=None)
@given(name=st.sampled_from(REFUSING), seed=st.integers(0, 2**32 - 1))
def test_a_refusal_names_the_hand_and_move_and_says_why_in_the_readers_language(name: str, seed: int) -> None:
    record, report = refused_report(name, seed)
    refused = report["refused"]
    hand = record["hands"][refused["hand"]]
    if refused["move"] is not None:  # the move it names is the one the field names, in that hand
        assert refused["field"].startswith(f"hands[{refused['hand']}].moves[{refused['move']}]")
        assert refused["move"] < len(hand["moves"])
    else:
        assert not refused["field"].startswith(f"hands[{refused['hand']}].moves[")

    for lang in LANGUAGES:
        with translation.override(lang):
            said = whatif_view(report, Voice.of(name, record["seats"], lang))["refusal"]
            if refused["move"] is not None:
                prefix = translation.gettext("Hand {hand}, move {move}: {why}")
                pattern = prefix.format(hand=refused["hand"] + 1, move=refused["move"] + 1, why="(.+)")
            else:
                prefix = translation.gettext("Hand {hand}: {why}")
                pattern = prefix.format(hand=refused["hand"] + 1, why="(.+)")
            found = re.fullmatch(re.escape(pattern).replace(re.escape("(.+)"), "(.+)"), said, re.S)
            assert found is not None, (lang, said)
            why = found.group(1)
            translated = translation.gettext(refused["template"])
        assert "{" not in why and "hands[" not in why  # words, not a template or a record path
        if lang != "en":  # the page's words and the engine's English template are in the catalogue
            assert translated != refused["template"], (lang, refused["template"])
            assert prefix not in ("Hand {hand}, move {move}: {why}", "Hand {hand}: {why}"), lang
