"""Thin tablebox clients: they render redacted views and never decide what is legal."""
