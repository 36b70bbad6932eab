"""Headless SDL for every kiosk test (set before pygame is first imported), and one kiosk screen
per language."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

# imported after the SDL settings above, which pygame reads when it starts
import pygame
import pytest

from clients.kiosk.i18n import LANGUAGES
from clients.kiosk.render import Screen


@pytest.fixture(scope="module")
def screens() -> dict[str, Screen]:
    pygame.display.init()
    return {lang: Screen(lang) for lang in LANGUAGES}
