"""The games' own words in the page's language: game names, phases, calls, choices, contracts,
declarations, the rules a verdict names, outcomes, options and their values, sheet columns.

The engine speaks in codes (``je_joue``, ``three_twos``, ``barbu.heart_lead``); these tables give each code
its name, marked for the catalogues. Each lookup falls back to a readable form of the code, so a code added
to the engine later still shows as words (and the catalogue test lists it as missing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

Words = Mapping[str, Promise]

GAMES: Words = {
    "barbu": pgettext_lazy("game", "Barbù"),
    "hombre_it": pgettext_lazy("game", "Hombre (Italian)"),
    "lhombre": pgettext_lazy("game", "L'Hombre (French)"),
    "tarocchi": pgettext_lazy("game", "Sicilian Tarocchi (3 players)"),
    "tressette": pgettext_lazy("game", "Tressette"),
}

PHASES: Words = {
    "deal": pgettext_lazy("phase", "deal"),
    "auction": pgettext_lazy("phase", "auction"),
    "trump": pgettext_lazy("phase", "choice of trumps"),
    "exchange": pgettext_lazy("phase", "exchange"),
    "talon": pgettext_lazy("phase", "talon"),
    "discard": pgettext_lazy("phase", "dealer's discard"),
    "contract": pgettext_lazy("phase", "choice of contract"),
    "opening": pgettext_lazy("phase", "opening rank"),
    "pass": pgettext_lazy("phase", "passing cards"),
    "domino": pgettext_lazy("phase", "domino"),
    "play": pgettext_lazy("phase", "play"),
    "over": pgettext_lazy("phase", "hand over"),
    "done": pgettext_lazy("phase", "hand over"),
    "passed": pgettext_lazy("phase", "all passed"),
    "espadille": pgettext_lazy("phase", "espadille"),
}

# Calls of the auctions, by game (the same code may be a different word in another game).
CALLS: Mapping[str, Words] = {
    "hombre_it": {
        "passo": pgettext_lazy("hombre call", "passo (pass)"),
        "gioco": pgettext_lazy("hombre call", "gioco (play with the talon)"),
        "solo": pgettext_lazy("hombre call", "solo (play without the talon)"),
        "volo": pgettext_lazy("hombre call", "volo (all nine tricks)"),
    },
    "lhombre": {
        "pass": pgettext_lazy("lhombre call", "passe (pass)"),
        "je_joue": pgettext_lazy("lhombre call", "je joue (I play)"),
        "sans_prendre": pgettext_lazy("lhombre call", "sans prendre (without taking)"),
        "vole": pgettext_lazy("lhombre call", "vole (all nine tricks)"),
    },
    "tarocchi": {
        "vado": pgettext_lazy("tarocchi call", "vado (I go)"),
        "offro": pgettext_lazy("tarocchi call", "offro (I offer)"),
        "piglio": pgettext_lazy("tarocchi call", "piglio (I take the offer)"),
        "tengo": pgettext_lazy("tarocchi call", "tengo (I keep my cards)"),
        "close": pgettext_lazy("tarocchi call", "the auction is closed"),
    },
    "barbu": {
        "pass": pgettext_lazy("barbu call", "passes (domino)"),
    },
    "tressette": {
        "fuori": pgettext_lazy("tressette call", "calls itself out (fuori)"),
    },
}

MOVE_KINDS: Words = {
    "deal": pgettext_lazy("move", "deal"),
    "play": pgettext_lazy("move", "card"),
    "call": pgettext_lazy("move", "call"),
    "choose": pgettext_lazy("move", "choice"),
    "exchange": pgettext_lazy("move", "exchange"),
    "pass_cards": pgettext_lazy("move", "passing cards"),
    "declare": pgettext_lazy("move", "declaration"),
    "claim": pgettext_lazy("move", "claim"),
    "claim_response": pgettext_lazy("move", "answer to a claim"),
}

CHOICES: Words = {
    "contract": pgettext_lazy("choice", "contract"),
    "trump": pgettext_lazy("choice", "trumps"),
    "opening_rank": pgettext_lazy("choice", "opening rank"),
    "talon": pgettext_lazy("choice", "talon"),
    "vole": pgettext_lazy("choice", "vole"),
    "espadille": pgettext_lazy("choice", "espadille"),
    "close": pgettext_lazy("choice", "closes the hand"),
}

CHOICE_VALUES: Mapping[str, Words] = {
    "talon": {
        "shown": pgettext_lazy("talon", "talon shown"),
        "hidden": pgettext_lazy("talon", "talon left hidden"),
    },
    "vole": {
        "go_on": pgettext_lazy("vole", "goes on for the vole"),
        "stop": pgettext_lazy("vole", "stops"),
        "announced": pgettext_lazy("vole", "announced"),
        "continuation": pgettext_lazy("vole", "going on for the vole"),
        "none": pgettext_lazy("vole", "not tried"),
    },
    "espadille": {
        "declare": pgettext_lazy("espadille", "declares the espadille"),
        "concealed": pgettext_lazy("espadille", "conceals the espadille"),
        "talon": pgettext_lazy("espadille", "the espadille is in the talon"),
    },
    "trump": {"none": pgettext_lazy("trump", "no trumps")},
}

CONTRACTS: Words = {
    "MP": pgettext_lazy("barbu contract", "Tricks count plus"),
    "MIS": pgettext_lazy("barbu contract", "Misère"),
    "NPR": pgettext_lazy("barbu contract", "No King of Hearts"),
    "NPD": pgettext_lazy("barbu contract", "No Queens"),
    "NPC": pgettext_lazy("barbu contract", "No Hearts"),
    "NPUD": pgettext_lazy("barbu contract", "Not the last two tricks"),
    "DOM": pgettext_lazy("barbu contract", "Domino"),
}

# The Hombres' contracts are their calls.
HOMBRE_CONTRACTS: Mapping[str, Words] = {
    "hombre_it": {
        "gioco": pgettext_lazy("hombre contract", "gioco"),
        "solo": pgettext_lazy("hombre contract", "solo"),
        "volo": pgettext_lazy("hombre contract", "volo"),
    },
    "lhombre": {
        "je_joue": pgettext_lazy("lhombre contract", "je joue"),
        "sans_prendre": pgettext_lazy("lhombre contract", "sans prendre"),
        "vole": pgettext_lazy("lhombre contract", "vole"),
        "forced": pgettext_lazy("lhombre contract", "espadille forcée"),
    },
}

COMBINATIONS: Words = {
    "three_aces": pgettext_lazy("declaration", "three aces"),
    "four_aces": pgettext_lazy("declaration", "four aces"),
    "three_twos": pgettext_lazy("declaration", "three twos"),
    "four_twos": pgettext_lazy("declaration", "four twos"),
    "three_threes": pgettext_lazy("declaration", "three threes"),
    "four_threes": pgettext_lazy("declaration", "four threes"),
    "napoletana": pgettext_lazy("declaration", "napoletana (ace, two and three of a suit)"),
    "matadors": pgettext_lazy("declaration", "matadors"),
}

# The rule each verdict names, as the director reads it in a list of irregularities.
RULES: Words = {
    "follow_suit": _("Did not follow suit"),
    "claim.disputed": _("Claim disputed"),
    "barbu.heart_lead": _("Led a heart before hearts were opened"),
    "barbu.must_trump": _("Did not trump while void in the suit led"),
    "barbu.overtrump": _("Did not overtrump"),
    "barbu.must_discard_kh": _("Did not discard the King of Hearts"),
    "barbu.domino_pass": _("Passed while able to play (domino)"),
    "tarocchi.follow_suit": _("Did not follow suit"),
    "tarocchi.must_trump": _("Did not trump while void in the suit led"),
    "tarocchi.must_overtrump": _("Did not beat the best card"),
    "tarocchi.king": _("Broke the King rule"),
    "tarocchi.cavallo": _("Broke the Cavallo rule"),
    "tarocchi.fanta": _("Broke the Fanta rule"),
    "tarocchi.fuggitivo_lead": _("Led the Fuggitivo"),
    "tarocchi.discard_forbidden": _("Discarded a card that may not be discarded"),
    "tarocchi.offer_high": _("Offer above the usual limit"),
    "tressette.window": _("Declared too late"),
    "tressette.already_declared": _("Declared twice"),
    "tressette.false_declaration": _("False declaration"),
    "hombre.follow_suit": _("Did not follow suit"),
    "hombre.matador": _("Held back a trump without a matador's privilege"),
    "hombre.call_low": _("Called no higher than the call to beat"),
    "hombre.exchange_limit": _("Exchanged more cards than allowed"),
    "lhombre.follow_suit": _("Did not follow suit"),
    "lhombre.matador": _("Held back a trump without a matador's privilege"),
    "lhombre.call_low": _("Called no higher than the call to beat"),
    "lhombre.exchange_limit": _("Exchanged more cards than allowed"),
}

OUTCOMES: Words = {
    # Italian Hombre
    "won": pgettext_lazy("outcome", "the hombre wins"),
    "lost": pgettext_lazy("outcome", "the hombre loses"),
    "passed": pgettext_lazy("outcome", "all passed: thrown in"),
    # Tarocchi
    "played": pgettext_lazy("outcome", "played"),
    "abandoned": pgettext_lazy("outcome", "abandoned"),
    # L'Hombre
    "all_pass": pgettext_lazy("outcome", "all passed"),
    "espadille_concealed": pgettext_lazy("outcome", "espadille concealed"),
    "win": pgettext_lazy("outcome", "the hombre wins"),
    "remise": pgettext_lazy("outcome", "remise"),
    "remise_par_trois": pgettext_lazy("outcome", "remise par trois"),
    "codille": pgettext_lazy("outcome", "codille"),
    "vole_won": pgettext_lazy("outcome", "vole made"),
    "vole_failed": pgettext_lazy("outcome", "vole failed"),
    "penalty_bete": pgettext_lazy("outcome", "bête as a penalty"),
}

ABANDON: Words = {
    "free": pgettext_lazy("abandon", "thrown in free"),
    "offer": pgettext_lazy("abandon", "ended on an offer"),
}

RECTIFICATIONS: Words = {
    "stands": pgettext_lazy("rectification", "the move stands"),
    "dismiss": pgettext_lazy("rectification", "dismiss the irregularity"),
    "replace_move": pgettext_lazy("rectification", "replace the move"),
    "transfer_tricks": pgettext_lazy("rectification", "transfer tricks"),
    "penalty": pgettext_lazy("rectification", "penalty"),
    "assign_score": pgettext_lazy("rectification", "assign the scores"),
    "settle_claim": pgettext_lazy("rectification", "settle the disputed claim"),
}

# Options: a short name for each, and the words for the values that are codes.
OPTIONS: Words = {
    "strict": _("strict"),
    # Barbù
    "contract_set": _("contracts"),
    "dealer_rotation": _("dealer rotation"),
    "mp_trump_obligation": _("trump obligation in Tricks count plus"),
    "misere_pass": _("pass in Misère"),
    "must_discard_kh": _("must discard the King of Hearts"),
    "early_end": _("early end"),
    "domino_opening_ranks": _("domino opening ranks"),
    "domino_sequence": _("domino rows"),
    "domino_stop": _("domino ends"),
    "doubling": _("doubling"),
    # Italian Hombre
    "n_matadors": _("matadors"),
    "plain_order": _("order of the plain suits"),
    "auction": _("auction"),
    "win_rule": _("how the hombre wins"),
    "stake": _("stake"),
    "solo_stake": _("solo stake"),
    "volo_stake": _("volo prize"),
    "volo_stake_mode": _("volo prize paid"),
    "redeal_dealer": _("dealer after a thrown-in hand"),
    "deals": _("deals"),
    # L'Hombre
    "espadille_force": _("espadille forcée"),
    "upgrade": _("upgrade to sans prendre"),
    "start_chips": _("starting jetons"),
    "odd_chips": _("odd jetons"),
    "poules": _("poules"),
    "extension": _("after the last poule"),
    # Tarocchi
    "abandon_rule": _("abandoning a deal"),
    "max_offer": _("highest offer"),
    "discard_forbidden": _("cards the dealer may not discard"),
    "must_trump_when_void": _("must trump when void"),
    "must_overtrump": _("must overtrump"),
    "fanta_rule_scope": _("Fanta rule"),
    "fuggitivo_overrides_obligations": _("Fuggitivo free of obligations"),
    "fuggitivo_unpaid": _("Fuggitivo unpaid"),
    "fuggitivo_last_trick": _("Fuggitivo on the last trick"),
    "abandoned_deals_count": _("abandoned deals count"),
    "stake_per_point": _("stake per point"),
    # Tressette
    "removed_four": _("the four taken out (3 players)"),
    "rounding": _("rounding"),
    "team_rounding": _("rounding for partners"),
    "declaration_window": _("when to declare"),
    "match_format": _("match"),
    "target": _("points to win"),
    "deals_to_win": _("deals to win"),
    "chiamarsi_fuori": _("calling oneself out"),
}

OPTION_VALUES: Words = {
    "seed": pgettext_lazy("option value", "as in the rules given"),
    "every_hand": pgettext_lazy("option value", "after every hand"),
    "seven_in_a_row": pgettext_lazy("option value", "after a dealer's seven hands"),
    "none": pgettext_lazy("option value", "none"),
    "must_trump": pgettext_lazy("option value", "a void player must trump"),
    "overtrump_on_trump_lead": pgettext_lazy("option value", "overtrump on a trump lead"),
    "left_simultaneous": pgettext_lazy("option value", "three cards to the left, all at once"),
    "allowed": pgettext_lazy("option value", "the table may close the hand"),
    "never": pgettext_lazy("option value", "play goes on"),
    "automatic": pgettext_lazy("option value", "the hand ends by itself"),
    "any": pgettext_lazy("option value", "any rank"),
    "pips_only": pgettext_lazy("option value", "2 to 10 only"),
    "linear": pgettext_lazy("option value", "2 to ace"),
    "circular": pgettext_lazy("option value", "round the corner"),
    "all_cards": pgettext_lazy("option value", "until every card is down"),
    "three_out": pgettext_lazy("option value", "once three players are out"),
    "ombre": pgettext_lazy("option value", "ombre order (red pips reversed)"),
    "natural": pgettext_lazy("option value", "natural order"),
    "single_round": pgettext_lazy("option value", "one call each"),
    "open": pgettext_lazy("option value", "rounds until all but one pass"),
    "five_tricks": pgettext_lazy("option value", "five tricks"),
    "majority": pgettext_lazy("option value", "more tricks than each defender"),
    "replace": pgettext_lazy("option value", "instead of the stake"),
    "add": pgettext_lazy("option value", "on top of the stake"),
    "same": pgettext_lazy("option value", "the same dealer"),
    "next": pgettext_lazy("option value", "the next dealer"),
    "exact": pgettext_lazy("option value", "exact (halves kept)"),
    "integer": pgettext_lazy("option value", "whole jetons"),
    "nine_more_deals": pgettext_lazy("option value", "nine more deals"),
    "until_bete_made": pgettext_lazy("option value", "until a bête is made"),
    "until_bete_drawn": pgettext_lazy("option value", "until a bête is drawn"),
    "unanimous": pgettext_lazy("option value", "unanimous"),
    "silence_consents": pgettext_lazy("option value", "silence consents"),
    "offers_only": pgettext_lazy("option value", "offers only"),
    "same_trick": pgettext_lazy("option value", "in the same trick"),
    "rest_of_deal": pgettext_lazy("option value", "for the rest of the deal"),
    "keep": pgettext_lazy("option value", "kept"),
    "surrender": pgettext_lazy("option value", "given up"),
    "lost": pgettext_lazy("option value", "lost"),
    "traditional": pgettext_lazy("option value", "traditional"),
    "sum_then_round": pgettext_lazy("option value", "added, then rounded"),
    "per_player": pgettext_lazy("option value", "each rounded, then added"),
    "end_of_first_trick": pgettext_lazy("option value", "at the end of the first trick"),
    "first_three_tricks": pgettext_lazy("option value", "during the first three tricks"),
    "points": pgettext_lazy("option value", "to a number of points"),
    "deals_won": pgettext_lazy("option value", "to a number of deals won"),
}

# Columns of the games' score sheets, by the key the game puts in its rows.
COLUMNS: Words = {
    "hand": pgettext_lazy("column", "hand"),
    "deal": pgettext_lazy("column", "deal"),
    "dealer": pgettext_lazy("column", "dealer"),
    "hombre": pgettext_lazy("column", "hombre"),
    "contract": pgettext_lazy("column", "contract"),
    "contract_name": pgettext_lazy("column", "contract"),
    "trump": pgettext_lazy("column", "trumps"),
    "tricks": pgettext_lazy("column", "tricks"),
    "outcome": pgettext_lazy("column", "outcome"),
    "scores": pgettext_lazy("column", "scores"),
    "totals": pgettext_lazy("column", "totals"),
    "counted": pgettext_lazy("column", "counted"),
    "abandon": pgettext_lazy("column", "abandoned"),
    "offer": pgettext_lazy("column", "offer"),
    "card_points": pgettext_lazy("column", "card points"),
    "last_trick": pgettext_lazy("column", "last trick"),
    "points": pgettext_lazy("column", "points"),
    "offsets": pgettext_lazy("column", "less"),
    "declaration_points": pgettext_lazy("column", "declarations"),
    "deal_scores": pgettext_lazy("column", "deal"),
    "deal_winner": pgettext_lazy("column", "deal won by"),
    "deals_won": pgettext_lazy("column", "deals won"),
    "note": pgettext_lazy("column", "note"),
    "adjustment": pgettext_lazy("column", "director's adjustment"),
    "codille": pgettext_lazy("column", "codille"),
    "poule": pgettext_lazy("column", "poule"),
    "deltas": pgettext_lazy("column", "jetons won"),
    "chips": pgettext_lazy("column", "jetons"),
    "pot": pgettext_lazy("column", "pot"),
    "bete_in_play": pgettext_lazy("column", "bête in play"),
    "waiting_betes": pgettext_lazy("column", "bêtes waiting"),
    "collected": pgettext_lazy("column", "collected"),
    "made": pgettext_lazy("column", "bête made"),
    "pot_to": pgettext_lazy("column", "pot to"),
    "doubling": pgettext_lazy("column", "doubling"),
    "sans_prendre": pgettext_lazy("column", "sans prendre"),
    "matadors": pgettext_lazy("column", "matadors"),
    "stake": pgettext_lazy("column", "stake"),
    "drawn": pgettext_lazy("column", "drawn"),
    "vole": pgettext_lazy("column", "vole"),
    "ruled": pgettext_lazy("column", "rulings"),
    "opening_rank": pgettext_lazy("column", "opening rank"),
    "irregularities": pgettext_lazy("column", "irregularities"),
}


def _readable(code: Any) -> str:
    return str(code).replace("_", " ")


def word(table: Mapping[str, Any], code: Any) -> str:
    """The code's name from ``table`` in the current language, or the code made readable."""
    found = table.get(str(code)) if code is not None else None
    return str(found) if found is not None else _readable(code)


def game(name: str) -> str:
    return word(GAMES, name)


def call(game_name: str, code: Any) -> str:
    return word(CALLS.get(game_name, {}), code)


def contract(game_name: str, code: Any) -> str:
    if game_name == "barbu":
        return word(CONTRACTS, code)
    return word(HOMBRE_CONTRACTS.get(game_name, {}), code)


def rule(code: str) -> str:
    """The rule a verdict names; ``hombre.follow_suit`` and the like fall back on their last part."""
    if code in RULES:
        return str(RULES[code])
    tail = code.rsplit(".", 1)[-1]
    return str(RULES[tail]) if tail in RULES else _readable(tail)


def option_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if value is None:
        return str(pgettext_lazy("option value", "none"))
    if isinstance(value, str) and value in OPTION_VALUES:
        return str(OPTION_VALUES[value])
    if isinstance(value, list | tuple):
        return ", ".join(option_value(v) for v in value) or str(pgettext_lazy("option value", "none"))
    return str(value)


def option_help(option: Any, options: Sequence[Any]) -> str:
    """An option's help (its ``doc``) for people, in the current language. The engine's texts name a
    choice by its code, ``same_trick: the Fanta is due ...``, and another option's choice as
    ``match_format points``: these become the choice's words in quotes (and the option's name)."""
    text = gettext(option.doc)
    opening, closing = ("« ", " »") if (get_language() or "").startswith("fr") else ("“", "”")

    def quoted(choice: Any) -> str:
        return f"{opening}{option_value(choice)}{closing}"

    for other in options:
        for choice in other.choices or ():
            if isinstance(choice, str):
                named = f"{word(OPTIONS, other.name)} {quoted(choice)}"
                pattern = rf"\b{re.escape(other.name)} {re.escape(choice)}\b"
                text = re.sub(pattern, named.replace("\\", "\\\\"), text)
    for choice in option.choices or ():
        if isinstance(choice, str):
            said = quoted(choice).replace("\\", "\\\\")  # a replacement, not a pattern
            text = re.sub(rf"\b{re.escape(choice)}\b(?=\s*:)", said, text)
    return text
