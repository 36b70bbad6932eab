"""The tablebox host daemon: a trio shell around pure table cores."""

__version__ = "0.1.0"
