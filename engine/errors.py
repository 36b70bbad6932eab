"""Errors raised by the rules layer.

Every error a peer can provoke carries a stable ``code`` (snake_case) that hosts send on the
wire and clients translate, and a human ``detail`` for logs and developers. Details must never
name a hidden card: they are built only from what the acting seat already knows.
"""

from __future__ import annotations

from collections.abc import Sequence

# Stable codes for illegal actions. Games may add their own, but these are the shared ones.
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL_ACTION = "illegal_action"
GAME_OVER = "game_over"
BAD_ACTION = "bad_action"  # malformed: unknown type, wrong fields
BAD_CHANCE = "bad_chance"  # a pinned chance outcome that is not a possible one
NO_CHANCE_PENDING = "no_chance_pending"
CHANCE_PENDING = "chance_pending"


class EngineError(Exception):
    """Base of every error raised by ``engine``."""


class OptionError(EngineError, ValueError):
    """Bad table options or player count. Names the option and what is allowed."""

    def __init__(self, option: str, message: str, allowed: Sequence[object] | str = ()) -> None:
        self.option = option
        self.message = message
        self.allowed = allowed
        allowed_text = allowed if isinstance(allowed, str) else ", ".join(str(a) for a in allowed)
        text = f"option {option!r}: {message}"
        if allowed_text:
            text += f" (allowed: {allowed_text})"
        super().__init__(text)

    def __reduce__(self) -> tuple[type, tuple[str, str, Sequence[object] | str]]:
        # Errors cross process boundaries (AI worker pools): rebuild from the real arguments.
        return (type(self), (self.option, self.message, self.allowed))


class IllegalAction(EngineError):
    """An action (or pinned chance outcome) that the rules refuse. The state is unchanged."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}" if detail else code)

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return (type(self), (self.code, self.detail))


class CodecError(EngineError, ValueError):
    """Data that does not decode into the expected plain-data type."""


class RecordError(EngineError, ValueError):
    """A game record that is malformed (not one whose steps are illegal: see ReplayResult)."""
