"""The presentation descriptor's own checks: a descriptor that cannot be drawn is refused
when the catalogue entry is built, with a line saying why."""

from __future__ import annotations

import pytest

from engine.presentation import Gesture, Presentation, Zone, presentation_problems


def test_a_sound_descriptor_has_no_problems() -> None:
    p = Presentation("grid_board", (Zone("hand", "hand", "hand"), Zone("b", "grid", "cells", 8, 8)),
                     (Gesture(("card",), "card", "hand"), Gesture(("row", "col"), "cell", "b")),
                     ("blue", "red"))
    assert presentation_problems(p) == []


@pytest.mark.parametrize(("kwargs", "problem"), [
    ({"family": "poker"}, "unknown family 'poker'"),
    ({"zones": (Zone("b", "grid", "cells"),)}, "zone b: a grid needs rows and cols"),
    ({"zones": (Zone("t", "track", "points"),)}, "zone t: a track needs points"),
    ({"zones": (Zone("h", "hand", "hand"), Zone("h", "trick", "trick"))}, "zone names repeat"),
    ({"gestures": (Gesture(("row", "col"), "cell", "nowhere"),)},
     "gesture row,col: a cell points into a grid zone"),
    ({"zones": (Zone("h", "hand", "hand"),), "gestures": (Gesture(("from", "to"), "from_to", "h"),)},
     "gesture from,to: a from_to points into a grid or track zone"),
    ({"gestures": (Gesture((), "button"),)}, "a button gesture fills no field"),
    ({"seat_colours": ("mauve",)}, "unknown seat colour 'mauve'"),
    ({"zones": (Zone("h", "hand", "hand", faces="layout"),)},
     "zone h: only a grid has printed faces"),
])
def test_a_descriptor_that_cannot_be_drawn_is_refused(kwargs: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Presentation(**kwargs)  # type: ignore[arg-type]
