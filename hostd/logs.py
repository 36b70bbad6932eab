"""Structured logging for the daemon (structlog): configuration and the logger factory.

Every daemon module logs through ``get_logger(__name__)`` with snake_case verb events and
context (table, seat, conn, game). Nothing hidden (a card of a hand, a token, a seed) may be
logged above debug. Rendering (console on a TTY, JSON with syslog priority under systemd, a
rotated JSON file) is configured here by ``configure``.
"""

from __future__ import annotations

from typing import Any

import structlog


def get_logger(name: str = "tablebox", **context: Any) -> Any:
    return structlog.get_logger(name).bind(**context) if context else structlog.get_logger(name)
