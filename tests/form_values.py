"""What a browser would send for a page's form, read from its HTML: the values of the text and number
fields, the ticked boxes and radios, and the option selected in each list (the first one when none is
marked), so that a test can post a form as it comes and change only what it means to. A name that
several fields share (boxes of one list, selects in a row) gives the list of their values, in order."""

from __future__ import annotations

from html.parser import HTMLParser


class _Form(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pairs: list[tuple[str, str]] = []
        self._select: tuple[str, int] | None = None  # the open select's name and its pair's index
        self._textarea: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.pairs.append((name, a.get("value", "on")))
            elif kind not in ("submit", "button", "reset", "file", "image"):
                self.pairs.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select = (name, -1)
        elif tag == "option" and self._select is not None:
            name, at = self._select
            value = a.get("value", "")
            if at < 0:  # the first option stands until one is marked selected
                self.pairs.append((name, value))
                self._select = (name, len(self.pairs) - 1)
            elif "selected" in a:
                self.pairs[at] = (name, value)
        elif tag == "textarea" and name:
            self.pairs.append((name, ""))
            self._textarea = len(self.pairs) - 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            name, text = self.pairs[self._textarea]
            self.pairs[self._textarea] = (name, text + data)


def form_values(page: str) -> dict[str, str | list[str]]:
    """The fields of every form on the page, by name, as a browser would submit them untouched."""
    parser = _Form()
    parser.feed(page)
    grouped: dict[str, list[str]] = {}
    for name, value in parser.pairs:
        grouped.setdefault(name, []).append(value)
    return {name: values[0] if len(values) == 1 else values for name, values in grouped.items()}
