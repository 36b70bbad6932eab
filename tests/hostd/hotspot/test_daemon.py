"""The hotspot inside a running daemon: ``tablebox hotspot status|on|off`` through the control
socket, the Wi-Fi QR text in every welcome while it is up, and a daemon whose system bus has no
NetworkManager saying why in one line while it serves everything else."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import trio
from click.testing import CliRunner

from clients.client import connect
from hostd.cli import main
from hostd.hotspot import wifiqr
from tests.hostd.discovery.bluez import private_bus
from tests.hostd.helpers import short_dir, start_process
from tests.hostd.hotspot.nmstandin import Dev, standin_nm


@pytest.fixture
def bus() -> Iterator[str]:
    with private_bus() as address:
        yield address


def wifi_in_welcome(port: int) -> str:
    async def hello() -> str:
        async with connect(port=port) as client:
            assert client.welcome is not None
            return client.welcome.wifi
    return trio.run(hello)


def cli(control: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["hotspot", *args, "--control", str(control)])
    return result.exit_code, result.output


def settled(control: Path) -> None:
    """Until the hotspot task has had its first look (the control socket answers before)."""
    deadline = time.monotonic() + 10
    while json.loads(cli(control, "status", "--json")[1])["state"] == "starting":
        assert time.monotonic() < deadline, "the hotspot stayed in state starting"
        time.sleep(0.05)


def config(tmp: Path, mode: str) -> str:
    path = tmp / "config.toml"
    # A loopback address stands in for the one NetworkManager puts on the Wi-Fi interface.
    path.write_text(f'hotspot = "{mode}"\nhotspot_address = "127.43.0.1/24"\n'
                    'box_name = "Salle Bleue"\n')
    return str(path)


async def test_the_operator_turns_it_off_and_on_and_phones_get_the_qr(bus: str) -> None:
    tmp = short_dir()
    async with standin_nm(bus) as fake:
        d = await trio.to_thread.run_sync(lambda: start_process(
            tmp / "data", tmp / "c.sock", "--config", config(tmp, "on"),
            env={"DBUS_SYSTEM_BUS_ADDRESS": bus}))
        try:
            await trio.to_thread.run_sync(settled, d.control)
            code, out = await trio.to_thread.run_sync(cli, d.control, "status", "--json")
            st = json.loads(out)
            assert code == 0 and (st["state"], st["ssid"], st["address"]) == (
                "on", "tablebox Salle Bleue", "127.43.0.1")
            psk = fake.asked[-1]["802-11-wireless-security"]["psk"][1]
            assert wifiqr.parse(st["wifi"]) == {"T": "WPA", "S": "tablebox Salle Bleue",
                                                "P": psk}
            assert await trio.to_thread.run_sync(wifi_in_welcome, d.tcp_port) == st["wifi"]

            code, out = await trio.to_thread.run_sync(cli, d.control)  # alone: the status
            assert code == 0 and "hotspot on (mode on)" in out
            assert "page     http://127.43.0.1:" in out and "\u2588" in out  # the QR blocks

            code, out = await trio.to_thread.run_sync(cli, d.control, "off")
            assert code == 0 and out.startswith("hotspot off") and fake.active == {}
            assert await trio.to_thread.run_sync(wifi_in_welcome, d.tcp_port) == ""
            code, out = await trio.to_thread.run_sync(cli, d.control, "on", "--json")
            assert code == 0 and json.loads(out)["state"] == "on" and len(fake.active) == 1
        finally:
            d.kill()


def test_no_network_manager_is_one_reason_and_the_rest_serves(bus: str) -> None:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock", "--config", config(tmp, "on"),
                      env={"DBUS_SYSTEM_BUS_ADDRESS": bus})
    try:
        settled(d.control)
        code, out = cli(d.control, "status")
        assert code == 0 and out.startswith("hotspot off (mode on)")
        assert "reason   NetworkManager is not running" in out
        assert wifi_in_welcome(d.tcp_port) == ""  # the daemon serves players all the same
    finally:
        d.kill()


def test_hotspot_off_in_the_config_refuses_on_in_one_line() -> None:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock")
    try:
        code, out = cli(d.control, "status")
        assert code == 0 and 'hotspot = "off" in the config' in out
        code, out = cli(d.control, "on")
        assert code == 1 and out.count("\n") == 1 and "the hotspot task is not running" in out
    finally:
        d.kill()


def doctor_says(config_file: str, control: Path) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["doctor", "--json", "--config", config_file,
                                       "--control", str(control)])
    (check,) = [c for c in json.loads(result.output)["checks"] if c["name"] == "hotspot"]
    return cast(dict[str, Any], check)


async def test_doctor_asks_network_manager_without_changing_anything(
        bus: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", bus)
    tmp = short_dir()
    conf, nobody = config(tmp, "on"), tmp / "nobody.sock"
    check = await trio.to_thread.run_sync(doctor_says, conf, nobody)
    assert check["status"] == "fail" and "NetworkManager is not running" in check["detail"]
    assert "network-manager" in check["fix"]
    async with standin_nm(bus) as fake:
        check = await trio.to_thread.run_sync(doctor_says, conf, nobody)
        assert check["status"] == "ok" and "wlan0 can be an access point" in check["detail"]
        assert fake.settings == {} and fake.active == {}  # asked, not started
        fake.devices = [Dev("wlan0", caps=0x0F)]  # a driver without AP mode
        check = await trio.to_thread.run_sync(doctor_says, conf, nobody)
        assert check["status"] == "fail" and "cannot be an access point" in check["detail"]


async def test_doctor_reads_the_running_daemons_hotspot(bus: str) -> None:
    tmp = short_dir()
    conf = config(tmp, "on")
    async with standin_nm(bus):
        d = await trio.to_thread.run_sync(lambda: start_process(
            tmp / "data", tmp / "c.sock", "--config", conf, env={"DBUS_SYSTEM_BUS_ADDRESS": bus}))
        try:
            await trio.to_thread.run_sync(settled, d.control)
            check = await trio.to_thread.run_sync(doctor_says, conf, d.control)
            assert check["status"] == "ok"
            assert check["detail"].startswith("on: tablebox Salle Bleue on wlan0, page http://")
            await trio.to_thread.run_sync(cli, d.control, "off")
            check = await trio.to_thread.run_sync(doctor_says, conf, d.control)
            assert (check["status"], check["detail"]) == ("ok", "off (mode off): turned off")
        finally:
            d.kill()
