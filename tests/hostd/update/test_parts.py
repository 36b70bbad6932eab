"""The update's parts on their own, without processes: the feed's shape, versions, the
signature and checksum rules, the schema rule, who counts as playing, and the links."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hostd.update import UpdateError, apply, feed, keys, rollback, switch, verify


def test_the_feed_lists_usable_releases_newest_first() -> None:
    def rel(tag: str, **kw: object) -> dict[str, object]:
        return {"tag_name": tag, "name": tag, "body": "notes", "assets": [
            {"name": f"tablebox-{tag.lstrip('v')}-py3-none-any.whl",
             "browser_download_url": f"http://127.0.0.1/{tag}.whl"}], **kw}

    doc = [rel("v1.2.0"), rel("v1.10.0"), rel("v2.0.0", draft=True),
           rel("v3.0.0rc1"), rel("v1.9.0", prerelease=True), {"tag_name": "v9", "assets": []}]
    found = feed.parse_feed(json.dumps(doc).encode())
    assert [r.version for r in found] == ["1.10.0", "1.2.0"]
    assert found[0].wheel == "tablebox-1.10.0-py3-none-any.whl"
    with pytest.raises(UpdateError, match="not JSON"):
        feed.parse_feed(b"<html>")


def test_versions_compare_as_numbers() -> None:
    assert feed.newer("1.10.0", "1.9.3") and feed.newer("1.1", "1.0.9")
    assert not feed.newer("1.0", "1.0.0") and not feed.newer("junk", "1.0")
    assert feed.newer("0.2.0", "0+unknown")


def test_only_http_urls_are_fetched() -> None:
    with pytest.raises(UpdateError, match="http"):
        feed.fetch("file:///etc/passwd")


def test_signatures_and_checksums(tmp_path: Path) -> None:
    key = tmp_path / "k.pem"
    public = keys.decode_public(verify.keygen(key), "test")
    with pytest.raises(UpdateError, match="refusing to overwrite"):
        verify.keygen(key)
    wheel = tmp_path / "tablebox-1.0.0-py3-none-any.whl"
    wheel.write_bytes(b"PK wheel")
    sums_path, sig_path = verify.sign(key, [wheel])
    sums, sig = sums_path.read_bytes(), sig_path.read_bytes()
    assert verify.check_release(wheel, sums, sig, [public]) == verify.sha256_file(wheel)
    other = keys.decode_public(verify.keygen(tmp_path / "other.pem"), "test")
    with pytest.raises(UpdateError, match="does not verify"):
        verify.check_release(wheel, sums, sig, [other])
    with pytest.raises(UpdateError, match="trusts no release key"):
        verify.check_release(wheel, sums, sig, [])
    with pytest.raises(UpdateError, match="unsigned"):
        verify.check_release(wheel, sums, None, [public])
    wheel.write_bytes(b"PK other")
    with pytest.raises(UpdateError, match="checksum"):
        verify.check_release(wheel, sums, sig, [public])


def test_the_key_override_is_read_from_its_file(tmp_path: Path) -> None:
    pub = tmp_path / "p"
    pub.write_text(verify.keygen(tmp_path / "k") + "\n")
    assert len(keys.trusted({keys.ENV: str(pub)})) == 1
    assert keys.trusted({}) == [keys.decode_public(k, "") for k in keys.TRUSTED]
    pub.write_text("not a key")
    with pytest.raises(UpdateError):
        keys.trusted({keys.ENV: str(pub)})


def test_a_migration_that_cannot_be_rolled_back_waits_for_the_operator() -> None:
    cur = {"version": "1.0.0", "schema": 1, "reads": [1, 1]}
    apply.check_schema(cur, {"version": "1.1.0", "schema": 1, "reads": [1, 1]}, False)
    new = {"version": "2.0.0", "schema": 2, "reads": [1, 2]}
    with pytest.raises(UpdateError, match="waiting for the operator"):
        apply.check_schema(cur, new, False)
    apply.check_schema(cur, new, True)
    # reversible: the current release can already open schema 2
    apply.check_schema({**cur, "reads": [1, 2]}, new, False)
    with pytest.raises(UpdateError, match="cannot open this box's database"):
        apply.check_schema({"version": "3", "schema": 3, "reads": [3, 3]}, new, True)


def test_playing_means_a_connected_person_at_a_game_in_play() -> None:
    def table(status: str, **seat: object) -> dict[str, object]:
        s = {"controller": "human", "connected": True, "covered": False, **seat}
        return {"id": "1", "status": status, "seats": [s]}

    assert rollback.busy_tables([table("playing")]) == ["1"]
    assert rollback.busy_tables([table("finished")]) == []
    assert rollback.busy_tables([table("playing", connected=False)]) == []
    assert rollback.busy_tables([table("playing", covered=True)]) == []
    assert rollback.busy_tables([table("playing", controller="ai")]) == []


def _fake_release(releases: Path, version: str) -> None:
    (releases / version).mkdir(parents=True)
    (releases / version / "RELEASE.json").write_text(json.dumps(
        {"version": version, "installed_at": float(version.split(".")[1])}))


def test_links_point_only_at_complete_releases_and_tidy_keeps_them(tmp_path: Path) -> None:
    for v in ("1.1.0", "1.2.0", "1.3.0", "1.4.0"):
        _fake_release(tmp_path, v)
    (tmp_path / "1.5.0").mkdir()  # an install a power cut interrupted
    with pytest.raises(UpdateError, match="not completely installed"):
        switch.point(tmp_path, "current", "1.5.0")
    switch.switch(tmp_path, "1.1.0")
    assert switch.switch(tmp_path, "1.2.0") == "1.1.0"
    assert os.readlink(tmp_path / "current") == "1.2.0"
    assert switch.linked(tmp_path, "previous") == "1.1.0"
    assert switch.swap(tmp_path) == ("1.1.0", "1.2.0")
    removed = switch.tidy(tmp_path, keep=3)
    assert sorted(removed) == ["1.3.0", "1.5.0"]
    assert switch.installed(tmp_path) == ["1.1.0", "1.2.0", "1.4.0"]


async def test_without_a_trusted_key_the_daemon_never_asks_the_feed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that trusts no release key would refuse every release: it sends nothing."""
    import trio

    from hostd.update import task
    from tests.hostd.helpers import test_config

    monkeypatch.delenv(keys.ENV, raising=False)
    monkeypatch.setattr(keys, "TRUSTED", ())
    asked: list[str] = []
    monkeypatch.setattr(task, "_check", lambda config: asked.append("feed") or {})
    config = test_config(tmp_path / "data", tmp_path / "c.sock", update="check",
                         update_interval=0.01)

    class Hub:
        update_check: dict[str, object] | None = None

    hub = Hub()
    with trio.fail_after(5):
        await task.run_updates(config, hub)  # returns at once: nothing to check with
    assert asked == [] and hub.update_check is not None
    assert "no trusted release key" in str(hub.update_check["error"])
