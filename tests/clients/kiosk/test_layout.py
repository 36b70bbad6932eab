"""Tiles and panels for any surface: nothing assumes an orientation or a size."""

from __future__ import annotations

import pytest
from pygame import Rect

from clients.kiosk.layout import capacity, tile_layout, tiles

SIZES = [(800, 480), (480, 800), (1024, 600), (1280, 720), (1920, 1080), (1080, 1920),
         (3840, 2160), (2560, 1080), (600, 1024), (1000, 1000)]


def test_how_many_tables_fit() -> None:
    assert capacity((800, 480)) == 1
    assert capacity((1280, 720)) == 2
    assert capacity((1920, 1080)) == 4
    assert capacity((3840, 2160)) == 4
    assert capacity((480, 800)) == 1


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_tiles_fill_the_surface_without_overlap(size: tuple[int, int], n: int) -> None:
    area = Rect((0, 0), size)
    got = tiles(n, area)
    assert len(got) == n
    for i, a in enumerate(got):
        assert area.contains(a)
        for b in got[i + 1:]:
            assert not a.colliderect(b)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("rtl", [False, True])
def test_every_part_of_a_tile_is_inside_it(size: tuple[int, int], rtl: bool) -> None:
    tile = Rect((10, 20), size)
    lay = tile_layout(tile, rtl)
    for part in (lay.header, lay.game, lay.side, lay.qr, lay.below_qr, lay.seats):
        assert tile.contains(part), (part, tile)
        assert part.w > 0 and part.h > 0
    assert lay.side.contains(lay.qr) and lay.qr.w == lay.qr.h
    assert lay.side.contains(lay.seats)
    assert not lay.game.colliderect(lay.side) and not lay.header.colliderect(lay.side)
    # the QR code stays big: at least a fifth of the tile's short side
    assert lay.qr.w >= min(size) // 5


def test_right_to_left_moves_the_side_panel_to_the_left() -> None:
    tile = Rect(0, 0, 1280, 720)
    assert tile_layout(tile, rtl=True).side.x < tile_layout(tile, rtl=True).game.x
    assert tile_layout(tile, rtl=False).side.x > tile_layout(tile, rtl=False).game.x
