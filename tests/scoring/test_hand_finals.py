"""A finished hand's fold kept with the hand (``HandFinal``, sealed by :func:`whatif.seal`): a cache, held
to its rebuild from the log, and ignored whenever it does not match (another version, engine or key)."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from scoring import selectors, services
from scoring.hands import foldcache, whatif
from scoring.hands.whatif import rescore
from scoring.log import store
from scoring.log.events import MoveRecorded
from scoring.models import Hand, HandFinal, Match
from scoring.rules import game_names, get_game
from scoring.rules.moves import move_to_dict
from tests.scoring.api_support import People
from tests.scoring.hands.test_whatif import random_match, random_options
from tests.scoring.rules.playout import play_random
from tests.scoring.test_whatif_stored import stored_match


def _cold() -> None:
    """No fold of any hand kept in this process: neither a what-if's nor the recording's."""
    whatif.forget()
    foldcache.clear()


def _from_the_log(hand: Hand) -> whatif.Final:
    """The hand folded from its log entries alone (nothing kept anywhere)."""
    _cold()
    return whatif.Final.of(selectors.hand_view(hand))


def _sealed(hand: Hand) -> whatif.Final | None:
    found = HandFinal.objects.filter(hand=hand).values_list("blob", flat=True).first()
    return whatif.unseal(found, hand.version, selectors.hand_final_key())


def _played_to_the_end(people: People, name: str, seed: int) -> tuple[Match, Hand]:
    """A match imported from a random record of one hand, then a second hand played move by move
    through the services to its end."""
    rng = random.Random(seed)
    record = random_match(name, rng, 1, random_options(name, rng))
    match = services.match_import(club=people.club, record=record, actor=people.director)
    if match.status == Match.Status.FINISHED:  # one hand was the whole match: a new one of its own
        record = random_match(name, rng, 1, {"target": 1000} if name == "tressette" else {})
        match = services.match_import(club=people.club, record=record, actor=people.director)
    hand = services.hand_start(match=match, actor=people.director)
    view = selectors.hand_view(hand)
    play = play_random(
        get_game(name),
        rng,
        seats=len(record["seats"]),
        dealer=hand.dealer,
        options=dict(view.setup.options),
        context=dict(view.setup.context),
    )
    for move in play.moves:
        hand = services.move_record(
            hand=hand, move=move_to_dict(move), expected_version=hand.version, actor=people.director
        ).hand
    match.refresh_from_db()
    return match, hand


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", game_names())
def test_every_finished_hand_keeps_the_fold_of_its_log(people: People, name: str, seed: int) -> None:
    # Imported (a ruling in the first hand; a later hand played in part and one move undone) and played
    # move by move: each finished hand's kept fold is the one its log folds to, at its row's version;
    # a hand in play has none that serves, nor has an imported hand with a ruling (left to the log).
    match = stored_match(people, name, seed)
    for hand in match.hands.order_by("number"):
        if hand.status == Hand.Status.OVER and hand.number > 1:
            kept = _sealed(hand)
            assert kept is not None
            assert kept == _from_the_log(hand)
        else:
            assert _sealed(hand) is None
    match, hand = _played_to_the_end(people, name, seed)
    assert hand.status == Hand.Status.OVER
    kept = _sealed(hand)
    assert kept is not None and kept == _from_the_log(hand)


@pytest.mark.django_db
@pytest.mark.parametrize("name", game_names())
def test_a_fold_kept_at_another_version_serves_no_more(people: People, name: str) -> None:
    # The last card taken back: the hand is in play again, its row a version on; the fold kept with it
    # is of the version before and is not read. Keyed again, the hand keeps the new version's fold.
    match, hand = _played_to_the_end(people, name, 11)
    event = store.read_stream(hand.stream_id)[-1].event
    assert isinstance(event, MoveRecorded)
    last = event.move
    hand = services.move_undo(hand=hand, expected_version=hand.version, actor=people.director)
    assert hand.status == Hand.Status.IN_PLAY
    match.refresh_from_db()
    assert HandFinal.objects.filter(hand=hand).exists() and _sealed(hand) is None
    record = selectors.match_export(match)
    other = random_options(name, random.Random(3))
    _cold()
    assert selectors.match_rescore(match, other) == rescore(record, other)
    hand = services.move_record(
        hand=hand, move=last, expected_version=hand.version, actor=people.director
    ).hand
    kept = _sealed(hand)
    assert kept is not None and kept == _from_the_log(hand)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", game_names())
def test_a_first_what_if_in_a_process_reads_no_stream_when_the_folds_are_kept_with_the_hands(
    people: People, name: str, stream_reads: list[int]
) -> None:
    # Nothing kept in this process: the kept folds serve a score-only what-if and no stream is read;
    # without them (deleted), every stream is read; the answers are the same, and the record file's.
    from tests.scoring.hands.test_whatif_finals import score_only_values

    rng = random.Random(5)
    record = random_match(name, rng, 3, random_options(name, rng))
    match = services.match_import(club=people.club, record=record, actor=people.director)
    values = get_game(name).ruleset.validate(match.options)
    options = score_only_values(name, values, random.Random(5))
    reads = stream_reads
    record = selectors.match_export(match)
    expected = rescore(record, options)
    assert not match.hands.exclude(status=Hand.Status.OVER).exists()  # a record's hands are over
    _cold()
    assert selectors.match_rescore(match, options) == expected
    assert reads == []
    reads.clear()
    HandFinal.objects.filter(hand__match=match).delete()
    _cold()
    assert selectors.match_rescore(match, options) == expected
    assert reads == [match.hands.count()]
    _cold()


@pytest.mark.django_db
@pytest.mark.parametrize("name", game_names())
def test_a_kept_fold_that_does_not_match_is_never_read(
    people: People, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tampered with, sealed under another key, or by another engine: not unpickled, the hand folded from
    # the log instead, and the answer is the record file's all the same.
    match, hand = _played_to_the_end(people, name, 2)
    row = HandFinal.objects.get(hand=hand)
    blob, key = bytes(row.blob), selectors.hand_final_key()
    assert whatif.unseal(blob, hand.version, key) is not None
    tampered = bytearray(blob)
    tampered[-1] ^= 1
    assert whatif.unseal(bytes(tampered), hand.version, key) is None
    assert whatif.unseal(blob, hand.version, b"another service's key") is None
    assert whatif.unseal(blob, hand.version + 1, key) is None
    assert whatif.unseal(blob[:40], hand.version, key) is None
    assert whatif.unseal(None, hand.version, key) is None
    monkeypatch.setattr(whatif, "_FINGERPRINT", bytes(16))
    assert whatif.unseal(blob, hand.version, key) is None
    monkeypatch.undo()

    row.blob = bytes(tampered)
    row.save()
    record = selectors.match_export(match)
    other = random_options(name, random.Random(9))
    _cold()
    assert selectors.match_rescore(match, other) == rescore(record, other)


@pytest.mark.django_db
@pytest.mark.parametrize("name", game_names())
def test_the_command_keeps_the_folds_missing_or_stale(
    people: People, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An imported hand with a ruling has no kept fold: the command keeps its fold from the log; run again,
    # it writes nothing; once the engine's fingerprint changes, it writes every finished hand's again.
    match = stored_match(people, name, 4)
    finished = list(match.hands.filter(status=Hand.Status.OVER).order_by("number"))
    first = finished[0]
    assert first.number == 1 and _sealed(first) is None
    out = StringIO()
    call_command("keep_hand_folds", stdout=out)
    assert out.getvalue().strip() == "1 hand folds kept"
    for hand in finished:
        kept = _sealed(hand)
        assert kept is not None and kept == _from_the_log(hand)
    assert services.hand_folds_keep() == 0
    monkeypatch.setattr(whatif, "_FINGERPRINT", bytes(16))
    assert services.hand_folds_keep() == len(finished)
    assert all(_sealed(hand) is not None for hand in finished)


@pytest.mark.django_db
@pytest.mark.parametrize("name", game_names())
def test_without_the_services_key_nothing_is_sealed_and_nothing_is_lost(
    people: People, name: str, settings: Any
) -> None:
    # A command run by hand on the server without SECRET_KEY takes a local key of its own: a fold sealed
    # under it would never open in the service, and keep_hand_folds would have replaced every good one
    # with one. So an import keeps none (the what-if folds from the log, with the same answer), and the
    # command refuses, naming SECRET_KEY, with the folds kept before left as they were.
    kept_before = stored_match(people, name, 6)
    blobs = dict(HandFinal.objects.values_list("hand_id", "blob"))
    assert blobs
    settings.SECRET_KEY_IS_LOCAL = True
    rng = random.Random(7)
    record = random_match(name, rng, 2, random_options(name, rng))
    match = services.match_import(club=people.club, record=record, actor=people.director)

    assert not HandFinal.objects.filter(hand__match=match).exists()
    other = random_options(name, random.Random(8))
    _cold()
    assert selectors.match_rescore(match, other) == rescore(selectors.match_export(match), other)
    with pytest.raises(CommandError, match="SECRET_KEY is not set"):
        call_command("keep_hand_folds", stdout=StringIO())
    assert {k: bytes(v) for k, v in HandFinal.objects.values_list("hand_id", "blob")} == {
        k: bytes(v) for k, v in blobs.items()
    }
    settings.SECRET_KEY_IS_LOCAL = False
    assert all(_sealed(hand) is not None for hand in kept_before.hands.filter(final__isnull=False))
