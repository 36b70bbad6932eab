"""``tcp_socket_fd`` finds this process's socket by its two addresses (what ``abort`` shuts).

Real sockets on loopback, IPv4 and IPv6: the descriptor found is the accepted socket's, the
client's own is found from its side, and a pair of addresses no socket has gives None.
"""

from __future__ import annotations

import socket

import pytest

from hostd.transports.websocket import tcp_socket_fd


@pytest.mark.parametrize("family,host", [(socket.AF_INET, "127.0.0.1"),
                                         (socket.AF_INET6, "::1")])
def test_the_socket_of_a_connection_is_found_by_its_addresses(family: int, host: str) -> None:
    with socket.socket(family, socket.SOCK_STREAM) as listener:
        try:
            listener.bind((host, 0))
        except OSError:
            pytest.skip(f"no {host} on this machine")
        listener.listen()
        with socket.socket(family, socket.SOCK_STREAM) as client:
            client.connect(listener.getsockname()[:2])
            accepted, _ = listener.accept()
            with accepted:
                local = accepted.getsockname()[:2]
                peer = accepted.getpeername()[:2]
                assert tcp_socket_fd(local, peer) == accepted.fileno()
                assert tcp_socket_fd(peer, local) == client.fileno()
                assert tcp_socket_fd(local, (host, 1)) is None
