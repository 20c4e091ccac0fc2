"""What one connection to `judge serve` may hold, and for how long (docs/web.md, "Slow
clients and floods").

uvicorn bounds a request head's size (h11's 16 KiB) and the wait between two requests of a
kept-alive connection (``timeout_keep_alive``), but not the time a head takes to arrive: a
connection that sends half a head, or nothing, is kept for ever, and ``limit_concurrency``
answers its 503 only once a whole head has come. So the server's connections are those of
`HeadTimedProtocol` (uvicorn's h11 protocol, and `CountedWebSocket` once one is upgraded):

- a request head not whole `HEADER_SECONDS` after the connection opened, or after the answer
  to the previous request, closes the connection (bytes that trickle in do not extend it);
- `Caps`: one client address holds at most `PER_ADDRESS` connections and all together at
  most `MAX_CONNECTIONS`; a connection above either is answered 503 (with Retry-After) and
  closed as it opens, before it has sent anything;
- `raise_descriptor_limit`: the process's descriptor limit raised to its hard limit at start,
  and the total kept `RESERVED_FILES` below it, so that the cap decides, never EMFILE (an
  accept that fails leaves every waiting client unanswered);
- `client_address`: the app's bounds by client (its games with a bot) count the address the
  caps count, kept by `KeptPeer` before uvicorn's proxy headers rewrite it.
"""

from __future__ import annotations

import asyncio
import resource
from collections import Counter
from typing import Any, ClassVar

import h11
import uvicorn
from starlette.types import Scope
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: seconds for a whole request head (its line and headers): a client sends it at once, in
#: one or two packets; a browser opening a connection ahead sends its head within this too,
#: or opens another when it finds this one closed
HEADER_SECONDS = 5.0
#: connections one client address may hold: a browser keeps at most 6 to a server and one
#: per watched game, so a few dozen people behind one address (a NAT, a proxy) get in,
#: while one address never holds more than an eighth of `MAX_CONNECTIONS`
PER_ADDRESS = 128
#: connections of every address together: each costs a descriptor and a few KiB
MAX_CONNECTIONS = 1024
#: descriptors kept for the app itself (bots' pipes, the database, compilers, the watched
#: games' bots), below the limit the process may open
RESERVED_FILES = 256
#: the smallest total cap, on a process that may open very few descriptors
MIN_CONNECTIONS = 16
#: what a refused connection is told to wait before trying again (seconds)
RETRY_SECONDS = 5
#: the key of a request's ASGI scope that holds its connection's client (host, port)
PEER = "judge.peer"


class Caps:
    """The connections held, by transport and by client address; who may open another."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int = MAX_CONNECTIONS) -> None:
        self.per_address = per_address
        self.total = total
        self.held: dict[object, str] = {}
        self.by_address: Counter[str] = Counter()

    def admit(self, transport: object, address: str) -> bool:
        """Count `transport`, from `address`, if neither cap is reached (a transport held
        already is admitted again)."""
        if transport in self.held:
            return True
        if len(self.held) >= self.total or self.by_address[address] >= self.per_address:
            return False
        self.held[transport] = address
        self.by_address[address] += 1
        return True

    def release(self, transport: object) -> None:
        """Stop counting `transport` (nothing if it was not counted)."""
        address = self.held.pop(transport, None)
        if address is not None:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit of open descriptors to its hard limit; the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (OSError, ValueError):
            pass  # kept as it was: the cap below is made from it
    return soft


def caps_for(files: int) -> Caps:
    """The caps of a process that may open `files` descriptors."""
    return Caps(total=max(MIN_CONNECTIONS, min(MAX_CONNECTIONS, files - RESERVED_FILES)))


def _refusal() -> bytes:
    """The whole answer to a connection above a cap."""
    body = (b"judge serve holds as many connections as it takes (from this address or in "
            b"all): try again later\n")
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nretry-after: %d\r\nconnection: close\r\n\r\n%s"
            % (len(body), RETRY_SECONDS, body))


class HeadTimedProtocol(H11Protocol):
    """uvicorn's h11 protocol, counted in `caps` and closed when a request head is late."""

    caps: ClassVar[Caps]
    header_seconds: ClassVar[float] = HEADER_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        address = self.client[0] if self.client else ""
        if not self.caps.admit(transport, address):
            self.transport.write(_refusal())
            self.transport.close()
            return
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self.caps.release(self.transport)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        self._watch_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_head()

    def _watch_head(self) -> None:
        """The timer runs while a request head is awaited, and only then."""
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            self._stop_head_timer()
        elif self.head_timer is None:
            self.head_timer = self.loop.call_later(self.header_seconds, self._head_late)

    def _stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_late(self) -> None:
        self.head_timer = None
        if (self.transport.get_protocol() is self and not self.transport.is_closing()
                and self.conn.their_state is h11.IDLE):
            self.transport.close()


class CountedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, whose connection (counted when it was made as HTTP) is
    released from `caps` as it ends."""

    caps: ClassVar[Caps]

    def connection_lost(self, exc: Exception | None) -> None:
        self.caps.release(self.transport)
        super().connection_lost(exc)


def client_address(scope: Scope) -> str:
    """The address of the client that made a request, as `Caps` counts its connections:
    the connection's own (a proxy's clients share the proxy's), never one a header names."""
    client = scope.get(PEER, scope.get("client"))
    return client[0] if client else ""


class KeptPeer:
    """ASGI middleware: the connection's own client address kept in the scope (`PEER`)
    before uvicorn's proxy headers (X-Forwarded-For from a loopback peer) rewrite
    ``client``, so that no request names itself another client."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            scope[PEER] = scope.get("client")
        await self.app(scope, receive, send)


def server_config(app: Any, host: str, port: int, caps: Caps) -> uvicorn.Config:
    """uvicorn's settings for `judge serve`: its connections those of `HeadTimedProtocol`
    and `CountedWebSocket`, counted in `caps`; the app told each request's client address
    (`client_address`) as its proxy headers found it, and as it was (`KeptPeer`)."""
    class Http(HeadTimedProtocol):
        pass

    class WebSocket(CountedWebSocket):
        pass

    Http.caps = WebSocket.caps = caps
    config = uvicorn.Config(app, host=host, port=port, http=Http, ws=WebSocket,
                            log_level="warning", ws_max_size=1 << 16, proxy_headers=False)
    config.app = KeptPeer(ProxyHeadersMiddleware(app, config.forwarded_allow_ips))
    return config
