"""Who may drive `judge serve`: the checks made on every request before the app sees it.

A web page the user opens elsewhere must not be able to use the server (docs/web.md, "Who can
reach judge serve"). `Guard` is a pure ASGI middleware; for HTTP requests and WebSocket
handshakes alike it checks, in this order:

1. the ``Host`` header names a served host (its port is not compared): 421 otherwise, so a
   DNS-rebinding page, whose requests name its own host, is refused;
2. the token, when one is set (any bind address but loopback): from ``Authorization: Token``,
   the cookie, or the ``token`` query parameter (a page opened with it is sent on without it,
   with the cookie set); 403 otherwise;
3. a request that changes state (any method but GET, HEAD, OPTIONS), every request to the
   API (``/api/``: a read may make the server solve) and every WebSocket handshake: an
   ``Origin``, if any, is the request's own origin, and ``Sec-Fetch-Site``, if any, is not
   ``cross-site`` or ``same-site``; 403 otherwise;
4. a request that changes state and has a body or a declared type is ``application/json``
   (a cross-site page cannot send that without the browser asking first); 415 otherwise.

Refusals are short plain text; a refused WebSocket is closed (1008) before it is accepted,
which a server answers with 403. Every answer forbids framing by another site's page
(``X-Frame-Options``, ``frame-ancestors``), so that no page can lay the app under its own.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, unquote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the host names always served: this machine's loopback addresses
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
#: the methods that change nothing
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: the API's paths: no page of another site calls them, even to read (a read may solve)
API = "/api/"
#: ``Sec-Fetch-Site`` values of requests another site's page made
FOREIGN_SITES = frozenset({"cross-site", "same-site"})
#: the smallest token accepted (--token-file, JUDGE_TOKEN), in characters
MIN_TOKEN = 16
#: the random bytes of a token made at start
TOKEN_BYTES = 32
#: the query parameter that carries the token
TOKEN_PARAM = "token"

_LABEL = r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?"
_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_TOKEN = re.compile(r"[A-Za-z0-9_.~-]+")
_ORIGIN = re.compile(r"(https?)://(\[[^\]/]*\]|[^:/\[\]]+)(?::([0-9]{1,5}))?")
_PORT = re.compile(r"[0-9]{0,5}")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def host_name(text: str) -> str:
    """`text`, a host name or IP address, as Host headers are matched (lowercase, an IPv6
    address in brackets); ValueError if it is neither."""
    name = text.lower()
    bracketed = name.startswith("[") and name.endswith("]")
    try:
        address = ipaddress.ip_address(name[1:-1] if bracketed else name)
    except ValueError:
        if not bracketed and len(name) <= 253 and _NAME.fullmatch(name):
            return name
        raise ValueError(f"{text!r} is not a host name or IP address (give it without "
                         "a scheme or port)") from None
    if address.version == 6:
        return f"[{address.compressed}]"
    if bracketed:
        raise ValueError(f"{text!r}: only an IPv6 address goes in brackets")
    return address.compressed


def is_loopback(host: str) -> bool:
    """Whether binding `host` serves this machine only."""
    try:
        name = host_name(host)
        return name == "localhost" or ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class GuardSettings:
    """What `Guard` lets through: the host names answered and the token, if one is needed."""

    hosts: frozenset[str] = LOOPBACK_HOSTS
    token: str | None = None

    @classmethod
    def serving(cls, bind: str, allow: Iterable[str] = (),
                token: str | None = None) -> GuardSettings:
        """The settings for a server bound to `bind` that also answers the hosts `allow`.
        The token is `token`, or a new random one unless `bind` is loopback. ValueError,
        naming the option, for a bad value."""
        hosts = set(LOOPBACK_HOSTS)
        for option, name in [("--host", bind), *(("--allow-host", a) for a in allow)]:
            try:
                hosts.add(host_name(name))
            except ValueError as exc:
                raise ValueError(f"{option}: {exc}") from None
        if token is not None and (len(token) < MIN_TOKEN or not _TOKEN.fullmatch(token)):
            raise ValueError(f"the token (--token-file, JUDGE_TOKEN) is at least "
                             f"{MIN_TOKEN} characters of A-Z a-z 0-9 - _ . ~")
        if token is None and not is_loopback(bind):
            token = secrets.token_urlsafe(TOKEN_BYTES)
        return cls(hosts=frozenset(hosts), token=token)


LOCAL = GuardSettings()


class Refusal(Exception):
    """A request the guard does not let through: its status and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Guard:
    """ASGI middleware: the checks of this module on every HTTP request and WebSocket."""

    def __init__(self, app: ASGIApp, settings: GuardSettings = LOCAL) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        try:
            host, port = self._host(headers)
            cookie = self._check_token(scope, headers)
            if (scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
                    or scope["path"].startswith(API)):
                self._check_origin(scope, headers, host, port)
            if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
                _check_json(headers)
        except Refusal as refusal:
            if scope["type"] == "websocket":
                message = await receive()
                if message["type"] == "websocket.connect":
                    reason = refusal.message.strip().encode()[:120]  # at most 123 bytes
                    await send({"type": "websocket.close", "code": 1008,
                                "reason": reason.decode(errors="ignore")})
                return
            await _answer(send, refusal.status, refusal.message)
            return
        if cookie is not None:  # the token came in the query of a page: set it, drop it
            await _answer(send, 303, "the token is set: go on without it in the address\n",
                          [(b"location", _without_token(scope).encode("latin-1")),
                           (b"set-cookie", cookie.encode("latin-1"))])
            return
        if scope["type"] == "http":
            await self.app(scope, receive, _unframed(send))
        else:
            await self.app(scope, receive, send)

    def _host(self, headers: dict[str, list[str]]) -> tuple[str, str]:
        """The request's host name and port (as given, maybe empty), if a served host."""
        given = headers.get("host", [])
        parsed = _split_host(given[0]) if len(given) == 1 else None
        if parsed is None or parsed[0] not in self.settings.hosts:
            raise Refusal(421, "judge serve does not answer for this host name (start it "
                               "with --allow-host NAME to answer for one)\n")
        return parsed

    def _check_token(self, scope: Scope, headers: dict[str, list[str]]) -> str | None:
        """Refuse a request without the token (when one is set). The Set-Cookie value when
        the token came in the query of a page's GET: it is set there and sent on."""
        token = self.settings.token
        if token is None:
            return None
        name = _cookie_name(scope)
        for value in headers.get("authorization", []):
            scheme, _, given = value.partition(" ")
            if scheme.lower() == "token" and _same(given.strip(), token):
                return None
        for value in headers.get("cookie", []):
            for pair in value.split(";"):
                key, _, given = pair.strip().partition("=")
                if key == name and _same(given, token):
                    return None
        if any(_same(given, token) for given in _query_tokens(scope)):
            if (scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
                    and not scope["path"].startswith("/api/")):
                secure = "; Secure" if scope.get("scheme") in ("https", "wss") else ""
                return f"{name}={token}; Path=/; HttpOnly; SameSite=Strict{secure}"
            return None
        raise Refusal(403, "judge serve needs its token here: open the address it printed "
                           "as it started (.../?token=...) or send Authorization: Token ...\n")

    def _check_origin(self, scope: Scope, headers: dict[str, list[str]], host: str,
                      port: str) -> None:
        """Refuse a request that another site's page made (by Origin, Sec-Fetch-Site)."""
        for site in headers.get("sec-fetch-site", []):
            if site.strip().lower() in FOREIGN_SITES:
                raise Refusal(403, f"judge serve refuses requests from other sites' pages "
                                   f"(Sec-Fetch-Site: {site.strip().lower()})\n")
        origins = headers.get("origin", [])
        if not origins:
            return  # not a browser's page: browsers send Origin on these requests
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        own = (scheme, host, int(port) if port else _DEFAULT_PORTS[scheme])
        if len(origins) != 1 or _parse_origin(origins[0]) != own:
            raise Refusal(403, "judge serve refuses requests from other origins' pages "
                               "(Origin is not this server's)\n")


def _check_json(headers: dict[str, list[str]]) -> None:
    """Refuse a request that changes state with a body or a declared type other than JSON."""
    types = headers.get("content-type", [])
    has_body = (any(v.strip() != "0" for v in headers.get("content-length", []))
                or bool(headers.get("transfer-encoding")))
    if not types and not has_body:
        return  # a request without a body, such as an undo
    media = types[0].split(";", 1)[0].strip().lower() if len(types) == 1 else ""
    if media != "application/json":
        raise Refusal(415, "judge serve reads request bodies sent as "
                           "Content-Type: application/json only\n")


def _headers(scope: Scope) -> dict[str, list[str]]:
    """The request's headers by lowercase name, each with all its values."""
    found: dict[str, list[str]] = {}
    for key, value in scope.get("headers", []):
        found.setdefault(key.decode("latin-1").lower(), []).append(value.decode("latin-1"))
    return found


def _split_host(header: str) -> tuple[str, str] | None:
    """The host name (as `host_name` gives it) and port of a Host header; None if malformed."""
    header = header.strip()
    if header.startswith("["):
        end = header.find("]") + 1
        name, rest = header[:end], header[end:]
    else:
        name, colon, port = header.partition(":")
        rest = colon + port
    if (not name or (rest and not rest.startswith(":"))
            or not _PORT.fullmatch(rest[1:])):
        return None
    try:
        return host_name(name), rest[1:]
    except ValueError:
        return None


def _parse_origin(origin: str) -> tuple[str, str, int] | None:
    """An Origin header's scheme, host name (as `host_name` gives it) and port."""
    found = _ORIGIN.fullmatch(origin.strip())
    if found is None:
        return None
    scheme, name, port = found.groups()
    try:
        return scheme, host_name(name), int(port) if port else _DEFAULT_PORTS[scheme]
    except ValueError:
        return None


def _same(given: str, token: str) -> bool:
    """Whether `given` is the token, compared in constant time."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def _cookie_name(scope: Scope) -> str:
    """The token cookie's name: one per port, as cookies do not tell ports apart."""
    server = scope.get("server")
    return f"judge-serve-token-{server[1]}" if server and server[1] else "judge-serve-token"


def _query_pairs(scope: Scope) -> list[str]:
    """The raw ``name=value`` pairs of the request's query string."""
    raw: bytes = scope.get("query_string", b"")
    return [pair for pair in raw.decode("latin-1").split("&") if pair]


def _query_tokens(scope: Scope) -> list[str]:
    """The values of the query's ``token`` parameters."""
    tokens = []
    for pair in _query_pairs(scope):
        key, _, value = pair.partition("=")
        if unquote(key.replace("+", " ")) == TOKEN_PARAM:
            tokens.append(unquote(value.replace("+", " ")))
    return tokens


def _without_token(scope: Scope) -> str:
    """The request's path and query, without the token: where a page opened with it goes on."""
    raw_path: bytes | None = scope.get("raw_path")
    path = raw_path.decode("latin-1") if raw_path else quote(str(scope["path"]))
    path = "/" + path.lstrip("/")  # never "//elsewhere": that would leave the server
    rest = [pair for pair in _query_pairs(scope)
            if unquote(pair.partition("=")[0].replace("+", " ")) != TOKEN_PARAM]
    return path + ("?" + "&".join(rest) if rest else "")


#: headers on every answer: no other site's page may show the app in a frame (where a
#: click on its page would be the user's click on the app)
UNFRAMED = [(b"x-frame-options", b"DENY"),
            (b"content-security-policy", b"frame-ancestors 'none'")]


def _unframed(send: Send) -> Send:
    """`send`, with `UNFRAMED` added to the start of every answer."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *UNFRAMED]}
        await send(message)
    return sending


async def _answer(send: Send, status: int, text: str,
                  extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """A short plain-text answer that no cache keeps."""
    body = text.encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"),
                            (b"x-content-type-options", b"nosniff"), *UNFRAMED,
                            *(extra or [])]})
    await send({"type": "http.response.body", "body": body})
