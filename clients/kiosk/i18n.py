"""The kiosk's words: message keys to text in English, French and Arabic.

The host never sends prose: outcomes, hand results and notices are message keys with
arguments, and the kiosk's own labels are keys too, so every word on the screen comes from a
catalogue: the shell's (``clients/web/i18n/<lang>.json``, the web page's too: the ``kiosk.*``
keys are the kiosk's own) and each game's one catalogue (``clients/strings/<game>/<lang>.json``),
the same files the web page and the terminal read.
A key missing from French or Arabic falls back to English (a test checks that none is
missing); a key unknown everywhere is shown as readable words, never as a crash.
Card ranks are drawn as French letters (V, D, R for the jack, queen and king) in French and
Arabic, as the President ruleset writes them.

Data and string formatting: no pygame; the only I/O is reading the catalogues once.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter

from clients.strings import game_strings, shell_strings

LANGUAGES = ("en", "fr", "ar")
RTL_LANGUAGES = frozenset({"ar"})


# The shell's strings (shared with the web page) and every game's, per language.
CATALOGUES: dict[str, dict[str, str]] = {
    lang: {**shell_strings(lang), **game_strings(lang)} for lang in LANGUAGES}
EN, FR, AR = CATALOGUES["en"], CATALOGUES["fr"], CATALOGUES["ar"]

# Card ranks as drawn on a card face; "T" is always shown as 10.
_RANKS_EN = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
_RANKS_FR = {"T": "10", "J": "V", "Q": "D", "K": "R", "A": "A"}
RANK_LABELS: dict[str, dict[str, str]] = {"en": _RANKS_EN, "fr": _RANKS_FR, "ar": _RANKS_FR}


class _Args(dict[str, object]):
    """Formatting arguments that leave an unknown ``{name}`` visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def humanize(key: str) -> str:
    """A readable fallback for a key no catalogue knows: its last part, as words."""
    last = key.rsplit(".", 1)[-1]
    return last.replace("_", " ").strip().capitalize() or key


class Translator:
    """Text for one language. ``t(key, **args)`` never raises."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in CATALOGUES:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.rtl = lang in RTL_LANGUAGES
        self._table = CATALOGUES[lang]
        self._ranks = RANK_LABELS[lang]

    def has(self, key: str) -> bool:
        return key in self._table or key in EN

    def t(self, key: str, args: Mapping[str, object] | None = None, **kw: object) -> str:
        template = self._table.get(key) or EN.get(key)
        if template is None:
            return humanize(key)
        values = _Args(args or {})
        values.update(kw)
        try:
            return Formatter().vformat(template, (), values)
        except (ValueError, IndexError):  # a malformed template must not stop the screen
            return template

    def rank(self, rank: str) -> str:
        """The label drawn for a rank character (``"T"`` -> ``"10"``, ``"Q"`` -> ``"D"`` in French)."""
        return self._ranks.get(rank, rank)

    def card(self, code: str) -> str:
        """A card code as short text, ``"QH"`` -> ``"Q♥"`` (``"D♥"`` in French)."""
        if len(code) != 2:
            return code
        return self.rank(code[0]) + SUIT_SYMBOLS.get(code[1], code[1])

    def join_names(self, names: list[str]) -> str:
        if not names:
            return ""
        if len(names) == 1:
            return names[0]
        sep = "، " if self.rtl else ", "
        return self.t("kiosk.and", a=sep.join(names[:-1]), b=names[-1])


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
