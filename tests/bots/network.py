"""Tries to connect to 127.0.0.1 on the port PORT (the test writes it in), says how
it went on stderr, then plays well."""

import socket
import sys

import first_pit

PORT = 0
port = PORT
try:
    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    print("connected", file=sys.stderr)
except OSError as exc:
    print(f"no connection: {exc}", file=sys.stderr)
first_pit.play()
