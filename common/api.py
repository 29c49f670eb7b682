"""What every part of the API shares: the one error body and the text patterns its schema declares.

Every error the API answers (``scoring/api/errors.py`` maps them) has the body of :class:`ErrorSerializer`;
a stale version adds the versions (:class:`ConflictSerializer`). The schema class
(``segnapunti/openapi.py``) adds that body to every operation, so it lives here, below both apps' APIs.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

NO_NUL = "^[^\\x00]*$"
# What Python's str.strip() takes away, spelled out (the same class in every regex dialect).
SPACES = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# A text with something in it besides those (what DRF's CharField keeps as not blank), and no NUL.
NOT_BLANK = f"^[^\\x00]*[^{SPACES}\\x00][^\\x00]*$"

PARAMS_HELP = (
    "the template's values, each shown by its name: seat indices (seat, *_seat, dealer, hombre, holder, "
    "winner, target), seats, card codes (card, *_card, cards), suit letters (suit, *_suit, lead, trump), "
    "codes of the game (call, combination, contract, option), a nested text (outcome), else numbers and "
    "plain values; scoring/rules/errors.py has the convention"
)


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    params = serializers.DictField(
        required=False, help_text="a rule engine's error: the values its message names (" + PARAMS_HELP + ")"
    )


class ConflictSerializer(ErrorSerializer):
    expected_version = serializers.IntegerField()
    current_version = serializers.IntegerField()


WRITE_ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 422: ErrorSerializer}
VERSIONED_ERRORS = {**WRITE_ERRORS, 409: ConflictSerializer}
