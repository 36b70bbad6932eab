"""The top of the layers: the umbrella ``tablebox`` command (``tablebox.cli``)."""
