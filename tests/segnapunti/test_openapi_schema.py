"""The API's OpenAPI schema is the one committed in ``docs/openapi.yaml``, byte for byte (in English).

A change to the API shows in a review as a change to that file: `make schema` writes it again. A move of
code that changes no behaviour (the layers of issue 23) leaves it as it is.
"""

from pathlib import Path

from django.core.management import call_command

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"


def test_the_schema_is_the_committed_one(tmp_path: Path) -> None:
    generated = tmp_path / "openapi.yaml"
    call_command("spectacular", "--lang", "en", "--file", str(generated))
    assert generated.read_bytes() == COMMITTED.read_bytes(), (
        "the API's schema changed: run `make schema` and commit docs/openapi.yaml if the change is meant"
    )
