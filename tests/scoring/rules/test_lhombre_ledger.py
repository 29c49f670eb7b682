"""The L'Hombre chip ledger: worked evenings computed by hand, and invariants over random evenings.

Every worked example starts from ``start_chips = 0`` so that the chips read as net results: the opening
stake of 3 each leaves every player at -3 with 9 in the pot. Seats are in the order of play: the hombre's
D1 is ``hombre + 1``, D2 ``hombre + 2``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import lhombre_ledger as L
from scoring.rules.lhombre_ledger import Bete, Outcome

from .playout import examples


def fold(*outcomes: Outcome, odd_chips: str = "exact") -> list[L.Settlement]:
    ledger = L.opening(0)
    out = []
    for o in outcomes:
        s = L.settle(ledger, o, odd_chips=odd_chips)
        out.append(s)
        ledger = s.after
    return out


def remise(hombre: int, *, par_trois: bool = False) -> Outcome:
    """4-4-1 (the hombre tied with D1), or 3-3-3."""
    tricks = [3, 3, 3] if par_trois else [0, 0, 0]
    if not par_trois:
        tricks[hombre], tricks[(hombre + 1) % 3], tricks[(hombre + 2) % 3] = 4, 4, 1
    kind = L.REMISE_PAR_TROIS if par_trois else L.REMISE
    return Outcome(kind=kind, hombre=hombre, tricks=tuple(tricks))


def win(hombre: int, **kw: object) -> Outcome:
    tricks = tuple(5 if s == hombre else 2 for s in range(3))
    return Outcome(kind=L.WIN, hombre=hombre, tricks=tricks, **kw)  # type: ignore[arg-type]


# ---- worked examples --------------------------------------------------------------------------------


def test_the_opening_stakes_are_three_each() -> None:
    ledger = L.opening(400)
    assert ledger.chips == (397, 397, 397)
    assert ledger.pot == 9 and ledger.poule == 9
    assert ledger.live is None and ledger.queue == ()


def test_a_remise_then_a_win() -> None:
    first, second = fold(remise(0), win(1))
    # Hand 1: seat 0 ties 4-4-1 for a poule of 9: he makes a bête of 9, the pot stays, each adds 2.
    assert first.outcome.kind == "remise" and first.poule == 9
    assert first.after.live == Bete(9, 0, 1)
    assert first.after.chips == (-5, -5, -5) and first.after.pot == 15
    assert first.deltas == (-2, -2, -2)
    # Hand 2: seat 1 wins the poule 15 + 9 = 24. Seat 0 pays his bête into the pot (-5 - 9 = -14), seat 1
    # takes 24 (-5 + 24 = 19); no bête waits, so everyone stakes 3: (-17, 16, -8), pot 9.
    assert second.poule == 24
    assert second.collected == (Bete(9, 0, 1),)
    assert second.pot_to == ((1, 24),)
    assert second.after.chips == (-17, 16, -8) and second.after.pot == 9
    assert second.after.live is None and second.after.drawn == 1
    assert second.deltas == (-12, 21, -3)


def test_a_codille_with_a_bete_in_play() -> None:
    codille = Outcome(kind=L.CODILLE, hombre=2, tricks=(4, 2, 3), codille=0)
    first, second = fold(remise(0), codille)
    # Poule 15 + 9 = 24. Seat 0 pays his own bête of 9 (-14) and takes the 24 by codille (10). The hombre,
    # seat 2, makes a bête of 24, which goes into play; after a codille the stake is 3 all the same:
    # (10 - 3, -5 - 3, -5 - 3) = (7, -8, -8), pot 9, next poule 9 + 24 = 33.
    assert second.made == Bete(24, 2, 2)
    assert second.after.live == Bete(24, 2, 2) and second.after.queue == ()
    assert second.after.chips == (7, -8, -8) and second.after.pot == 9
    assert second.after.poule == 33
    assert second.after.drawn == 0  # a codille is no poule drawn by an hombre
    assert second.stake == 3


def test_a_codille_puts_the_largest_waiting_bete_in_play() -> None:
    # Remise by 0 (bête 9 in play), remise par trois by 1 (poule 15 + 9 = 24, bête 24 waits), then
    # seat 2 loses codille to seat 0 for 21 + 9 = 30: the 9 is drawn, the new 30 waits with the 24 and the
    # largest (30) goes into play.
    codille = Outcome(kind=L.CODILLE, hombre=2, tricks=(5, 2, 2), codille=0)
    s = fold(remise(0), remise(1, par_trois=True), codille)
    assert s[1].made == Bete(24, 1, 2) and s[1].after.queue == (Bete(24, 1, 2),)
    assert s[2].poule == 30
    assert s[2].after.live == Bete(30, 2, 3)
    assert s[2].after.queue == (Bete(24, 1, 2),)


def test_after_a_win_the_largest_waiting_bete_goes_next_and_the_stake_is_two() -> None:
    # Bête 9 (seat 0) in play; remise by 1 for 15 + 9 = 24 and remise by 2 for 21 + 9 = 30 both wait.
    # Seat 0 wins 27 + 9 = 36: the 9 is drawn and the largest waiting bête, 30, goes into play.
    s = fold(remise(0), remise(1), remise(2), win(0))
    assert [b.value for b in s[2].after.queue] == [24, 30]
    assert s[3].poule == 36
    assert s[3].after.live == Bete(30, 2, 3)
    assert s[3].after.queue == (Bete(24, 1, 2),)
    assert s[3].stake == 2
    # chips before hand 4: -3 - 2 - 2 - 2 = -9 each, pot 27. Seat 0 pays 9, takes 36: -9 - 9 + 36 = 18,
    # then everyone stakes 2: (16, -11, -11), pot 6.
    assert s[3].after.chips == (16, -11, -11) and s[3].after.pot == 6


def test_equal_waiting_betes_go_in_play_oldest_first() -> None:
    ledger = L.Ledger(chips=(0, 0, 0), pot=6, live=Bete(9, 0, 1), queue=(Bete(12, 1, 2), Bete(12, 2, 3)))
    s = L.settle(ledger, win(0))
    assert s.after.live == Bete(12, 1, 2)
    assert s.after.queue == (Bete(12, 2, 3),)


def test_two_betes_waiting_then_a_vole() -> None:
    vole = Outcome(kind=L.VOLE_WON, hombre=0, tricks=(9, 0, 0), matadors=3, sans_prendre=True)
    s = fold(remise(0), remise(1), remise(2, par_trois=True), vole)
    before = s[3].before
    assert before.live == Bete(9, 0, 1)
    assert before.queue == (Bete(24, 1, 2), Bete(30, 2, 3))
    assert before.chips == (-9, -9, -9) and before.pot == 27
    # Three bêtes: the vole sweeps them all, no doubling. Pot 27 + 9 + 24 + 30 = 90 to seat 0:
    # (-9 - 9 + 90, -9 - 24, -9 - 30) = (72, -33, -39). Sans prendre 6 and matadors 2 x 3 = 6 from each
    # defender: (96, -45, -51). Stake 3: (93, -48, -54), pot 9.
    assert set(s[3].collected) == {Bete(9, 0, 1), Bete(24, 1, 2), Bete(30, 2, 3)}
    assert s[3].pot_to == ((0, 90),)
    assert s[3].doubling == ()
    assert (s[3].sans_prendre, s[3].matadors) == (6, 6)
    assert s[3].after.chips == (93, -48, -54) and s[3].after.pot == 9
    assert s[3].after.live is None and s[3].after.queue == ()
    assert s[3].deltas == (102, -39, -45)


def test_the_seeds_vole_stakes_15_and_a_bete_of_9_pay_48() -> None:
    # The seed: 15 on the table and a bête of 9 in play make a poule of 24; the vole brings the hombre
    # 48, each defender paying him 12 more. Remise by seat 0 makes exactly that table.
    vole = Outcome(kind=L.VOLE_WON, hombre=1, tricks=(0, 9, 0))
    first, second = fold(remise(0), vole)
    assert first.after.pot == 15 and first.after.live == Bete(9, 0, 1)
    assert second.poule == 24
    assert second.pot_to == ((1, 24),)
    assert second.doubling == ((2, 12), (0, 12))  # D1 is seat 2, D2 seat 0
    received = sum(amount for _, amount in second.pot_to) + sum(amount for _, amount in second.doubling)
    assert received == 48
    # chips: seat 0 -5 - 9 - 12 = -26, seat 1 -5 + 48 = 43, seat 2 -5 - 12 = -17; stake 3 each.
    assert second.after.chips == (-29, 40, -20) and second.after.pot == 9


def test_a_vole_with_no_bete_doubles_the_poule_in_halves() -> None:
    vole = Outcome(kind=L.VOLE_WON, hombre=0, tricks=(9, 0, 0))
    (exact,) = fold(vole)
    # Poule 9: seat 0 takes 9 and 9/2 from each defender.
    assert exact.doubling == ((1, Fraction(9, 2)), (2, Fraction(9, 2)))
    # seat 0: -3 + 9 + 9/2 + 9/2 - 3 = 12; each defender -3 - 9/2 - 3 = -21/2.
    assert exact.after.chips == (12, Fraction(-21, 2), Fraction(-21, 2))
    (integer,) = fold(vole, odd_chips="integer")
    # Integer: D1 pays the odd jeton, 5; D2 pays 4. Seat 0: -3 + 9 + 9 - 3 = 12.
    assert integer.doubling == ((1, 5), (2, 4))
    assert integer.after.chips == (12, -11, -10)


def test_a_failed_vole_is_shared_and_the_bonuses_follow_most_tricks() -> None:
    # Vole announced by seat 0 (sans prendre), 8-0-1: failed, but he has the most tricks, so the defenders
    # still pay him the sans prendre. The pot of 9 goes half to each defender.
    failed = Outcome(kind=L.VOLE_FAILED, hombre=0, tricks=(8, 0, 1), sans_prendre=True)
    (exact,) = fold(failed)
    assert exact.pot_to == ((1, Fraction(9, 2)), (2, Fraction(9, 2)))
    assert exact.sans_prendre == 6
    # seat 0: -3 + 12 - 3 = 6; defenders: -3 + 9/2 - 6 - 3 = -15/2.
    assert exact.after.chips == (6, Fraction(-15, 2), Fraction(-15, 2))
    assert exact.made is None and exact.after.drawn == 0
    (integer,) = fold(failed, odd_chips="integer")
    # Integer: 4 each and the odd jeton to the defender with more tricks, seat 2 (D2), not D1.
    assert integer.pot_to == ((2, 5), (1, 4))
    assert integer.after.chips == (6, -8, -7)
    tied = Outcome(kind=L.VOLE_FAILED, hombre=0, tricks=(7, 1, 1))
    (integer,) = fold(tied, odd_chips="integer")
    assert integer.pot_to == ((1, 5), (2, 4))  # tied: D1 takes the odd jeton


def test_a_failed_vole_with_fewer_tricks_pays_the_bonuses_and_sweeps_the_betes() -> None:
    failed = Outcome(kind=L.VOLE_FAILED, hombre=1, tricks=(4, 3, 2), sans_prendre=True, matadors=4)
    assert not failed.most
    first, second = fold(remise(0), failed)
    # Pot 15 + bête 9 = 24 shared by seats 2 and 0 (12 each); the hombre pays 6 + 8 to each.
    assert second.collected == (Bete(9, 0, 1),)
    assert second.pot_to == ((2, 12), (0, 12))
    assert (second.sans_prendre, second.matadors) == (-6, -8)
    # seat 0: -5 - 9 + 12 + 14 - 3 = 9; seat 1: -5 - 28 - 3 = -36; seat 2: -5 + 12 + 14 - 3 = 18.
    assert second.after.chips == (9, -36, 18) and second.after.pot == 9
    assert second.after.live is None and second.made is None


def test_a_sans_prendre_failure_with_matadors() -> None:
    # Seat 1 plays sans prendre holding the four top hearts (run 4) and loses codille to seat 2 (D1).
    codille = Outcome(kind=L.CODILLE, hombre=1, tricks=(2, 3, 4), codille=2, matadors=4, sans_prendre=True)
    (s,) = fold(codille)
    # Seat 2 takes the 9; seat 1 pays each defender 6 (sans prendre) and 2 x 4 = 8 (matadors):
    # (-3 + 14, -3 - 28, -3 + 9 + 14) = (11, -31, 20); stake 3: (8, -34, 17), pot 9.
    assert (s.sans_prendre, s.matadors) == (-6, -8)
    assert s.after.chips == (8, -34, 17) and s.after.pot == 9
    # The bête is the poule alone: bonuses never enter it.
    assert s.made == Bete(9, 1, 1) and s.after.live == Bete(9, 1, 1)


def test_matadors_count_from_three() -> None:
    assert [L.matador_bonus(x) for x in range(0, 13)] == [0, 0, 0, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]


def test_a_win_with_matadors_is_paid_by_each_defender() -> None:
    (s,) = fold(win(2, matadors=5))
    # seat 2 takes 9 and 10 from each: (-13, -13, 26); stake 3: (-16, -16, 23).
    assert s.after.chips == (-16, -16, 23)


def test_an_all_pass_adds_two_each() -> None:
    first, second = fold(Outcome(kind=L.ALL_PASS), win(0))
    assert first.after.chips == (-5, -5, -5) and first.after.pot == 15
    assert first.after.live is None and first.made is None
    assert second.poule == 15
    assert second.after.chips == (7, -8, -8) and second.after.pot == 9


def test_the_concealed_espadille_makes_a_bete_without_play() -> None:
    first, second = fold(Outcome(kind=L.CONCEALED, maker=2), win(0))
    # Seat 2 concealed the espadille: a bête of the poule (9) made by him, then +2 each.
    assert first.made == Bete(9, 2, 1)
    assert first.after.chips == (-5, -5, -5) and first.after.pot == 15
    # Seat 0 wins 15 + 9: seat 2 pays the 9: (-5 + 24, -5, -5 - 9) = (19, -5, -14); stake 3.
    assert second.after.chips == (16, -8, -17)


def test_a_remise_while_a_bete_is_in_play_queues_the_new_one() -> None:
    first, second = fold(remise(0), remise(1))
    assert second.poule == 24
    assert second.after.live == Bete(9, 0, 1)
    assert second.after.queue == (Bete(24, 1, 2),)
    assert second.after.pot == 21 and second.after.poule == 30


def test_a_penalty_bete_is_made_like_a_remise() -> None:
    (s,) = fold(Outcome(kind=L.PENALTY, maker=1))
    assert s.made == Bete(9, 1, 1) and s.after.pot == 15


def test_the_final_settlement_returns_the_pot_and_lets_betes_lapse() -> None:
    (s,) = fold(remise(0))
    final = L.final_settlement(s.after)
    assert final.chips == (0, 0, 0) and final.pot == 0
    assert final.live is None and final.queue == ()


@pytest.mark.parametrize(
    ("tricks", "kind", "codille"),
    [
        ((5, 4, 0), "win", None),
        ((9, 0, 0), "win", None),
        ((4, 3, 2), "win", None),
        ((4, 2, 3), "win", None),
        ((4, 4, 1), "remise", None),
        ((4, 1, 4), "remise", None),
        ((1, 4, 4), "remise", None),
        ((3, 3, 3), "remise_par_trois", None),
        ((4, 5, 0), "codille", 1),
        ((4, 0, 5), "codille", 2),
        ((3, 4, 2), "codille", 1),
        ((3, 1, 5), "codille", 2),
        ((3, 6, 0), "codille", 1),
        ((2, 4, 3), "codille", 1),
        ((2, 0, 7), "codille", 2),
        ((1, 5, 3), "codille", 1),
        ((1, 0, 8), "codille", 2),
        ((0, 5, 4), "codille", 1),
        ((0, 0, 9), "codille", 2),
    ],
)
def test_the_outcome_table(tricks: tuple[int, int, int], kind: str, codille: int | None) -> None:
    assert L.classify(0, tricks, vole=False) == (kind, codille)


def test_every_split_of_nine_tricks_follows_the_rules_files_table() -> None:
    seen: Counter[str] = Counter()
    for h in range(10):
        for a in range(10 - h):
            b = 9 - h - a
            kind, codille = L.classify(0, (h, a, b), vole=False)
            seen[kind] += 1
            if h >= 5 or (h == 4 and {a, b} == {3, 2}):
                assert kind == "win"
            elif h == 4 and {a, b} == {4, 1} or h == 1 and a == b == 4:
                assert kind == "remise"
            elif h == a == b == 3:
                assert kind == "remise_par_trois"
            else:
                assert kind == "codille" and codille == (1 if a > b else 2)
            assert L.classify(0, (h, a, b), vole=True)[0] == ("vole_won" if h == 9 else "vole_failed")
    assert sum(seen.values()) == 55


# ---- the end of the evening -------------------------------------------------------------------------


def test_the_evening_ends_after_the_agreed_poules_drawn_by_an_hombre() -> None:
    codille = Outcome(kind=L.CODILLE, hombre=0, tricks=(2, 5, 2), codille=1)
    ev = L.evening([win(0), codille, win(1), win(2)], start_chips=0, poules=2)
    assert ev.finished and ev.reached_at == 3 and ev.ended_at == 3
    assert ev.ignored == 1
    assert len(ev.settlements) == 3
    assert ev.final is not None and ev.final.pot == 0
    assert sum(ev.final.chips) == 0


def test_an_unfinished_evening_keeps_the_pot() -> None:
    ev = L.evening([win(0)], start_chips=0, poules=2)
    assert not ev.finished and ev.final is None
    assert ev.ledger.pot == 9


def test_the_nine_more_deals_extension() -> None:
    hands = [win(0)] + [Outcome(kind=L.ALL_PASS)] * 12
    ev = L.evening(hands, start_chips=0, poules=1, extension="nine_more_deals")
    assert ev.reached_at == 1 and ev.ended_at == 10 and ev.ignored == 3


def test_the_until_bete_made_extension() -> None:
    hands = [win(0), win(1), remise(2), win(0)]
    ev = L.evening(hands, start_chips=0, poules=1, extension="until_bete_made")
    assert ev.ended_at == 3
    # The bête made in the last hand lapses at the final settlement: its maker never pays it.
    assert ev.final is not None and ev.final.live is None
    assert ev.final.chips == tuple(
        c + ev.settlements[-1].after.pot // 3 for c in ev.settlements[-1].after.chips
    )


def test_the_until_bete_drawn_extension() -> None:
    hands = [win(0), remise(2), Outcome(kind=L.ALL_PASS), win(1), win(0)]
    ev = L.evening(hands, start_chips=0, poules=1, extension="until_bete_drawn")
    assert ev.ended_at == 4


def test_a_ruling_adjustment_moves_chips_directly() -> None:
    ev = L.evening([win(0)], start_chips=0, poules=5, adjustments=[(-4, 2, 2)])
    # seat 0 takes the 9 (6, -3, -3), everyone stakes 3 (3, -6, -6), then the ruling (-4, +2, +2).
    assert ev.ledger.chips == (-1, -4, -4)


def test_the_ledger_survives_its_dict_form() -> None:
    s = fold(remise(0), remise(1), Outcome(kind=L.VOLE_WON, hombre=2, tricks=(0, 0, 9)))
    for ledger in [x.after for x in s] + [s[1].after]:
        assert L.Ledger.from_dict(ledger.as_dict()) == ledger


# ---- random evenings ---------------------------------------------------------------------------------


@st.composite
def outcomes(draw: st.DrawFn) -> Outcome:
    kind = draw(st.sampled_from(L.KINDS))
    if kind == L.ALL_PASS:
        return Outcome(kind=kind)
    if kind in (L.CONCEALED, L.PENALTY):
        return Outcome(kind=kind, maker=draw(st.integers(0, 2)))
    hombre = draw(st.integers(0, 2))
    h = draw(st.integers(0, 9))
    a = draw(st.integers(0, 9 - h))
    tricks = [0, 0, 0]
    tricks[hombre], tricks[(hombre + 1) % 3], tricks[(hombre + 2) % 3] = h, a, 9 - h - a
    vole = kind in (L.VOLE_WON, L.VOLE_FAILED)
    if kind == L.VOLE_WON:
        tricks = [9 if s == hombre else 0 for s in range(3)]
    real, codille = L.classify(hombre, tricks, vole=vole)
    return Outcome(
        kind=real,
        hombre=hombre,
        tricks=tuple(tricks),
        codille=codille,
        matadors=draw(st.integers(0, 12)),
        sans_prendre=draw(st.booleans()),
    )


@settings(max_examples=examples(500))
@given(hands=st.lists(outcomes(), min_size=1, max_size=40), start=st.sampled_from([0, 400]))
def test_random_evenings_conserve_chips_and_never_count_a_bete_twice(
    hands: list[Outcome], start: int
) -> None:
    for odd in L.ODD_CHIPS:
        ledger = L.opening(start)
        total = 3 * start
        outstanding: set[Bete] = set()
        collected: set[Bete] = set()
        for o in hands:
            s = L.settle(ledger, o, odd_chips=odd)
            after = s.after
            # Chips plus pot never change; the pot is staked equally; no bête waits without one in play.
            assert sum(after.chips) + after.pot == total
            assert after.pot % 3 == 0
            assert after.live is not None or not after.queue
            assert sum(s.deltas) == ledger.pot - after.pot
            # Every bête is paid once at most, only while outstanding, and is worth the poule it was made on.
            for b in s.collected:
                assert b in outstanding and b not in collected
                collected.add(b)
                outstanding.discard(b)
            if s.made is not None:
                assert s.made.value == s.poule and s.made not in outstanding
                outstanding.add(s.made)
            assert set(after.betes) == outstanding
            assert len(after.betes) == len(set(after.betes))
            # Poules drawn by an hombre grow only with a win or a won vole.
            assert after.drawn - ledger.drawn == (1 if o.kind in (L.WIN, L.VOLE_WON) else 0)
            # Bonuses: equal amounts between the hombre and each defender.
            if o.kind in L.PLAYED:
                expected = (6 if o.sans_prendre else 0) + L.matador_bonus(o.matadors)
                assert abs(s.sans_prendre) + abs(s.matadors) == expected
            # Exact halves at most; integer mode keeps whole jetons.
            for c in after.chips:
                assert Fraction(c).denominator in ((1, 2) if odd == "exact" else (1,))
            ledger = after
        final = L.final_settlement(ledger)
        assert sum(final.chips) == total and final.pot == 0


@settings(max_examples=examples(400))
@given(hands=st.lists(outcomes(), min_size=1, max_size=25))
def test_integer_and_exact_modes_differ_by_half_a_jeton_at_most_per_hand(hands: list[Outcome]) -> None:
    ledger = L.opening(0)
    for o in hands:
        exact = L.settle(ledger, o, odd_chips="exact")
        integer = L.settle(ledger, o, odd_chips="integer")
        assert all(
            abs(Fraction(a) - Fraction(b)) <= Fraction(1, 2)
            for a, b in zip(exact.deltas, integer.deltas, strict=True)
        )
        assert integer.after.pot == exact.after.pot
        assert integer.after.betes == exact.after.betes
        ledger = exact.after


@settings(max_examples=examples(300))
@given(
    hands=st.lists(outcomes(), min_size=1, max_size=60),
    poules=st.integers(1, 6),
    extension=st.sampled_from(L.EXTENSIONS),
)
def test_an_evening_ends_only_as_agreed(hands: list[Outcome], poules: int, extension: str) -> None:
    ev = L.evening(hands, start_chips=0, poules=poules, extension=extension)
    drawn = [s.after.drawn for s in ev.settlements]
    if ev.finished:
        assert ev.ended_at == len(ev.settlements) and ev.ignored == len(hands) - len(ev.settlements)
        assert ev.reached_at is not None and drawn[ev.reached_at - 1] >= poules
        assert ev.reached_at == 1 or drawn[ev.reached_at - 2] < poules
        assert ev.final is not None and sum(ev.final.chips) == 0 and ev.final.pot == 0
        if extension == "none":
            assert ev.ended_at == ev.reached_at
    else:
        assert ev.ignored == 0 and len(ev.settlements) == len(hands)
        assert ev.final is None
