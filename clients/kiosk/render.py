"""One frame of the kiosk on any surface: what the app loop and the tests both call.

``Screen`` owns the fonts, the text layer and the translator for one language, and draws the
model onto a surface of whatever size it is given. It needs no window: tests and the
screenshot tool draw onto plain surfaces.
"""

from __future__ import annotations

import pygame

from clients.kiosk.draw import Ctx
from clients.kiosk.fonts import FontFiles, find_fonts
from clients.kiosk.i18n import Translator
from clients.kiosk.model import Model, TableEntry
from clients.kiosk.shell import draw_screen
from clients.kiosk.text import TextLayer


class Screen:
    def __init__(self, lang: str = "en", fonts: FontFiles | None = None) -> None:
        self.tr = Translator(lang)
        self.text = TextLayer(fonts or find_fonts(), rtl=self.tr.rtl)

    def frame(self, surface: pygame.Surface, model: Model, now: float) -> list[TableEntry]:
        """Draw everything; the text drawn is recorded in ``self.text.drawn`` (cleared first)."""
        self.text.drawn.clear()
        return draw_screen(Ctx(surface, self.text, self.tr, now), model)
