"""Finding font files at run time: one face for Latin text, digits and the suit symbols, one for
Arabic, each with a bold weight when there is one.

The screen needs ♠♥♦♣ and Arabic, which pygame's built-in font lacks. Fonts are looked up by
file name in the usual font directories (Debian's ``fonts-dejavu-core`` and
``fonts-noto-core`` provide the preferred ones), in ``$TABLEBOX_KIOSK_FONTS`` first if set, and
each candidate is checked for the glyphs it must have before it is chosen. When nothing
suitable exists the kiosk stops with ``FontError`` naming the packages to install.

Reads directories and font files only; never downloads anything.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygame.freetype

LATIN_NEEDS = "AZaz09éèçàÉ♠♥♦♣·…–"
ARABIC_NEEDS = "ابتثجحخدذرزسشصضطظعغفقكلمنهويىةءأإآ،"

LATIN_REGULAR = ("DejaVuSans.ttf", "FreeSans.ttf", "NotoSans-Regular.ttf", "Arial Unicode.ttf")
LATIN_BOLD = ("DejaVuSans-Bold.ttf", "FreeSansBold.ttf", "NotoSans-Bold.ttf")
ARABIC_REGULAR = ("NotoSansArabic-Regular.ttf", "NotoNaskhArabic-Regular.ttf",
                  "NotoKufiArabic-Regular.ttf", "DejaVuSans.ttf", "FreeSerif.ttf")
ARABIC_BOLD = ("NotoSansArabic-Bold.ttf", "NotoNaskhArabic-Bold.ttf", "NotoKufiArabic-Bold.ttf",
               "DejaVuSans-Bold.ttf", "FreeSerifBold.ttf")

INSTALL_HINT = ("install a font with Latin, Arabic and the card suits "
                "(Debian: apt install fonts-dejavu-core fonts-noto-core), "
                "or put .ttf files in a directory named by $TABLEBOX_KIOSK_FONTS")


class FontError(Exception):
    """No usable font: the message says what to install."""


@dataclass(frozen=True)
class FontFiles:
    latin: Path
    latin_bold: Path | None
    arabic: Path
    arabic_bold: Path | None


def font_dirs() -> list[Path]:
    dirs: list[Path] = []
    env = os.environ.get("TABLEBOX_KIOSK_FONTS")
    if env:
        dirs += [Path(p) for p in env.split(os.pathsep) if p]
    dirs.append(Path(__file__).parent / "fonts")
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    dirs += [Path(data_home) / "fonts", Path.home() / ".fonts"]
    data_dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    dirs += [Path(p) / "fonts" for p in data_dirs.split(":") if p]
    return dirs


def _index(dirs: Iterable[Path]) -> dict[str, Path]:
    """File name -> first path found, searching ``dirs`` in order."""
    found: dict[str, Path] = {}
    for d in dirs:
        if not d.is_dir():
            continue
        for path in sorted(d.rglob("*")):
            if path.suffix.lower() in (".ttf", ".otf") and path.name not in found:
                found[path.name] = path
    return found


def covers(path: Path, chars: str) -> bool:
    """Whether the font file has a glyph for every character of ``chars``."""
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    try:
        face = pygame.freetype.Font(str(path), 16)
        metrics = face.get_metrics(chars)
    except (OSError, pygame.error):
        return False
    return all(m is not None for m in metrics)


def _pick(index: dict[str, Path], names: Sequence[str], needs: str) -> Path | None:
    for name in names:
        path = index.get(name)
        if path is not None and covers(path, needs):
            return path
    return None


def find_fonts(dirs: Sequence[Path] | None = None) -> FontFiles:
    """The font files to use, or FontError saying what to install."""
    index = _index(font_dirs() if dirs is None else dirs)
    latin = _pick(index, LATIN_REGULAR, LATIN_NEEDS)
    arabic = _pick(index, ARABIC_REGULAR, ARABIC_NEEDS)
    if latin is None or arabic is None:
        missing = " and ".join(
            what for what, path in (("Latin with ♠♥♦♣", latin), ("Arabic", arabic))
            if path is None)
        raise FontError(f"no font with {missing} found: {INSTALL_HINT}")
    return FontFiles(
        latin=latin,
        latin_bold=_pick(index, LATIN_BOLD, LATIN_NEEDS),
        arabic=arabic,
        arabic_bold=_pick(index, ARABIC_BOLD, ARABIC_NEEDS),
    )
