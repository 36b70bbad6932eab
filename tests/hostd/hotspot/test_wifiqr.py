"""The Wi-Fi QR text, and a real decoder reading it back from a rendered code."""

from __future__ import annotations

import pytest
import segno
import zxingcpp

from hostd.hotspot.wifiqr import escape, parse, payload


def luminance(qr: segno.QRCode, scale: int = 6, border: int = 4) -> tuple[bytes, int]:
    """The code as a camera would see it: black modules on white, with a quiet zone (the
    pixels, one byte each, and the side). The caller keeps the bytes alive while a
    ``zxingcpp.ImageView`` looks at them: the view does not hold a reference."""
    n = len(qr.matrix) + 2 * border
    blank = [False] * n
    dark = [blank] * border + [[False] * border + [bool(v) for v in row] + [False] * border
                               for row in qr.matrix] + [blank] * border
    lines = b"".join(bytes(0 if d else 255 for d in row for _ in range(scale)) * scale
                     for row in dark)
    return lines, n * scale


@pytest.mark.parametrize(("ssid", "passphrase"), [
    ("tablebox-Salle", "correct horse battery"),
    ('Café "Le Coin"; 2:30', r"a\b;c,d:e"),
    ("CAFE42", "12345678"),  # hex-looking: quoted so no reader takes it for bytes
    ("مقهى", "كلمة-سر-طويلة"),
])
def test_round_trip_through_a_qr_decoder(ssid: str, passphrase: str) -> None:
    text = payload(ssid, passphrase)
    assert text.startswith("WIFI:T:WPA;S:") and text.endswith(";;")
    pixels, side = luminance(segno.make(text, error="m"))
    found = zxingcpp.read_barcodes(zxingcpp.ImageView(pixels, side, side, zxingcpp.ImageFormat.Lum))
    assert len(found) == 1
    assert parse(found[0].text) == {"T": "WPA", "S": ssid, "P": passphrase}


def test_escaping_and_an_open_network() -> None:
    assert escape(r'a;b,c:d"e\f') == r'a\;b\,c\:d\"e\\f'
    assert payload("Open", "") == "WIFI:T:nopass;S:Open;;"
    assert parse("WIFI:T:nopass;S:Open;;") == {"T": "nopass", "S": "Open"}
    with pytest.raises(ValueError):
        parse("http://example.org")
