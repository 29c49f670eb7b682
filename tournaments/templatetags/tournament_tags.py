"""Filters of the tournament pages: games, criteria and a table's progress by their names in the
reader's language, never by their codes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from scoring.pages import display as scoring_display
from tournaments.pages import display

register = template.Library()


@register.filter
def game_title(name: str) -> str:
    return scoring_display.game_title(name)


@register.filter
def game_titles(names: Iterable[str]) -> str:
    return display.game_titles(names)


@register.filter
def metric_name(key: str) -> str:
    return display.metric_name(key)


@register.filter
def metric_names(keys: Iterable[str]) -> str:
    return ", ".join(display.metric_name(k) for k in keys)


@register.filter
def progress(value: str) -> str:
    return display.progress(value)


@register.filter
def standings_number(value: Any) -> str:
    return display.number(value)
