"""Splitting one line of mixed Arabic and Latin text into runs of one direction, in visual order.

A small subset of the Unicode Bidirectional Algorithm (UAX #9) that covers what the kiosk
shows: one paragraph per line in the interface's direction, no explicit embeddings, at most one nested level (Latin words
and numbers inside Arabic, Arabic names inside Latin). Each ``Run`` is a piece of text in
*logical* order with its direction; the shaper (HarfBuzz, through pygame-ce) lays out an RTL run
right to left, and the runs are returned in the order they are drawn from left to right.
Runs are also split by script, so an Arabic run can use a font with Arabic glyphs while digits
and the suit symbols use another.

Pure: no pygame. It must never reorder characters inside a run (the shaper does that).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

_STRONG_R = frozenset({"R", "AL"})
LRM = "\u200e"  # invisible strong left-to-right character
RLM = "\u200f"  # invisible strong right-to-left character
MARKS = frozenset({LRM, RLM})
_NUMBER = frozenset({"EN", "AN"})
_NUM_SEPARATORS = frozenset({"CS", "ES", "ET"})


@dataclass(frozen=True)
class Run:
    text: str  # logical order
    rtl: bool  # shape right to left
    arabic: bool  # needs a font with Arabic glyphs


def is_arabic(ch: str) -> bool:
    o = ord(ch)
    return (
        0x0600 <= o <= 0x06FF
        or 0x0750 <= o <= 0x077F
        or 0x08A0 <= o <= 0x08FF
        or 0xFB50 <= o <= 0xFDFF
        or 0xFE70 <= o <= 0xFEFF
    )


def _classes(text: str) -> list[str]:
    """One of L, R, NUM or N (neutral) per character, with separators inside numbers joined."""
    raw = [unicodedata.bidirectional(ch) for ch in text]
    out = []
    for kind in raw:
        if kind == "L":
            out.append("L")
        elif kind in _STRONG_R:
            out.append("R")
        elif kind in _NUMBER:
            out.append("NUM")
        else:
            out.append("N")
    # "12:30", "3.5", "10%": a separator between (or a terminator after) digits is part of them.
    for i, kind in enumerate(raw):
        if kind in _NUM_SEPARATORS and out[i] == "N":
            before = i > 0 and out[i - 1] == "NUM"
            after = i + 1 < len(out) and out[i + 1] == "NUM"
            if (before and after) or (kind == "ET" and (before or after)):
                out[i] = "NUM"
    return out


def _levels(classes: list[str], rtl: bool) -> list[int]:
    base = 1 if rtl else 0
    n = len(classes)
    # W7: a number after a Latin strong (or at the start of a Latin paragraph) is Latin.
    strong_before: list[str] = []
    last = "R" if rtl else "L"
    for c in classes:
        strong_before.append(last)
        if c in ("L", "R"):
            last = c
    resolved = list(classes)
    for i, c in enumerate(classes):
        if c == "NUM" and strong_before[i] == "L":
            resolved[i] = "L"
    # N1/N2: a run of neutrals between two strongs of one direction takes it (numbers count
    # as R); otherwise it takes the paragraph direction.
    i = 0
    while i < n:
        if resolved[i] != "N":
            i += 1
            continue
        j = i
        while j < n and resolved[j] == "N":
            j += 1
        left = _strength(resolved[i - 1]) if i > 0 else ("R" if rtl else "L")
        right = _strength(resolved[j]) if j < n else ("R" if rtl else "L")
        fill = left if left == right else ("R" if rtl else "L")
        for k in range(i, j):
            resolved[k] = fill
        i = j
    levels = []
    for c in resolved:
        if c == "L":
            levels.append(base + 1 if rtl else base)
        elif c == "R":
            levels.append(base if rtl else base + 1)
        else:  # NUM left as such: inside right-to-left text
            levels.append(base + 1 if rtl else base + 2)
    return levels


def _strength(c: str) -> str:
    return "R" if c in ("R", "NUM") else c


def runs(text: str, rtl: bool = False) -> list[Run]:
    """The runs of ``text`` in left-to-right drawing order, in a paragraph of direction ``rtl``.

    The paragraph direction is the interface language's (an English line that starts with an
    Arabic name is still an English line), not guessed from the first letter.
    """
    if not text:
        return []
    levels = _levels(_classes(text), rtl)
    # Runs of one level, then split by script within each.
    pieces: list[tuple[int, str]] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or levels[i] != levels[start]:
            pieces.append((levels[start], text[start:i]))
            start = i
    # L2: reverse every maximal sequence at or above each odd level, highest first.
    order = list(range(len(pieces)))
    top = max(level for level, _ in pieces)
    lowest_odd = 1
    for level in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if pieces[order[i]][0] >= level:
                j = i
                while j < len(order) and pieces[order[j]][0] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    out: list[Run] = []
    for idx in order:
        level, piece = pieces[idx]
        rtl_run = level % 2 == 1
        parts = _split_script(piece)
        if rtl_run:
            parts.reverse()
        out.extend(Run(p, rtl_run, arabic) for p, arabic in parts)
    return out


def isolate(text: str, rtl: bool) -> str:
    """``text`` (a name) followed by a mark of the paragraph's direction, so that what follows
    it (a score, a colon) is not pulled into the name's direction: "بلال 12" in English."""
    return text + (RLM if rtl else LRM)


def _split_script(text: str) -> list[tuple[str, bool]]:
    """Logical sub-runs of Arabic and non-Arabic characters; spaces and direction marks join
    the run before them."""
    parts: list[tuple[str, bool]] = []
    for ch in text:
        arabic = is_arabic(ch)
        if parts and (parts[-1][1] == arabic or ch.isspace() or ch in MARKS):
            parts[-1] = (parts[-1][0] + ch, parts[-1][1])
        else:
            parts.append((ch, arabic))
    return parts
