"""One log line for something a peer can make happen many times a second.

A peer sending garbage must not be able to write the log for us: ``Throttled`` writes its
event when the first occurrence comes, then at most once per ``every`` seconds, each line
with the counts of what happened since the one before (what happened after the last line
is in the next one). It never logs a frame's content, only what kind of thing happened.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any


class Throttled:
    """Counts of ``event`` (by kind), logged at ``info`` at most once per ``every`` seconds."""

    def __init__(self, logger: Any, event: str, every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.event = event
        self.every = every
        self.clock = clock
        self.counts: Counter[str] = Counter()  # since the last line
        self.last = -float("inf")  # when the last line was written

    def note(self, kind: str, **context: str | int) -> None:
        """One more ``kind``; ``context`` (of this occurrence) goes on the line if it is due."""
        self.counts[kind] += 1
        now = self.clock()
        if now - self.last < self.every:
            return
        counts = dict(sorted(self.counts.items()))
        self.counts.clear()
        self.logger.info(self.event, **context, counts=counts)
        self.last = now
