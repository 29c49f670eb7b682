"""Forms of the scoring pages. They turn what was typed or tapped into the dicts the services take;
the services and the engine judge the move itself."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from common import safejson
from scoring import words
from scoring.hands.fold import RECTIFICATIONS
from scoring.models import Match
from scoring.rules import Game, RulesError, game_names
from scoring.rules.cards import read_card
from scoring.rules.options import Option
from scoring.voice import Voice, error_text, page_language

_SPLIT = re.compile(r"[\s,;]+")


def card_codes(text: str) -> list[str]:
    """Card codes typed at a table: separated by spaces or commas, any case; ``10H`` is keyed ``TH``."""
    return [_code(c) for c in _SPLIT.split(text.strip()) if c]


def _code(raw: str) -> str:
    code = raw.upper()
    return "T" + code[2:] if code.startswith("10") and len(code) == 3 else code


class VersionedForm(forms.Form):
    """Every write carries the hand version the page showed and a key that makes a double tap harmless."""

    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=100, widget=forms.HiddenInput, required=False)

    @staticmethod
    def fresh(version: int) -> dict[str, Any]:
        return {"expected_version": version, "idempotency_key": uuid.uuid4().hex}


class MoveForm(VersionedForm):
    """One move: a tapped button (its dict form as JSON), or a card keyed by hand for a seat (its code,
    or its name or abbreviation in the card names' language or the page's: ``RC``, ``R♥``, ``10H``, ``3 di
    spade``), or a move typed in its JSON form (claims, declarations, anything the buttons do not offer)."""

    move = forms.CharField(required=False, widget=forms.HiddenInput)
    card = forms.CharField(required=False, max_length=40, label=_("Card"))
    seat = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Seat"))
    move_json = forms.CharField(required=False, label=_("Move (JSON)"), widget=forms.TextInput)

    def __init__(
        self, *args: Any, seats: Sequence[str] = (), voice: Voice | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(str(i), name) for i, name in enumerate(seats)]  # type: ignore[attr-defined]
        self.voice = voice

    def _card(self, text: str) -> str | None:
        """The card keyed, read in the card names' language and the page's; refused beside the field."""
        if self.voice is None or self.voice.deck is None:
            return _code(text)
        languages = dict.fromkeys((self.voice.lang, page_language()))
        try:
            return read_card(text, languages, self.voice.deck)
        except RulesError as exc:
            self.add_error("card", error_text(exc, self.voice))
            return None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        raw = data.get("move") or data.get("move_json")
        if raw:
            try:
                move = safejson.loads(raw)
            except ValueError as exc:
                raise forms.ValidationError(
                    _t("The move is not valid JSON: {error}").format(error=exc)
                ) from None
            if not isinstance(move, dict):
                raise forms.ValidationError(
                    _t("A move is an object, for example {example}").format(
                        example='{"type": "play", "seat": 0, "card": "3S"}'
                    )
                )
            data["move_dict"] = move
        elif data.get("card"):
            card = self._card(data["card"])
            if data.get("seat") is None:
                self.add_error("seat", _t("Say which seat played the card."))
            elif card is not None:
                data["move_dict"] = {"type": "play", "seat": data["seat"], "card": card}
        else:
            raise forms.ValidationError(_t("Tap a move or key a card code."))
        return data


class DealForm(VersionedForm):
    """The deal: each seat's cards, or nothing at all for a hand recorded by its moves only. The cards are
    read as the keyed card is (``MoveForm``): codes or the reader's abbreviations separated by spaces
    (``RC 3S 10♦``), or names separated by commas (``Re di coppe, 3 di spade``)."""

    stock = forms.CharField(required=False, label=_("Stock / talon"))

    def __init__(
        self, *args: Any, seats: Sequence[str] = (), voice: Voice | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for i, name in enumerate(seats):
            self.fields[f"hand_{i}"] = forms.CharField(required=False, label=name)
        self.seat_count = len(seats)
        self.voice = voice

    def hand_fields(self) -> list[forms.BoundField]:
        return [self[f"hand_{i}"] for i in range(self.seat_count)]

    def _cards(self, name: str, text: str) -> list[str]:
        if self.voice is None or self.voice.deck is None:
            return card_codes(text)
        pieces = re.split(r"[,;]", text) if re.search(r"[,;]", text) else _SPLIT.split(text)
        languages = dict.fromkeys((self.voice.lang, page_language()))
        cards = []
        for piece in (p.strip() for p in pieces):
            if not piece:
                continue
            try:
                cards.append(read_card(piece, languages, self.voice.deck, field=name))
            except RulesError as exc:
                self.add_error(name, error_text(exc, self.voice))
                return []
        return cards

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        hands = [self._cards(f"hand_{i}", data.get(f"hand_{i}") or "") for i in range(self.seat_count)]
        stock = self._cards("stock", data.get("stock") or "")
        if not any(hands):
            data["move_dict"] = {"type": "deal", "hands": None}
        else:
            data["move_dict"] = {"type": "deal", "hands": hands, **({"stock": stock} if stock else {})}
        return data


class UndoForm(VersionedForm):
    reason = forms.CharField(required=False, max_length=200, label=_("Reason"))


class GameForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(n, words.game(n)) for n in game_names()]  # type: ignore[attr-defined]


class MatchForm(forms.Form):
    """A new match: seats (a club player or a name typed in), dealer, direction, and the game's options
    as its ruleset describes them."""

    title = forms.CharField(required=False, max_length=120, label=_("Title (optional)"))
    dealer = forms.TypedChoiceField(coerce=int, initial=0, label=_("Dealer"))
    direction = forms.ChoiceField(
        choices=Match.Direction.choices, initial=Match.Direction.ANTICLOCKWISE, label=_("Direction of play")
    )
    published = forms.BooleanField(required=False, label=_("Published (anyone may read it)"))

    def __init__(self, *args: Any, game: Game[Any], club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.max_seats = max(game.seat_counts)
        players = [("", "—")] + [(str(p.pk), p.name) for p in Player.objects.filter(club=club)]
        self.club = club
        for i in range(self.max_seats):
            self.fields[f"player_{i}"] = forms.ChoiceField(
                required=False, choices=players, label=_t("Seat {n}").format(n=i + 1)
            )
            self.fields[f"name_{i}"] = forms.CharField(required=False, max_length=120, label=_("or name"))
        self.fields["dealer"].choices = [  # type: ignore[attr-defined]
            (str(i), _t("Seat {n}").format(n=i + 1)) for i in range(self.max_seats)
        ]
        self.option_names: list[str] = []
        for option in game.ruleset.options:
            self.fields[f"opt_{option.name}"] = option_field(option, game.ruleset.options)
            self.option_names.append(option.name)

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"player_{i}"], self[f"name_{i}"]) for i in range(self.max_seats)]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{n}"] for n in self.option_names]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats: list[str | Player] = []
        players = {str(p.pk): p for p in Player.objects.filter(club=self.club)}
        for i in range(self.max_seats):
            player, name = data.get(f"player_{i}"), (data.get(f"name_{i}") or "").strip()
            if player:
                seats.append(players[player])
            elif name:
                seats.append(name)
        counts = _t(" or ").join(str(n) for n in self.game.seat_counts)
        if len(seats) not in self.game.seat_counts:
            raise forms.ValidationError(
                _t("{game} is played by {counts} players: fill in the seats.").format(
                    game=words.game(self.game.name), counts=counts
                )
            )
        data["seats"] = seats
        data["options"] = self._options(data)
        return data

    def _options(self, data: dict[str, Any]) -> dict[str, Any]:
        return chosen_options(self.game, data, "opt_")


class OptionsForm(forms.Form):
    """Another set of options for a match's game (what if it had been played by other rules): each of
    the game's options, starting from the match's own."""

    def __init__(self, game: Game[Any], recorded: Mapping[str, Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        values = game.ruleset.validate(dict(recorded))
        self.option_names: list[str] = []
        for option in game.ruleset.options:
            field = option_field(option, game.ruleset.options)
            value = values[option.name]
            field.initial = str(value) if option.choices else value
            self.fields[f"opt_{option.name}"] = field
            self.option_names.append(option.name)

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{n}"] for n in self.option_names]

    @classmethod
    def asked(cls, game: Game[Any], recorded: Mapping[str, Any], query: Mapping[str, Any]) -> OptionsForm:
        """The form as submitted, an option left out of the query keeping its recorded value (a box
        left unticked is sent as nothing, so it means off)."""
        blank = cls(game, recorded)
        data: dict[str, Any] = {}
        for name, field in blank.fields.items():
            if name in query:
                data[name] = query.get(name)
            elif not isinstance(field, forms.BooleanField):
                initial = field.initial
                data[name] = ", ".join(initial) if isinstance(initial, tuple | list) else initial
        return cls(game, recorded, data)

    def options(self) -> dict[str, Any]:
        """Every option as chosen: the game's defaults with the form's other choices over them."""
        return {**self.game.ruleset.defaults(), **chosen_options(self.game, self.cleaned_data, "opt_")}


class CardListField(forms.CharField):
    """Card codes typed in one field (``KS, 5s``), as a list (an option such as the cards the dealer
    may not discard); the engine checks that they are cards of the game's deck."""

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        return card_codes(super().to_python(value) or "")

    def prepare_value(self, value: Any) -> Any:
        return " ".join(value) if isinstance(value, list | tuple) else value


def option_field(option: Option, options: Sequence[Option]) -> forms.Field:
    """The form field of one of a game's options: a choice, a box to tick, a whole number (left empty
    where the option may have no value: no cap, no stake), a list of cards or a text, with the option's
    name and help in the reader's words."""
    field: forms.Field
    kind = option.kind or type(option.default)
    if option.choices:
        field = forms.ChoiceField(choices=[(str(c), words.option_value(c)) for c in option.choices])
        field.initial = str(option.default)
    elif kind is bool:
        field = forms.BooleanField(required=False, initial=option.default)
    elif kind is int:
        field = forms.IntegerField(
            initial=option.default, required=not option.nullable, min_value=option.minimum
        )
    elif isinstance(option.default, tuple | list):
        field = CardListField(required=False, initial=option.default, max_length=400)
    else:
        field = forms.CharField(initial=option.default, max_length=100, required=not option.nullable)
    field.label = words.word(words.OPTIONS, option.name)
    field.help_text = words.option_help(option, options)
    return field


def chosen_options(game: Game[Any], data: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The options that differ from the game's defaults, with their values in the ruleset's own types,
    from cleaned form data whose fields are named ``prefix`` + the option's name (a field missing from
    the data, or left blank, leaves its option at the default)."""
    chosen: dict[str, Any] = {}
    for option in game.ruleset.options:
        key = prefix + option.name
        if key not in data:
            continue
        value = data[key]
        if value == "" or (value is None and not option.nullable):
            continue  # left blank: the game's usual rule
        if option.choices:
            value = next((c for c in option.choices if str(c) == value), value)
        elif isinstance(option.default, tuple | list) and list(value) == list(option.default):
            continue
        if value != option.default:
            chosen[option.name] = value
    return chosen


class RulingForm(VersionedForm):
    """A director's ruling: the moves concerned, the rule, the reason and the rectification."""

    refs = forms.TypedMultipleChoiceField(
        coerce=int, widget=forms.CheckboxSelectMultiple, label=_("Moves concerned")
    )
    rule = forms.CharField(max_length=100, label=_("Rule"), widget=forms.TextInput(attrs={"list": "rules"}))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Reason"))
    kind = forms.ChoiceField(
        choices=[(k, words.RECTIFICATIONS[k]) for k in RECTIFICATIONS], label=_("Rectification")
    )
    move = forms.CharField(required=False, label=_("Corrected move (JSON)"))
    from_seat = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("From seat"))
    to_seat = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("To seat"))
    count = forms.IntegerField(required=False, min_value=1, label=_("Tricks"))
    scores = forms.CharField(
        required=False,
        label=_("Scores by seat"),
        help_text=_("Penalty or assigned scores, in seat order: for example 0, -3, 3 (22/3 for thirds)."),
    )
    line = forms.CharField(
        required=False,
        label=_("Claim's line (JSON)"),
        help_text=_(
            "Settling a disputed claim: the card plays from the claim to the end, as the claim's answer "
            "gives them; an empty list scores the claim as stated."
        ),
    )

    def __init__(
        self, *args: Any, refs: Sequence[tuple[int, str]] = (), seats: Sequence[str] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["refs"].choices = [(str(p), label) for p, label in refs]  # type: ignore[attr-defined]
        seat_choices = [("", "—")] + [(str(i), name) for i, name in enumerate(seats)]
        self.fields["from_seat"].choices = seat_choices  # type: ignore[attr-defined]
        self.fields["to_seat"].choices = seat_choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        rect: dict[str, Any] = {"kind": kind}
        if kind == "replace_move":
            try:
                rect["move"] = safejson.loads(data.get("move") or "")
            except ValueError as exc:
                self.add_error("move", _t("The corrected move is not valid JSON: {error}").format(error=exc))
        elif kind == "transfer_tricks":
            rect.update(from_seat=data.get("from_seat"), to_seat=data.get("to_seat"), count=data.get("count"))
        elif kind in ("penalty", "assign_score"):
            rect["scores"] = [_number(s) for s in _SPLIT.split((data.get("scores") or "").strip()) if s]
        elif kind == "settle_claim":
            try:
                rect["line"] = safejson.loads(data.get("line") or "[]")
            except ValueError as exc:
                self.add_error("line", _t("The claim's line is not valid JSON: {error}").format(error=exc))
        data["rectification"] = rect
        return data


def _number(text: str) -> int | str:
    """Whole numbers as ints; anything else (``22/3``) is left for the engine to read or refuse."""
    try:
        return int(text)
    except ValueError:
        return text
