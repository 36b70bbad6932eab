"""Catalogue entries: what a game is called, who can play it, and its typed options.

A ``GameInfo`` is pure description; ``parse_options`` turns user-supplied option values
(already typed, or text from a command line) into a complete, validated options dict, or
raises ``OptionError`` naming the option and the allowed values. It never guesses: an
unknown option is an error, not ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.codec import to_data
from engine.errors import OptionError
from engine.presentation import GENERIC, Presentation

OptionKind = Literal["bool", "int", "choice"]


@dataclass(frozen=True)
class Option:
    """One table option. ``choices`` for kind "choice"; ``minimum``/``maximum`` for "int"."""

    name: str
    kind: OptionKind
    default: bool | int | str | None
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False  # an int option whose default None means "decided by the rules"

    def allowed_text(self) -> str:
        if self.kind == "bool":
            text = "true, false"
        elif self.kind == "choice":
            text = ", ".join(self.choices)
        else:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            text = f"integer {lo}..{hi}" if (lo or hi) else "integer"
        return text + (", or unset" if self.nullable else "")

    def coerce(self, value: object) -> bool | int | str | None:
        """Check (and, for text, convert) one value; raise OptionError if not allowed."""
        if value is None:
            if self.nullable:
                return None
            raise OptionError(self.name, "a value is required", self.allowed_text())
        if isinstance(value, str) and self.kind != "choice":
            value = self._from_text(value)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(self.name, f"expected true or false, got {value!r}", "true, false")
            return value
        if self.kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise OptionError(
                    self.name, f"expected an integer, got {value!r}", self.allowed_text()
                )
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise OptionError(self.name, f"{value} is out of range", self.allowed_text())
            return value
        if not isinstance(value, str) or value not in self.choices:
            raise OptionError(self.name, f"{value!r} is not a choice", self.choices)
        return value

    def _from_text(self, text: str) -> object:
        t = text.strip().lower()
        if self.kind == "bool":
            if t in ("true", "yes", "on", "1"):
                return True
            if t in ("false", "no", "off", "0"):
                return False
            raise OptionError(self.name, f"expected true or false, got {text!r}", "true, false")
        if self.nullable and t in ("", "none", "null", "auto"):
            return None
        try:
            return int(t)
        except ValueError:
            raise OptionError(
                self.name, f"expected an integer, got {text!r}", self.allowed_text()
            ) from None

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "description": self.description,
        }
        if self.kind == "choice":
            d["choices"] = list(self.choices)
        if self.kind == "int":
            d["minimum"] = self.minimum
            d["maximum"] = self.maximum
            d["nullable"] = self.nullable
        return d


@dataclass(frozen=True)
class GameInfo:
    """A catalogue entry."""

    id: str
    title: str
    players: tuple[int, ...]  # every allowed player count
    default_players: int
    rules_version: str
    summary: str
    teams: str  # one line: how seats form sides
    options: tuple[Option, ...] = field(default=())
    # How clients draw it (engine/presentation.py); a game without one is drawn generically.
    presentation: Presentation = GENERIC

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise OptionError(name, "unknown option", [o.name for o in self.options] or "none")

    def check_players(self, players: int) -> None:
        if players not in self.players:
            raise OptionError(
                "players", f"{self.title} cannot be played by {players}", self.players
            )

    def parse_options(self, raw: Mapping[str, object] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``raw``; every value checked. Cross-option checks are the game's."""
        raw = dict(raw or {})
        out: dict[str, Any] = {}
        for name in raw:
            self.option(name)  # raises for unknown names
        for o in self.options:
            out[o.name] = o.coerce(raw[o.name]) if o.name in raw else o.default
        return out

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "players": list(self.players),
            "default_players": self.default_players,
            "rules_version": self.rules_version,
            "summary": self.summary,
            "teams": self.teams,
            "options": [o.describe() for o in self.options],
            "presentation": to_data(self.presentation),
        }



def parse_assignments(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``["a=1", "b=x"]`` as typed on a command line -> ``{"a": "1", "b": "x"}``."""
    out: dict[str, str] = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            raise OptionError(p, "expected KEY=VALUE")
        out[key.strip()] = value.strip()
    return out
