"""The kiosk: a pygame screen that shows the box's tables to a room.

pygame prints a greeting banner when it is first imported unless told not to; set that here,
before any module of this package imports pygame, so an operator sees the kiosk's own one-line
errors and nothing else.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
