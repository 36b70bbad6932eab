"""The release signing keys this build of tablebox trusts, and how a test replaces them.

Owns the list of trusted Ed25519 public keys (base64 of the 32 raw bytes). A release is
installed only if its ``SHA256SUMS.sig`` verifies under one of them. Keeping a list lets a
key be rotated: a release made with a new key ships the new key here, signed with the old one.

``$TABLEBOX_UPDATE_KEY`` names a public key file that REPLACES the list: for tests and for a
maintainer trying a private feed, never for a box in a café (docs/operations.md, "Updates").
This module never holds a private key and never reads one.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from pathlib import Path

from hostd.update import UpdateError

ENV = "TABLEBOX_UPDATE_KEY"

# The project's release keys. Empty until the maintainers publish theirs: with no trusted key
# every release is refused (fail closed). `tablebox release keygen` prints the line to add.
TRUSTED: tuple[str, ...] = ()


class KeyFileError(UpdateError):
    """A public key that cannot be read; ``str(e)`` is one line."""


def decode_public(text: str, where: str) -> bytes:
    """The 32 raw bytes of a public key written as base64 (alone, or as a PEM block)."""
    lines = [x.strip() for x in text.strip().splitlines() if x.strip()]
    body = "".join(x for x in lines if not x.startswith("-----"))
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise KeyFileError(f"{where}: not a base64 Ed25519 public key") from None
    if len(raw) == 44 and raw.startswith(bytes.fromhex("302a300506032b6570032100")):
        raw = raw[12:]  # SubjectPublicKeyInfo (PEM "PUBLIC KEY"): the key is the tail
    if len(raw) != 32:
        raise KeyFileError(f"{where}: an Ed25519 public key is 32 bytes, this is {len(raw)}")
    return raw


def trusted(environ: Mapping[str, str] | None = None) -> list[bytes]:
    """The public keys to verify releases with (``$TABLEBOX_UPDATE_KEY`` replaces them)."""
    env = os.environ if environ is None else environ
    override = env.get(ENV)
    if override:
        path = Path(override)
        try:
            text = path.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as e:
            raise KeyFileError(f"${ENV}={path}: cannot read: {e}") from None
        return [decode_public(text, f"${ENV}={path}")]
    return [decode_public(k, "hostd.update.keys.TRUSTED") for k in TRUSTED]
