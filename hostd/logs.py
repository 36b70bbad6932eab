"""Structured logging for the daemon (structlog): configuration, redaction and the logger factory.

Every daemon module logs through ``get_logger(__name__)`` with snake_case verb events and
context (table, seat, conn, game). ``configure`` sends every event, ours and the libraries'
(hypercorn, zeroconf: stdlib ``logging``), through one pipeline to:

- stdout: a coloured console renderer on a terminal (warnings and errors only when the file
  below holds every event, so the operator's first lines are the daemon's own "listening /
  join at" words, not its start-up chatter); one JSON line per event with a ``<N>``
  syslog priority prefix when stdout is the journal (journald strips it and keeps the level);
  plain JSON lines otherwise (a pipe, a container);
- a size-bounded, rotated JSON-lines file in the state directory, for boxes without journald.

Every JSON line carries ``timestamp`` (ISO 8601 UTC), ``level``, ``event`` and the context.

Redaction is the last step before any rendering, so it also sees library records and rendered
tracebacks (which never carry frame locals). It is a safety net, not the policy: callers must
not log secrets at all. A token is never logged at any level; a hidden card list, a hand, a
deck, a seed, a state or a seat's view only at debug. This module never prints on its own.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import re
import sys
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TextIO

import structlog
from structlog.typing import EventDict, Processor, WrappedLogger

REDACTED = "[redacted]"
# Keys whose values are credentials: redacted at every level.
SECRET_KEYS = frozenset({"token", "tokens", "secret", "password", "credential", "cookie",
                         "authorization"})
# Keys whose values may show hidden information: kept at debug only.
# ("action" is not one: daemon code uses it for what the operator should do; a hidden action
# such as passing cards is caught by its card list.)
HIDDEN_KEYS = frozenset({"seed", "rng", "hand", "hands", "deck", "stock", "talon", "kitty",
                         "hidden", "state", "view", "legal", "cards"})
_CARD = r"(?:10|[AKQJT2-9])[SHDC]"
_CARD_RE = re.compile(rf"^{_CARD}$")
_CARD_RUN = re.compile(rf"\b{_CARD}(?:[\s,;/]+{_CARD})+\b")  # "AS KH 7D" in free text
_TOKEN_TEXT = re.compile(r"(?i)\b(token|secret|password)(\s*[=:]\s*|\s+)(?!\[redacted\])\S+")
_SEED_TEXT = re.compile(r"(?i)\b(seed)(\s*[=:]\s*|\s+)(?!\[redacted\])[0-9A-Za-z_-]+")

PRIORITY = {"debug": 7, "info": 6, "warning": 4, "error": 3, "critical": 2}
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR, "critical": logging.CRITICAL}
# Libraries that chatter at info/debug about their own machinery.
QUIET_LIBRARIES = ("zeroconf", "hypercorn.access", "asyncio", "trio-websocket", "httpx",
                   "httpcore")
FIRST_KEYS = ("timestamp", "level", "event", "logger")

Mode = Literal["auto", "console", "json", "journal"]


def get_logger(name: str = "tablebox", **context: Any) -> Any:
    return structlog.get_logger(name).bind(**context) if context else structlog.get_logger(name)


# -- redaction ------------------------------------------------------------------------------------
def _is_card_list(value: Any) -> bool:
    return (isinstance(value, list | tuple | set | frozenset) and len(value) >= 1
            and all(isinstance(c, str) and _CARD_RE.match(c) for c in value))


def _scrub_text(text: str, hide: bool) -> str:
    if len(text) < 5:  # shorter than "AS KH" or "seed 1": nothing to find (most context)
        return text
    low = text.lower()
    if "token" in low or "secret" in low or "password" in low:
        text = _TOKEN_TEXT.sub(lambda m: m.group(1) + m.group(2) + REDACTED, text)
    if hide:
        if "seed" in low:
            text = _SEED_TEXT.sub(lambda m: m.group(1) + m.group(2) + REDACTED, text)
        text = _CARD_RUN.sub(REDACTED, text)
    return text


def _scrub(value: Any, hide: bool, depth: int = 0) -> Any:
    if isinstance(value, str):
        return _scrub_text(value, hide)
    if depth > 8:
        return value
    if isinstance(value, Mapping):
        return {k: _scrub_item(k, v, hide, depth + 1) for k, v in value.items()}
    if hide and _is_card_list(value):
        return REDACTED
    if isinstance(value, list | tuple):
        return [_scrub(v, hide, depth + 1) for v in value]
    return value


def _scrub_item(key: Any, value: Any, hide: bool, depth: int) -> Any:
    name = str(key).lower()
    if name in SECRET_KEYS or name.endswith("_token"):
        return REDACTED
    if hide and (name in HIDDEN_KEYS or name.endswith("_seed")):
        return REDACTED
    return _scrub(value, hide, depth)


def redact(logger: WrappedLogger, method: str, event_dict: EventDict) -> EventDict:
    """Remove tokens always, and hidden cards, seeds and states above debug."""
    hide = event_dict.get("level", method) != "debug"
    for key in list(event_dict):
        if key == "level":
            continue
        event_dict[key] = _scrub_item(key, event_dict[key], hide, 0)
    return event_dict


# -- rendering -------------------------------------------------------------------------------------
def _order(logger: WrappedLogger, method: str, event_dict: EventDict) -> EventDict:
    """timestamp, level, event, logger first, so a tail reads left to right."""
    ordered = {k: event_dict.pop(k) for k in FIRST_KEYS if k in event_dict}
    ordered.update(event_dict)
    return ordered


def _dumps(obj: Any, **kw: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, default=_fallback, separators=(",", ":"))


def _fallback(obj: Any) -> Any:
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, set | frozenset):
        return sorted(obj, key=str)
    return repr(obj)


_json = structlog.processors.JSONRenderer(serializer=_dumps)


def console_renderer(colors: bool) -> Processor:
    return structlog.dev.ConsoleRenderer(colors=colors, sort_keys=False)


_dict_tracebacks = structlog.processors.ExceptionRenderer(
    structlog.tracebacks.ExceptionDictTransformer(show_locals=False, use_rich=False))

# Applied to every record, ours and stdlib ones, before the formatter's own chain.
_SHARED: list[Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    structlog.stdlib.PositionalArgumentsFormatter(),
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    structlog.processors.StackInfoRenderer(),
]


class _JSONFormatter(structlog.stdlib.ProcessorFormatter):
    """The JSON line of a record, rendered once and kept on the record, so the journal and
    the file (which share this formatter) do not each run the chain and redaction again."""

    def format(self, record: logging.LogRecord) -> str:
        line: str | None = getattr(record, "_tablebox_json", None)
        if line is None:
            line = super().format(record)
            record._tablebox_json = line
        return line


class _JournalFormatter(logging.Formatter):
    """``<N>`` + the JSON line: journald takes N as the entry's syslog priority."""

    def __init__(self, json_formatter: _JSONFormatter) -> None:
        super().__init__()
        self.json = json_formatter

    def format(self, record: logging.LogRecord) -> str:
        return f"<{PRIORITY.get(record.levelname.lower(), 6)}>{self.json.format(record)}"


class _RotatingFile(logging.handlers.RotatingFileHandler):
    """A RotatingFileHandler that formats each record once (the stdlib one formats it a
    second time just to measure it), and creates each file 0600 whatever the umask (it names
    tables and players: only the daemon's user reads it)."""

    def _open(self) -> Any:
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC,
                     0o600)
        return open(fd, "a", encoding=self.encoding, errors=self.errors)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record) + self.terminator
            if self.stream is None:
                self.stream = self._open()
            if self.maxBytes > 0 and self.stream.tell() + len(line.encode()) > self.maxBytes \
                    and self.stream.tell() > 0:
                self.doRollover()
            self.stream.write(line)
            self.flush()
        except Exception:
            self.handleError(record)


def _processor_formatter(final: list[Processor], cls: type[structlog.stdlib.ProcessorFormatter]
                         = structlog.stdlib.ProcessorFormatter
                         ) -> structlog.stdlib.ProcessorFormatter:
    return cls(processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *final],
               foreign_pre_chain=_SHARED)


def _json_formatter() -> _JSONFormatter:
    f = _processor_formatter([_dict_tracebacks, redact, _order, _json], _JSONFormatter)
    assert isinstance(f, _JSONFormatter)
    return f


def _console_formatter(colors: bool) -> logging.Formatter:
    return _processor_formatter([structlog.processors.format_exc_info, redact,
                                 console_renderer(colors=colors)])


def stdout_is_journal(stream: TextIO | None = None,
                      environ: Mapping[str, str] | None = None) -> bool:
    """True when ``stream`` is the journal: ``$JOURNAL_STREAM`` names its device and inode."""
    env = os.environ if environ is None else environ
    value = env.get("JOURNAL_STREAM", "")
    dev, _, ino = value.partition(":")
    try:
        st = os.fstat((stream or sys.stdout).fileno())
        return bool(value) and (st.st_dev, st.st_ino) == (int(dev), int(ino))
    except (OSError, ValueError, AttributeError):
        return False


def _pick_mode(stream: TextIO) -> Literal["console-color", "json", "journal"]:
    if stdout_is_journal(stream):
        return "journal"
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return "console-color" if tty else "json"


@dataclass(frozen=True)
class Setup:
    """What ``configure`` did, for the daemon's first log line and for tests."""

    mode: str
    level: str
    file: Path | None
    file_error: str = ""
    console_level: str = ""  # the terminal's own threshold when it is above ``level``


_handlers: list[logging.Handler] = []


def configure(level: str = "info", *, mode: Mode = "auto", file: Path | None = None,
              file_bytes: int = 5 * 1024 * 1024, file_backups: int = 3,
              stream: TextIO | None = None) -> Setup:
    """Route every log record to stdout (rendered for where it goes) and optionally a file.

    Safe to call again (tests, a reload): only the handlers this module added are replaced.
    A log file that cannot be opened is reported in ``Setup.file_error``, never raised: the
    daemon still runs and logs to stdout.
    """
    out = stream or sys.stdout
    kind: Literal["console", "console-color", "json", "journal"]
    kind = _pick_mode(out) if mode == "auto" else mode
    reset()
    root = logging.getLogger()
    as_json = _json_formatter()  # one per configure: shared by the journal and the file
    console = logging.StreamHandler(out)
    console.setFormatter(_console_formatter(kind == "console-color") if kind.startswith("console")
                         else _JournalFormatter(as_json) if kind == "journal" else as_json)
    _handlers.append(console)

    file_error = ""
    if file is not None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            rotating = _RotatingFile(file, maxBytes=file_bytes, backupCount=file_backups,
                                     encoding="utf-8")
            rotating.setFormatter(as_json)
            _handlers.append(rotating)
        except OSError as e:
            file_error = f"{file}: {e.strerror or e}"
            file = None

    # A person at a terminal reads the daemon's few plain lines (hostd.cli) and what needs
    # them; the file keeps every event at the configured level for `tablebox logs`.
    console_level = ""
    if kind == "console-color" and file is not None and LEVELS[level] < logging.WARNING:
        console.setLevel(logging.WARNING)
        console_level = "warning"
    for h in _handlers:
        root.addHandler(h)
    root.setLevel(LEVELS[level])
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(max(LEVELS[level], logging.WARNING))

    structlog.configure(
        processors=[structlog.stdlib.filter_by_level, *_SHARED,
                    structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    return Setup(mode=kind.removesuffix("-color"), level=level, file=file, file_error=file_error,
                 console_level=console_level)


def reset() -> None:
    """Undo ``configure``: remove our handlers and restore structlog's defaults (tests)."""
    root = logging.getLogger()
    for h in _handlers:
        root.removeHandler(h)
        h.close()
    _handlers.clear()
    structlog.reset_defaults()


def configure_from(config: Any, *, mode: Mode = "auto", stream: TextIO | None = None) -> Setup:
    """``configure`` with a ``hostd.config.Config``'s log settings."""
    return configure(config.log_level, mode=mode, stream=stream,
                     file=config.log_path if config.log_file else None,
                     file_bytes=config.log_file_bytes, file_backups=config.log_file_backups)


def render_console(event: MutableMapping[str, Any], colors: bool) -> str:
    """One parsed JSON log event as the console renderer shows it (``tablebox logs``), with
    its UTC timestamp shown in local time, as an operator reads a clock."""
    event = dict(event)
    ts = event.get("timestamp")
    if isinstance(ts, str):
        try:
            when = datetime.fromisoformat(ts.replace("Z", "+00:00"))
            event["timestamp"] = when.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        except ValueError:
            pass
    level = str(event.get("level", "info"))
    return str(console_renderer(colors)(None, level, event))
