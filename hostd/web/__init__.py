"""The HTTP port: the web client's files, the WebSocket endpoint and QR codes (``server``)."""
