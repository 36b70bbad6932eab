"""Config: strict validation (one line naming the key), precedence and the record of sources."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hostd import config as cfg
from hostd.config import Config, ConfigError, load

EMPTY_ENV: dict[str, str] = {"XDG_STATE_HOME": "/srv/state", "XDG_RUNTIME_DIR": "/srv/run"}


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "config.toml"
    p.write_text(text, encoding="utf-8")
    return p


def error_of(tmp_path: Path, text: str) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        load(write(tmp_path, text), environ=EMPTY_ENV)
    assert "\n" not in str(e.value)
    return e.value


def test_defaults_without_a_file() -> None:
    loaded = load(environ=EMPTY_ENV)
    assert loaded.file is None
    assert loaded.config == Config(data_dir=Path("/srv/state/tablebox"),
                                   control=Path("/srv/run/tablebox/control.sock"))
    assert {s.kind for s in loaded.sources.values()} == {"default"}


def test_every_key_from_a_file(tmp_path: Path) -> None:
    p = write(tmp_path, """
box_name = "Café Luna"
bind = "::"
tcp_port = 7000
http_port = 80
data_dir = "/var/lib/tb"
control = "/run/tb/c.sock"
mdns = false
mdns_interfaces = ["wlan0", "eth0"]
mdns_backend = "zeroconf"
bluetooth = false
ai_speed = 0
grace_seconds = 45
turn_timer = 30.5
seat_release_after = 300
archive_finished_after = 0
archive_abandoned_after = 7200.5
log_level = "debug"
log_file = false
log_file_bytes = 1048576
log_file_backups = 0
sync_commits = false
update = "apply-when-idle"
update_feed = "http://127.0.0.1:8000/releases"
update_interval = 60
releases_dir = "/srv/tb/releases"
update_restart_command = "supervisorctl restart tablebox"
update_apply_command = "tablebox update --apply --auto"
update_start_timeout = 30
update_trial_seconds = 10
max_connections = 500
max_connections_per_address = 16
hotspot = "auto"
hotspot_interface = "wlan1"
hotspot_ssid = "Café Luna Wi-Fi"
hotspot_passphrase = "correct horse battery"
hotspot_address = "10.77.0.1/24"
player_tables = false
max_tables = 4
""")
    loaded = load(p, environ=EMPTY_ENV)
    c = loaded.config
    assert (c.box_name, c.bind, c.tcp_port, c.http_port) == ("Café Luna", "::", 7000, 80)
    assert (c.data_dir, c.control) == (Path("/var/lib/tb"), Path("/run/tb/c.sock"))
    assert (c.mdns, c.mdns_interfaces, c.mdns_backend, c.bluetooth) == (
        False, ("wlan0", "eth0"), "zeroconf", False)
    assert (c.ai_speed, c.grace_seconds, c.turn_timer) == (0.0, 45.0, 30.5)
    assert isinstance(c.ai_speed, float) and isinstance(c.grace_seconds, float)
    assert (c.log_level, c.log_file, c.log_file_bytes, c.log_file_backups) == (
        "debug", False, 1048576, 0)
    assert c.sync_commits is False
    assert (c.update, c.update_feed, c.update_interval, c.releases_dir) == (
        "apply-when-idle", "http://127.0.0.1:8000/releases", 60.0, Path("/srv/tb/releases"))
    assert (c.update_restart_command, c.update_apply_command) == (
        "supervisorctl restart tablebox", "tablebox update --apply --auto")
    assert (c.update_start_timeout, c.update_trial_seconds) == (30.0, 10.0)
    assert (c.max_connections, c.max_connections_per_address) == (500, 16)
    assert (c.player_tables, c.max_tables) == (False, 4)
    assert (c.hotspot, c.hotspot_interface, c.hotspot_ssid, c.hotspot_passphrase,
            c.hotspot_address) == ("auto", "wlan1", "Café Luna Wi-Fi", "correct horse battery",
                                   "10.77.0.1/24")
    assert all(s == cfg.Source("file", str(p)) for s in loaded.sources.values())


@pytest.mark.parametrize(("text", "key", "allowed"), [
    ("tcp_port = 70000", "tcp_port", "an integer 0-65535"),
    ("tcp_port = -1", "tcp_port", "an integer 0-65535"),
    ('tcp_port = "7420"', "tcp_port", "an integer 0-65535"),
    ("http_port = true", "http_port", "an integer 0-65535"),
    ("http_port = 80.0", "http_port", "an integer 0-65535"),
    ('log_level = "verbose"', "log_level", '"debug", "info", "warning", "error"'),
    ('log_level = "INFO"', "log_level", '"debug", "info", "warning", "error"'),
    ('bind = "my-box.local"', "bind", "an IP address"),
    ('hotspot = "yes"', "hotspot", '"off", "on", "auto"'),
    ('hotspot_passphrase = "short"', "hotspot_passphrase", "8-63 printable ASCII"),
    ('hotspot_ssid = "' + "x" * 33 + '"', "hotspot_ssid", "0-32 bytes"),
    ('hotspot_address = "10.42.0.0/24"', "hotspot_address", "with its prefix"),
    ('hotspot_address = "8.8.8.1/24"', "hotspot_address", "with its prefix"),
    ('hotspot_address = "10.42.0.1"', "hotspot_address", "with its prefix"),
    ('bind = "300.1.1.1"', "bind", "an IP address"),
    ("mdns = 1", "mdns", "true or false"),
    ('mdns = "yes"', "mdns", "true or false"),
    ('data_dir = "relative/dir"', "data_dir", "an absolute path"),
    ('box_name = ""', "box_name", "a name of 1-63 bytes"),
    ('box_name = " padded"', "box_name", "a name of 1-63 bytes"),
    (f'box_name = "{"é" * 32}"', "box_name", "a name of 1-63 bytes"),
    ('box_name = "two\\nlines"', "box_name", "a name of 1-63 bytes"),
    ("ai_speed = 11", "ai_speed", "a number 0-10"),
    ("ai_speed = nan", "ai_speed", "a number 0-10"),
    ("grace_seconds = -1", "grace_seconds", "a number 0-3600"),
    ('mdns_interfaces = "wlan0"', "mdns_interfaces", "a list of distinct interface names"),
    ('mdns_interfaces = ["wlan0", "wlan0"]', "mdns_interfaces", "a list of distinct"),
    ('mdns_interfaces = ["a/b"]', "mdns_interfaces", "a list of distinct"),
    ('mdns_backend = "bonjour"', "mdns_backend", '"auto", "avahi", "zeroconf"'),
    ("log_file_bytes = 10", "log_file_bytes", "an integer 65536-1073741824"),
    ("max_connections = -1", "max_connections", "an integer 0-1000000 (0: as many as"),
    ('max_connections = "lots"', "max_connections", "an integer 0-1000000"),
    ("max_connections_per_address = 0", "max_connections_per_address", "an integer 1-100000"),
])
def test_a_bad_value_names_the_key_and_what_is_allowed(tmp_path: Path, text: str, key: str,
                                                       allowed: str) -> None:
    e = error_of(tmp_path, text)
    assert e.key == key
    assert str(e).startswith(f"{tmp_path / 'config.toml'}: {key} must be ")
    assert allowed in str(e)
    assert "(got " in str(e)


def test_unknown_key_suggests_the_near_one(tmp_path: Path) -> None:
    e = error_of(tmp_path, "tcp_prot = 7000")
    assert e.key == "tcp_prot"
    assert "unknown key 'tcp_prot' (did you mean 'tcp_port'?)" in str(e)
    assert "allowed keys: box_name, bind, tcp_port" in str(e)


def test_a_table_is_an_unknown_key(tmp_path: Path) -> None:
    e = error_of(tmp_path, "[server]\nport = 1\n")
    assert "unknown key 'server'" in str(e)


def test_broken_toml_is_one_line_with_the_position(tmp_path: Path) -> None:
    e = error_of(tmp_path, "tcp_port = = 3\n")
    assert "not valid TOML" in str(e) and "line 1" in str(e)


def test_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "config.toml"
    p.write_bytes(b'box_name = "\xff"\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        load(p, environ=EMPTY_ENV)


def test_equal_ports_are_refused(tmp_path: Path) -> None:
    e = error_of(tmp_path, "tcp_port = 8080\n")
    assert "tcp_port and http_port must differ" in str(e)


def test_an_explicit_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load(tmp_path / "missing.toml", environ=EMPTY_ENV)


def test_precedence_default_environment_file_flag(tmp_path: Path) -> None:
    env = {**EMPTY_ENV, "STATE_DIRECTORY": "/var/lib/tablebox", "RUNTIME_DIRECTORY": "/run/tablebox"}
    p = write(tmp_path, 'tcp_port = 7000\nhttp_port = 7001\ncontrol = "/run/other.sock"\n')
    loaded = load(p, flags={"http_port": 9000, "bind": None, "data_dir": Path("rel")},
                  environ=env)
    c, s = loaded.config, loaded.sources
    assert c.box_name == "tablebox" and s["box_name"].kind == "default"
    assert c.tcp_port == 7000 and s["tcp_port"] == cfg.Source("file", str(p))
    assert c.http_port == 9000 and s["http_port"] == cfg.Source("flag", "--http-port")
    # a flag's relative path is from the current directory
    assert c.data_dir == Path.cwd() / "rel" and s["data_dir"].kind == "flag"
    # the file beats the environment; the environment beats the default
    assert c.control == Path("/run/other.sock") and s["control"].kind == "file"
    assert s["bind"].kind == "default"
    only_env = load(environ=env)
    assert only_env.config.data_dir == Path("/var/lib/tablebox")
    assert only_env.sources["data_dir"] == cfg.Source("environment", "$STATE_DIRECTORY")
    assert only_env.config.control == Path("/run/tablebox/control.sock")
    assert only_env.sources["control"] == cfg.Source("environment", "$RUNTIME_DIRECTORY")


def test_a_flag_is_checked_like_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as e:
        load(flags={"bind": "nowhere"}, environ=EMPTY_ENV)
    assert str(e.value).startswith("--bind: bind must be an IP address")
    with pytest.raises(ConfigError, match=r"^--tcp-port: tcp_port must be an integer 0-65535"):
        load(flags={"tcp_port": 99999}, environ=EMPTY_ENV)


def test_which_file_is_read(tmp_path: Path) -> None:
    assert cfg.config_file(None, EMPTY_ENV) == (None, False)
    assert cfg.config_file(Path("x.toml"), EMPTY_ENV) == (Path("x.toml"), True)
    assert cfg.config_file(None, {"TABLEBOX_CONFIG": "/a.toml"}) == (Path("/a.toml"), True)
    assert cfg.config_file(None, {"NOTIFY_SOCKET": "/run/systemd/notify"}) == (
        cfg.SERVICE_CONFIG, False)
    assert cfg.config_file(None, {"CONFIGURATION_DIRECTORY": "/etc/tb"}) == (
        Path("/etc/tb/config.toml"), False)
    # under systemd a missing file means defaults, and the note says so
    loaded = load(environ={**EMPTY_ENV, "CONFIGURATION_DIRECTORY": str(tmp_path / "none")})
    assert loaded.file is None and "does not exist" in loaded.file_note
    (tmp_path / "etc").mkdir()
    write(tmp_path / "etc", 'box_name = "Bar"\n')
    loaded = load(environ={**EMPTY_ENV, "CONFIGURATION_DIRECTORY": str(tmp_path / "etc")})
    assert loaded.config.box_name == "Bar" and loaded.file == tmp_path / "etc" / "config.toml"


def test_describe_lists_every_key_with_its_source(tmp_path: Path) -> None:
    p = write(tmp_path, "mdns = false\n")
    rows = load(p, flags={"tcp_port": 7001}, environ=EMPTY_ENV).describe()
    assert [r["key"] for r in rows] == list(cfg.KEYS)
    by_key = {r["key"]: r for r in rows}
    assert by_key["mdns"] == {"key": "mdns", "value": False, "type": "boolean",
                              "source": "file", "from": str(p)}
    assert by_key["tcp_port"]["source"] == "flag" and by_key["tcp_port"]["from"] == "--tcp-port"
    assert by_key["data_dir"]["value"] == "/srv/state/tablebox"
    assert by_key["mdns_interfaces"]["value"] == []


def test_the_default_file_parses_and_changes_only_what_it_sets(tmp_path: Path) -> None:
    text = cfg.render_default_file({"box_name": "Café", "http_port": 80})
    assert set(tomllib.loads(text)) == {"box_name", "http_port"}
    for name in cfg.KEYS:  # every key is documented in the file, commented out or set
        assert f"# {name} = " in text or f"\n{name} = " in text
    loaded = load(write(tmp_path, text), environ=EMPTY_ENV)
    assert loaded.config.box_name == "Café" and loaded.config.http_port == 80
    # uncommenting any default line still gives a valid file with that default
    uncommented = "\n".join(line[2:] if line.startswith("# ") and " = " in line else line
                            for line in text.splitlines())
    full = load(write(tmp_path, uncommented), environ=EMPTY_ENV).config
    assert full.tcp_port == cfg.DEFAULT_TCP_PORT and full.data_dir == Path("/var/lib/tablebox")


def test_client_control_path_prefers_a_chosen_path() -> None:
    loaded = load(flags={"control": Path("/x/c.sock")}, environ=EMPTY_ENV)
    assert cfg.client_control_path(loaded.config, loaded.sources) == Path("/x/c.sock")


def test_an_operator_sees_the_installed_service(tmp_path: Path) -> None:
    unit = tmp_path / "tablebox.service"
    plain = cfg.load_for_operator(environ=EMPTY_ENV, unit=unit)
    assert not plain.service_view and plain.config.data_dir == Path("/srv/state/tablebox")
    unit.write_text("[Service]\n")
    seen = cfg.load_for_operator(environ=EMPTY_ENV, unit=unit)
    assert seen.service_view
    assert seen.config.data_dir == Path("/var/lib/tablebox")
    assert seen.config.control == cfg.SERVICE_CONTROL
    assert seen.sources["data_dir"] == cfg.Source("environment", "$STATE_DIRECTORY")
    # a file named on the command line is what the operator means
    named = cfg.load_for_operator(write(tmp_path, "mdns = false\n"), environ=EMPTY_ENV, unit=unit)
    assert not named.service_view and named.config.mdns is False


def test_the_operations_guide_documents_every_key() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    for name, key in cfg.KEYS.items():
        row = next((line for line in guide.splitlines() if line.startswith(f"| `{name}` |")),
                   None)
        assert row is not None, f"docs/operations.md has no row for {name}"
        assert f"| {key.type} |" in row, (name, key.type)
        default = getattr(Config(), name)
        if not isinstance(default, Path):
            shown = cfg.toml_value(default)
            assert f"`{shown}`" in row, (name, shown)
