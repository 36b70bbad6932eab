"""Transports: NDJSON over TCP, JSON text frames over WebSocket, NDJSON over Bluetooth RFCOMM.

Each adapts its link to ``FrameLink`` and hands it to the one transport-agnostic session
handler, so every transport speaks exactly the same protocol with the same checks.
"""
