"""Checksums and signatures of a release: what makes a downloaded wheel safe to install.

Owns the ``SHA256SUMS`` format (``<hex>  <file name>`` per line, as ``sha256sum`` writes it),
its detached Ed25519 signature ``SHA256SUMS.sig`` (base64 of the 64-byte signature over the
exact bytes of ``SHA256SUMS``), and the maintainer side: ``sign`` and ``keygen``.

Order of the checks, each refusing with one line and changing nothing: the signature must
exist and verify under a trusted key (``keys``), then the wheel must be listed and its
SHA-256 must match. Never installs, never downloads; never logs a private key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

from hostd.update import UpdateError

SUMS = "SHA256SUMS"
SIG = "SHA256SUMS.sig"
_LINE = re.compile(r"([0-9a-fA-F]{64}) [ *]([^/\\\n]+)")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def parse_sums(data: bytes) -> dict[str, str]:
    """File name -> lower-case hex digest; a malformed line refuses the whole file."""
    out: dict[str, str] = {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UpdateError(f"refused: {SUMS} is not text") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = _LINE.fullmatch(line.rstrip("\r"))
        if m is None:
            raise UpdateError(f"refused: {SUMS} line {n} is not '<sha256>  <file>'")
        out[m.group(2)] = m.group(1).lower()
    return out


def _decode_sig(data: bytes) -> bytes:
    if len(data) == 64:
        return data
    try:
        raw = base64.b64decode(data.strip(), validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 64:
        raise UpdateError(f"refused: {SIG} is not an Ed25519 signature")
    return raw


def check_signature(sums: bytes, sig: bytes | None, keys: Iterable[bytes]) -> None:
    """Raise UpdateError unless ``sig`` is a signature of ``sums`` by one of ``keys``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if sig is None:
        raise UpdateError(f"refused: the release is unsigned (no {SIG})")
    keys = list(keys)
    if not keys:
        raise UpdateError("refused: this build trusts no release key (hostd/update/keys.py)")
    raw = _decode_sig(sig)
    for key in keys:
        try:
            Ed25519PublicKey.from_public_bytes(key).verify(raw, sums)
            return
        except InvalidSignature:
            continue
    raise UpdateError(f"refused: {SIG} does not verify under a trusted release key")


def check_release(wheel: Path, sums: bytes, sig: bytes | None, keys: Iterable[bytes]) -> str:
    """Verify the signature, then the wheel's checksum; its SHA-256 hex on success."""
    check_signature(sums, sig, keys)
    listed = parse_sums(sums)
    if wheel.name not in listed:
        raise UpdateError(f"refused: {wheel.name} is not listed in {SUMS}")
    digest = sha256_file(wheel)
    if digest != listed[wheel.name]:
        raise UpdateError(f"refused: the checksum of {wheel.name} does not match {SUMS}")
    return digest


# -- the maintainer's side ---------------------------------------------------------------------
def load_private(path: Path) -> object:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        key = load_pem_private_key(path.read_bytes(), password=None)
    except OSError as e:
        raise UpdateError(f"cannot read {path}: {e.strerror}") from None
    except (ValueError, TypeError):
        raise UpdateError(f"{path} is not an unencrypted PEM Ed25519 private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise UpdateError(f"{path} is not an Ed25519 private key")
    return key


def public_b64(private: object) -> str:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    assert isinstance(private, Ed25519PrivateKey)
    raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return base64.b64encode(raw).decode("ascii")


def keygen(path: Path) -> str:
    """Write a new private key (PEM, mode 0600, never overwriting); its public key (base64)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise UpdateError(f"{path} exists: refusing to overwrite a key") from None
    except OSError as e:
        raise UpdateError(f"cannot write {path}: {e.strerror}") from None
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return public_b64(key)


def sign(key_file: Path, wheels: list[Path], out: Path | None = None) -> tuple[Path, Path]:
    """Write ``SHA256SUMS`` for ``wheels`` and its signature into ``out`` (default: the first
    wheel's folder); the two paths."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = load_private(key_file)
    assert isinstance(key, Ed25519PrivateKey)
    if not wheels:
        raise UpdateError("name at least one wheel to sign")
    lines = []
    for w in wheels:
        if not w.is_file():
            raise UpdateError(f"{w}: no such file")
        lines.append(f"{sha256_file(w)}  {w.name}\n")
    folder = out or wheels[0].parent
    sums = "".join(lines).encode("utf-8")
    sig = base64.b64encode(key.sign(sums)) + b"\n"
    (folder / SUMS).write_bytes(sums)
    (folder / SIG).write_bytes(sig)
    return folder / SUMS, folder / SIG
