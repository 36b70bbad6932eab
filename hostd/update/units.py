"""The updater's systemd pieces: its oneshot unit, its daily timer, and the polkit rule that
lets the daemon start that one unit.

This module is the one source of ``systemd/tablebox-update.service`` and
``systemd/tablebox-update.timer`` (a test keeps the committed files equal to what it renders)
and of the rule ``tablebox service install`` writes. It only renders text: it never touches
the system and never decides when an update runs.
"""

from __future__ import annotations

from pathlib import Path

SERVICE_NAME = "tablebox-update.service"
TIMER_NAME = "tablebox-update.timer"
SERVICE_PATH = Path("/etc/systemd/system") / SERVICE_NAME
TIMER_PATH = Path("/etc/systemd/system") / TIMER_NAME
POLKIT_PATH = Path("/etc/polkit-1/rules.d/50-tablebox-update.rules")
DEFAULT_TABLEBOX = "/opt/tablebox/releases/current/venv/bin/tablebox"

_SERVICE = """\
# tablebox: apply the newest signed release, waiting until no one is playing
# (docs/operations.md, "Updates"). Started by tablebox-update.timer, or by the daemon itself
# with update = "apply-when-idle" (update_apply_command). It runs outside tablebox.service
# because it restarts that service and must watch the new release come up (and roll back).
[Unit]
Description=tablebox: apply the newest signed release when no one is playing
Wants=network-online.target
After=network-online.target tablebox.service

[Service]
Type=oneshot
# root: it writes /opt/tablebox/releases (which the service itself cannot) and restarts
# tablebox.service. --auto skips a release that was rolled back before.
ExecStart={tablebox} update --apply --auto
NoNewPrivileges=yes
ProtectHome=yes
PrivateTmp=yes
"""

_TIMER = """\
# tablebox: try an update once a day (docs/operations.md, "Updates"); the run waits for idle.
[Unit]
Description=tablebox: daily update from the signed release feed

[Timer]
OnCalendar=daily
RandomizedDelaySec=2h
Persistent=true

[Install]
WantedBy=timers.target
"""

_POLKIT = """\
// tablebox: the daemon (user {user}) may start the updater's unit, and nothing else, so that
// update = "apply-when-idle" can apply a release it found (docs/operations.md, "Updates").
// Written by `tablebox service install`; removed by `tablebox service uninstall`.
polkit.addRule(function (action, subject) {{
  if (action.id == "org.freedesktop.systemd1.manage-units" &&
      action.lookup("unit") == "{unit}" &&
      action.lookup("verb") == "start" && subject.user == "{user}") {{
    return polkit.Result.YES;
  }}
}});
"""


def tablebox_of(exec_start: str) -> str:
    """The ``tablebox`` command of a service's ExecStart (``.../bin/tablebox serve`` ->
    ``.../bin/tablebox``; ``python -m hostd.cli serve`` -> ``python -m hostd.cli``)."""
    words = exec_start.split()
    if words and words[-1] == "serve":
        words = words[:-1]
    return " ".join(words) or DEFAULT_TABLEBOX


def render_service(tablebox: str = DEFAULT_TABLEBOX) -> str:
    return _SERVICE.format(tablebox=tablebox)


def render_timer() -> str:
    return _TIMER


def render_polkit_rule(user: str) -> str:
    return _POLKIT.format(user=user, unit=SERVICE_NAME)
