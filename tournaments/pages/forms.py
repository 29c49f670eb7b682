"""Forms of the director's pages. They read what was typed or chosen into the values the services take;
the services judge them (a name too long, natural scoring over several games, a repeated tie-break, a
missing reason), and their refusals come back on the field they name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership, Player
from scoring.pages import display as scoring_display
from scoring.pages.forms import chosen_options, option_field
from scoring.rules import game_names, get_game
from tournaments.models import Tournament
from tournaments.plan.standings import METRICS

# How many criteria the form offers to order: every criterion but the lot, which always ends the list.
TIEBREAK_SLOTS = len(METRICS) - 1


class TiebreaksField(forms.Field):
    """The tie-breaks in order: several selects sharing one name, read in the order of the page (blank
    ones skipped). An empty list means "the game's usual order"."""

    widget = forms.SelectMultiple

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[str]:
        if not value:
            return []
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value if str(v).strip()]

    def validate(self, value: Any) -> None:
        super().validate(value)
        for key in value:
            if key not in METRICS or key == "lot":
                raise forms.ValidationError(
                    gettext("Choose the criteria from the list."), code="invalid_choice"
                )

    def has_changed(self, initial: Any, data: Any) -> bool:
        return self.to_python(initial) != self.to_python(data)


def metric_choices() -> list[tuple[str, str]]:
    """The criteria a director may order, by their names in the reader's language."""
    return [(key, gettext(m.name)) for key, m in METRICS.items() if key != "lot"]


def game_choices() -> list[tuple[str, str]]:
    return [(name, scoring_display.game_title(name)) for name in game_names()]


def scorer_users(club: Club) -> QuerySet[Any]:
    """The club's scorers and directors: who may score a tournament's tables."""
    roles = (Membership.Role.DIRECTOR, Membership.Role.SCORER)
    return (
        get_user_model()
        .objects.filter(memberships__club=club, memberships__role__in=roles)
        .order_by("username")
        .distinct()
    )


class ScorerChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        full = obj.get_full_name()
        return f"{full} ({obj.get_username()})" if full else str(obj.get_username())


class RankingFields(forms.Form):
    """What decides the ranking, shared by the new tournament and its settings."""

    scoring = forms.ChoiceField(
        label=_("Scoring"),
        choices=Tournament.Scoring.choices,
        help_text=_(
            "Rank points compare tables of different games or sizes; a game's own total needs one game."
        ),
    )
    tiebreaks = TiebreaksField(
        label=_("Tie-breaks, in order"),
        help_text=_("The lot always comes last. Leave them all empty for the game's usual order."),
    )
    sit_out_score = forms.CharField(
        label=_("Score for a sit-out"),
        max_length=30,
        initial="0",
        help_text=_(
            "In the unit of the total: e.g. 6 rank points, the middle of a table (6 or 13/2). A change "
            "applies to every sit-out, those of the rounds already played too."
        ),
    )
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned"),
        required=False,
        help_text=_("The seating spreads the meetings over this many rounds."),
    )
    tressette_tables = forms.ChoiceField(
        label=_("Tressette tables"),
        required=False,
        choices=Tournament.TressetteTables.choices,
        initial=Tournament.TressetteTables.MIXED,
        help_text=_(
            "Only for Tressette: tables of 4 play in pairs, tables of 3 each for himself. A mix seats "
            "everyone but ranks pairs and solo tables together."
        ),
    )

    def clean_tressette_tables(self) -> str:
        """Not posted (a form of before the setting): as it was, or the default."""
        chosen = self.cleaned_data.get("tressette_tables")
        return str(chosen or self.initial.get("tressette_tables") or Tournament.TressetteTables.MIXED)

    def tiebreak_slots(self) -> list[dict[str, Any]]:
        """One select per place in the order, each with the criterion chosen there (if any)."""
        chosen = TiebreaksField().to_python(self["tiebreaks"].value())
        return [
            {"number": i + 1, "value": chosen[i] if i < len(chosen) else ""} for i in range(TIEBREAK_SLOTS)
        ]

    def metric_choices(self) -> list[tuple[str, str]]:
        return metric_choices()


class TournamentForm(RankingFields):
    """A new tournament or league at a club."""

    name = forms.CharField(label=_("Name"), max_length=120)
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Tournament.Kind.choices, initial=Tournament.Kind.TOURNAMENT
    )
    games = forms.MultipleChoiceField(
        label=_("Games"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Several games make a league of rank points, one game a round."),
    )
    scorers = ScorerChoiceField(
        label=_("Scorers of the evening"),
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("They may record at every table of the tournament."),
    )
    published = forms.BooleanField(label=_("Standings public from the start"), required=False)

    field_order = [
        "name",
        "kind",
        "games",
        "scoring",
        "tiebreaks",
        "sit_out_score",
        "rounds_planned",
        "tressette_tables",
    ]

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["games"].choices = game_choices()  # type: ignore[attr-defined]
        self.fields["scorers"].queryset = scorer_users(club)  # type: ignore[attr-defined]
        # Each game's options, as on the new match form: only the games ticked are read.
        for game in game_names():
            options = get_game(game).ruleset.options
            for option in options:
                field = option_field(option, options)
                field.required = False
                self.fields[_option_key(game, option.name)] = field

    def option_groups(self) -> list[dict[str, Any]]:
        """The option fields of each game, for the page: the game's name, its fields, and whether one
        of them has an error (its group is then shown open)."""
        groups = []
        for game, title in game_choices():
            fields = [self[_option_key(game, o.name)] for o in get_game(game).ruleset.options]
            groups.append(
                {
                    "game": game,
                    "title": title,
                    "fields": fields,
                    "invalid": any(f.errors for f in fields),
                }
            )
        return groups

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        ticked = set(data.get("games") or ())
        options = {}
        for game in game_names():
            if game not in ticked:  # what was typed for a game not played is not read, nor judged
                for option in get_game(game).ruleset.options:
                    self.errors.pop(_option_key(game, option.name), None)
            elif chosen := chosen_options(get_game(game), data, _option_key(game, "")):
                options[game] = chosen
        data["game_options"] = options
        return data


def _option_key(game: str, option: str) -> str:
    """The field of a game's option on the tournament form: the game's options side by side."""
    return f"opt_{game}__{option}"


class SettingsForm(RankingFields):
    """A tournament's settings; after round 1 a change to its ranking needs a reason."""

    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    name = forms.CharField(label=_("Name"), max_length=120)
    reason = forms.CharField(
        label=_("Reason for the change"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "Needed once round 1 is open to change the scoring, the tie-breaks or the sit-out score."
        ),
    )

    scorers = ScorerChoiceField(
        label=_("Scorers of the evening"),
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "They may record at every table of the tournament: a change reaches the tables still in play."
        ),
    )

    field_order = [
        "name",
        "scoring",
        "tiebreaks",
        "sit_out_score",
        "rounds_planned",
        "tressette_tables",
        "scorers",
        "reason",
    ]

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["scorers"].queryset = scorer_users(club)  # type: ignore[attr-defined]

    @staticmethod
    def initial_for(tournament: Tournament) -> dict[str, Any]:
        return {
            "scorers": list(tournament.scorers.all()),
            "expected_version": tournament.version,
            "name": tournament.name,
            "scoring": tournament.scoring,
            "tiebreaks": [k for k in tournament.tiebreaks if k != "lot"],
            "sit_out_score": tournament.sit_out_score,
            "rounds_planned": tournament.rounds_planned,
            "tressette_tables": tournament.tressette_tables,
        }

    def changes(self) -> dict[str, Any]:
        """Only what the director changed: a field left as it was is not a change to justify."""
        skip = {"expected_version", "reason"}
        changed = {name: self.cleaned_data[name] for name in self.changed_data if name not in skip}
        if changed.get("tressette_tables") == self.initial.get("tressette_tables"):
            del changed["tressette_tables"]
        if "scorers" in changed:
            changed["scorers"] = list(changed["scorers"])
        return changed


class VersionedForm(forms.Form):
    """A director's button: it carries the tournament's version the page showed."""

    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class RegisterForm(VersionedForm):
    """Register a player: a member of the club, or a player of another club as a guest (the same form
    under the prefix ``guest``)."""

    player = forms.ModelChoiceField(label=_("Player"), queryset=Player.objects.all())

    def __init__(self, *args: Any, choices: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Any player may be posted (the service says why one cannot play); the list offers those who may
        # (``choices``: (id, name) pairs, or (club, pairs) groups).
        self.fields["player"].widget.choices = [("", "—"), *choices]


class MembersForm(VersionedForm):
    """Register several members of the club at once: each ticked."""

    player = forms.ModelMultipleChoiceField(
        label=_("Members of the club"), queryset=Player.objects.all(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, choices: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Any player may be posted (the service says why one cannot play); the list offers the members
        # not registered yet (``choices``: (id, name) pairs).
        self.fields["player"].widget.choices = list(choices)


class GuestForm(VersionedForm):
    """A guest from another club, by his name and his club's (the club is created if it is new)."""

    name = forms.CharField(label=_("Guest's name"), max_length=120)
    club = forms.CharField(label=_("His club"), max_length=120)


class JoinForm(VersionedForm):
    """A walk-in: a new player of the club, registered at once."""

    name = forms.CharField(label=_("New player"), max_length=120)


class WithdrawForm(VersionedForm):
    reason = forms.CharField(label=_("Reason"), required=False, max_length=2000)


class OpenRoundForm(VersionedForm):
    game = forms.ChoiceField(label=_("Game of the round"), required=False)

    def __init__(self, *args: Any, games: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", "—")] + [  # type: ignore[attr-defined]
            (g, scoring_display.game_title(g)) for g in games
        ]


class AbandonForm(VersionedForm):
    table = forms.IntegerField(label=_("Table"), min_value=1, widget=forms.Select)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=2000)

    def offer(self, tables: Sequence[int]) -> AbandonForm:
        """Offer these tables (those still in play). Any table may be posted: the service says why one
        cannot be abandoned."""
        self.fields["table"].widget.choices = [
            (n, gettext("Table %(number)s") % {"number": n}) for n in tables
        ]
        return self


class PublishForm(VersionedForm):
    published = forms.BooleanField(required=False)
