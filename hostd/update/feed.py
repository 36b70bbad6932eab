"""The release feed: which versions exist, with their notes and assets, and fetching them.

Owns the feed's shape, the common code-hosting releases API: a JSON list of releases, each
with ``tag_name`` (``v1.2.0`` or ``1.2.0``), ``name``, ``body`` (the notes), ``draft``,
``prerelease`` and ``assets`` (``name``, ``browser_download_url``). A release is usable when it
has a ``tablebox-*.whl`` asset; ``SHA256SUMS`` and ``SHA256SUMS.sig`` are looked up beside it
(their absence is refused later, by ``verify``, with one line).

Talks to nothing but the feed URL it is given and the asset URLs that feed lists, over HTTP(S)
only, with a timeout and a size limit on every response. Never verifies, never installs.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostd.update import UpdateError
from hostd.update.version import version as running_version

FEED_LIMIT = 4 * 1024 * 1024
ASSET_LIMIT = 200 * 1024 * 1024
TIMEOUT = 20.0
_VERSION = re.compile(r"v?(\d+(?:\.\d+){0,3})")


def parse_version(text: str) -> tuple[int, ...] | None:
    """``v1.2.0`` -> (1, 2, 0); None for anything else (pre-releases are not offered)."""
    m = _VERSION.fullmatch(text.strip())
    return tuple(int(x) for x in m.group(1).split(".")) if m else None


def newer(a: str, b: str) -> bool:
    """Is version ``a`` newer than ``b`` (an unparseable ``b``, e.g. a checkout: yes)."""
    va, vb = parse_version(a), parse_version(b)
    if va is None:
        return False
    if vb is None:
        return True
    width = max(len(va), len(vb))
    return va + (0,) * (width - len(va)) > vb + (0,) * (width - len(vb))


@dataclass(frozen=True)
class Release:
    version: str
    tag: str
    name: str
    notes: str
    assets: dict[str, str] = field(default_factory=dict)  # file name -> URL

    @property
    def wheel(self) -> str | None:
        found = sorted(n for n in self.assets if n.startswith("tablebox-") and n.endswith(".whl"))
        return found[-1] if found else None

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "tag": self.tag, "name": self.name,
                "notes": self.notes, "assets": sorted(self.assets)}


def _check_url(url: str) -> None:
    if not url.startswith(("http://", "https://")):
        raise UpdateError(f"the feed and its assets must be http(s) URLs, not {url!r}")


def _get(url: str, limit: int, accept: str) -> bytes:
    _check_url(url)
    req = urllib.request.Request(url, headers={
        "Accept": accept, "User-Agent": f"tablebox/{running_version()}"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            data = r.read(limit + 1)
    except urllib.error.HTTPError as e:
        raise UpdateError(f"{url}: HTTP {e.code} {e.reason}") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", None) or e
        raise UpdateError(f"cannot reach {url}: {reason}") from None
    if len(data) > limit:
        raise UpdateError(f"{url}: larger than {limit} bytes, refused")
    return data


def parse_feed(data: bytes, where: str = "the feed") -> list[Release]:
    """The usable releases in a feed document, newest first."""
    try:
        doc = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise UpdateError(f"{where} is not JSON") from None
    items = doc if isinstance(doc, list) else [doc]
    out: list[Release] = []
    for item in items:
        if not isinstance(item, dict) or item.get("draft") or item.get("prerelease"):
            continue
        tag = item.get("tag_name")
        if not isinstance(tag, str) or parse_version(tag) is None:
            continue
        assets = {}
        for a in item.get("assets") or []:
            if isinstance(a, dict) and isinstance(a.get("name"), str) \
                    and isinstance(a.get("browser_download_url"), str):
                assets[a["name"]] = a["browser_download_url"]
        rel = Release(tag.lstrip("v"), tag, str(item.get("name") or tag),
                      str(item.get("body") or ""), assets)
        if rel.wheel is not None:
            out.append(rel)
    out.sort(key=lambda r: parse_version(r.version) or (), reverse=True)
    return out


def fetch(url: str) -> list[Release]:
    return parse_feed(_get(url, FEED_LIMIT, "application/vnd.github+json, application/json"),
                      url)


def newest(releases: list[Release]) -> Release | None:
    return releases[0] if releases else None


@dataclass(frozen=True)
class Downloaded:
    wheel: Path
    sums: bytes
    sig: bytes | None
    extra: list[Path]  # further wheels the release ships (new dependencies), all in one folder


def download(release: Release, dest: Path) -> Downloaded:
    """The release's wheel, checksum file and signature into ``dest`` (which must exist)."""
    wheel = release.wheel
    assert wheel is not None
    sums_url = release.assets.get("SHA256SUMS")
    if sums_url is None:
        raise UpdateError(f"refused: release {release.version} has no SHA256SUMS")
    sums = _get(sums_url, FEED_LIMIT, "application/octet-stream")
    sig_url = release.assets.get("SHA256SUMS.sig")
    sig = _get(sig_url, 4096, "application/octet-stream") if sig_url else None
    paths = []
    for name in [wheel, *sorted(n for n in release.assets
                                if n.endswith(".whl") and n != wheel)]:
        if "/" in name or "\\" in name or name.startswith("."):
            raise UpdateError(f"refused: asset name {name!r}")
        target = dest / name
        target.write_bytes(_get(release.assets[name], ASSET_LIMIT, "application/octet-stream"))
        paths.append(target)
    return Downloaded(paths[0], sums, sig, paths[1:])
