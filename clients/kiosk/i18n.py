"""The kiosk's words: message keys to text in English, French and Arabic.

The host never sends prose: outcomes, hand results and notices are message keys with
arguments, and the kiosk's own labels are keys too, so every word on the screen comes from a
catalogue: the kiosk's shell strings below, and each game's one catalogue
(``clients/strings/<game>/<lang>.json``), the same files the web page and the terminal read.
A key missing from French or Arabic falls back to English (a test checks that none is
missing); a key unknown everywhere is shown as readable words, never as a crash.
Card ranks are drawn as French letters (V, D, R for the jack, queen and king) in French and
Arabic, as the President ruleset writes them.

Data and string formatting: no pygame; the only I/O is reading the game catalogues once.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter

from clients.strings import game_strings

LANGUAGES = ("en", "fr", "ar")
RTL_LANGUAGES = frozenset({"ar"})

EN: dict[str, str] = {
    # the shell
    "kiosk.waiting": "Waiting for a table…",
    "kiosk.waiting_hint": "Start one from a phone or with `tablebox tables new`",
    "kiosk.connecting": "Connecting to {host}…",
    "kiosk.reconnecting": "Reconnecting to {host}…",
    "kiosk.scan_to_join": "Scan to join",
    "kiosk.code": "Code",
    "kiosk.to_play": "{name} to play",
    "kiosk.to_play_many": "{names} to play",
    "kiosk.ai": "AI",
    "kiosk.ai_level": "AI · {level}",
    "kiosk.covering": "AI covers",
    "kiosk.disconnected": "disconnected",
    "kiosk.seat_free": "seat free",
    "kiosk.seat": "Seat {n}",
    "kiosk.game_over": "Game over",
    "kiosk.winner": "{names} wins",
    "kiosk.winners": "{names} win",
    "kiosk.draw": "Draw",
    "kiosk.finished": "Finished",
    "kiosk.closed": "Closed",
    "kiosk.score": "Score",
    "kiosk.points": "{n} pts",
    "kiosk.and": "{a} & {b}",
    "kiosk.table_count": "{n} tables",
    "kiosk.unknown_game": "This screen cannot draw {game} yet",
    "kiosk.round_over": "Round over",
    # AI levels
    "level.easy": "easy",
    "level.normal": "normal",
    "level.hard": "hard",
    "level.random": "random",
    # suits
    "suit.S": "spades",
    "suit.H": "hearts",
    "suit.D": "diamonds",
    "suit.C": "clubs",
}

FR: dict[str, str] = {
    "kiosk.waiting": "En attente d’une table…",
    "kiosk.waiting_hint": "Lancez-en une depuis un téléphone ou avec `tablebox tables new`",
    "kiosk.connecting": "Connexion à {host}…",
    "kiosk.reconnecting": "Reconnexion à {host}…",
    "kiosk.scan_to_join": "Scannez pour jouer",
    "kiosk.code": "Code",
    "kiosk.to_play": "À {name} de jouer",
    "kiosk.to_play_many": "À {names} de jouer",
    "kiosk.ai": "IA",
    "kiosk.ai_level": "IA · {level}",
    "kiosk.covering": "IA en renfort",
    "kiosk.disconnected": "déconnecté",
    "kiosk.seat_free": "place libre",
    "kiosk.seat": "Place {n}",
    "kiosk.game_over": "Partie terminée",
    "kiosk.winner": "{names} gagne",
    "kiosk.winners": "{names} gagnent",
    "kiosk.draw": "Égalité",
    "kiosk.finished": "Terminée",
    "kiosk.closed": "Fermée",
    "kiosk.score": "Score",
    "kiosk.points": "{n} pts",
    "kiosk.and": "{a} et {b}",
    "kiosk.table_count": "{n} tables",
    "kiosk.unknown_game": "Cet écran ne sait pas encore afficher {game}",
    "kiosk.round_over": "Manche terminée",
    "level.easy": "facile",
    "level.normal": "normal",
    "level.hard": "difficile",
    "level.random": "au hasard",
    "suit.S": "pique",
    "suit.H": "cœur",
    "suit.D": "carreau",
    "suit.C": "trèfle",
}

AR: dict[str, str] = {
    "kiosk.waiting": "في انتظار طاولة…",
    "kiosk.waiting_hint": "ابدأ طاولة من الهاتف أو بالأمر `tablebox tables new`",
    "kiosk.connecting": "جارٍ الاتصال بـ {host}…",
    "kiosk.reconnecting": "جارٍ إعادة الاتصال بـ {host}…",
    "kiosk.scan_to_join": "امسح الرمز للانضمام",
    "kiosk.code": "الرمز",
    "kiosk.to_play": "دور {name}",
    "kiosk.to_play_many": "دور {names}",
    "kiosk.ai": "الحاسوب",
    "kiosk.ai_level": "الحاسوب · {level}",
    "kiosk.covering": "الحاسوب ينوب",
    "kiosk.disconnected": "غير متصل",
    "kiosk.seat_free": "مقعد متاح",
    "kiosk.seat": "المقعد {n}",
    "kiosk.game_over": "انتهت اللعبة",
    "kiosk.winner": "الفائز: {names}",
    "kiosk.winners": "الفائزون: {names}",
    "kiosk.draw": "تعادل",
    "kiosk.finished": "انتهت",
    "kiosk.closed": "مغلقة",
    "kiosk.score": "النتيجة",
    "kiosk.points": "{n} نقاط",
    "kiosk.and": "{a} و{b}",
    "kiosk.table_count": "{n} طاولات",
    "kiosk.unknown_game": "لا تستطيع هذه الشاشة عرض {game} بعد",
    "kiosk.round_over": "انتهت الجولة",
    "level.easy": "سهل",
    "level.normal": "عادي",
    "level.hard": "صعب",
    "level.random": "عشوائي",
    "suit.S": "البستوني",
    "suit.H": "الكبة",
    "suit.D": "الديناري",
    "suit.C": "السباتي",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": EN, "fr": FR, "ar": AR}
for _lang, _table in CATALOGUES.items():
    _table.update(game_strings(_lang))

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
