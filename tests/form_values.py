"""What a browser would send for a page's form, read from its HTML: the values of the text and number
fields, the ticked boxes and radios, and the option selected in each list (the first one when none is
marked), so that a test can post a form as it comes and change only what it means to."""

from __future__ import annotations

from html.parser import HTMLParser


class _Form(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}
        self._select: str | None = None
        self._first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.values[name] = a.get("value", "on")
            elif kind not in ("submit", "button", "reset", "file", "image"):
                self.values[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._first = name, None
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._first is None:
                self._first = value
                self.values.setdefault(self._select, value)
            if "selected" in a:
                self.values[self._select] = value
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.values[self._textarea] += data


def form_values(page: str) -> dict[str, str]:
    """The fields of every form on the page, by name, as a browser would submit them untouched."""
    parser = _Form()
    parser.feed(page)
    return parser.values
