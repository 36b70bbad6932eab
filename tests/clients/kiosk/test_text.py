"""Fonts found at run time, Arabic shaped, and text fitted into its box."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from clients.kiosk import fonts
from clients.kiosk.fonts import FontError, find_fonts
from clients.kiosk.text import ELLIPSIS, TextLayer


@pytest.fixture(scope="module")
def files() -> fonts.FontFiles:
    return find_fonts()


def test_the_fonts_have_latin_arabic_and_the_suits(files: fonts.FontFiles) -> None:
    assert fonts.covers(files.latin, "Ab9♠♥♦♣")
    assert fonts.covers(files.arabic, "الرئيس")


def test_no_font_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FontError, match="fonts-dejavu-core"):
        find_fonts([tmp_path])


def test_a_font_directory_can_be_named(tmp_path: Path, files: fonts.FontFiles,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / files.latin.name).write_bytes(files.latin.read_bytes())
    monkeypatch.setenv("TABLEBOX_KIOSK_FONTS", str(tmp_path))
    assert fonts.font_dirs()[0] == tmp_path
    got = find_fonts([tmp_path])
    assert got.latin.parent == tmp_path
    # DejaVu Sans has Arabic too: one file can serve both
    assert got.arabic == got.latin


def test_arabic_is_shaped(files: fonts.FontFiles) -> None:
    text = TextLayer(files, rtl=True)
    alone = text.size("ب", 40)[0]
    joined = text.size("بببب", 40)[0]
    assert joined < 4 * alone * 0.9  # initial and medial forms: the letters joined up


def test_text_is_fitted_and_recorded(files: fonts.FontFiles) -> None:
    pygame.display.init()
    text = TextLayer(files)
    surface = pygame.Surface((400, 100))
    box = pygame.Rect(50, 10, 120, 30)
    long = "Cyrielle-Marguerite de la Tour d’Auvergne"
    drawn = text.draw(surface, long, box, 40, (255, 255, 255))
    assert box.contains(drawn)
    assert text.drawn[-1].text.endswith(ELLIPSIS) and text.drawn[-1].rect == drawn
    short = text.draw(surface, "Ana", box, 20, (255, 255, 255), align="end")
    assert short.right == box.right and text.drawn[-1].text == "Ana"


def test_subsurface_positions_are_recorded_in_screen_coordinates(
        files: fonts.FontFiles) -> None:
    text = TextLayer(files)
    screen = pygame.Surface((300, 300))
    part = screen.subsurface(pygame.Rect(100, 100, 100, 100))
    text.draw(part, "9", pygame.Rect(0, 0, 50, 50), 20, (255, 255, 255))
    assert pygame.Rect(100, 100, 100, 100).contains(text.drawn[-1].rect)
