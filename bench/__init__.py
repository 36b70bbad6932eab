"""Benchmarks (not tests): engines and AI (engine.py), the host under load (host.py)."""
