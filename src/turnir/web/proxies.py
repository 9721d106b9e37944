"""Who really sent a request: the direct peer, or, only when the direct peer is one of the
operator's trusted proxies (``TURNIR_TRUSTED_PROXIES``), the client and scheme it forwarded.

This is the one place that reads ``X-Forwarded-For`` and ``X-Forwarded-Proto``: uvicorn is run
with ``proxy_headers=False`` (``turnir.web.serve``) and the outermost middleware
(``turnir.web.headers.SecurityHeaders``) rewrites the request's ``client`` and ``scheme`` with
:func:`resolve`, so everything downstream (the login rate limit's ``client_address``, the
``Secure`` cookie flag, HSTS) sees the real client and scheme, and nobody else can pretend to
be someone else by sending the headers themselves.

- ``X-Forwarded-For`` is read from the right: each address that is a trusted proxy is skipped,
  the first one that is not is the client (so a client cannot inject an address in front of
  the proxy's). When every address is a trusted proxy, the leftmost is the client.
- ``X-Forwarded-Proto``: the last value (what the nearest proxy saw); only ``http`` and
  ``https`` count.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

from turnir.errors import UserError

Network = IPv4Network | IPv6Network


def _address(text: str) -> IPv4Address | IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[::1]:443"
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # "10.0.0.1:5000"
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The proxies whose forwarded headers are believed (none by default)."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, items: str | tuple[str, ...] | list[str]) -> TrustedProxies:
        """From ``"127.0.0.1, 10.0.0.0/8, ::1"`` (addresses or CIDR networks); a ``ValueError``
        names an entry that is neither."""
        parts = items.split(",") if isinstance(items, str) else list(items)
        networks: list[Network] = []
        for part in (p.strip() for p in parts):
            if not part:
                continue
            try:
                networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise UserError("TURNIR_TRUSTED_PROXIES: {entry!r} is not an IP address or "
                                "network", code="bad_setting", entry=part) from None
        return cls(tuple(networks))

    def trusts(self, host: str | None) -> bool:
        if not self.networks or not host:
            return False
        address = _address(host)
        return address is not None and any(address in net for net in self.networks)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a request came from, as far as it can be believed."""

    client: str | None
    scheme: str
    forwarded: bool
    """Taken from a trusted proxy's headers."""


def resolve(proxies: TrustedProxies, peer: str | None, scheme: str,
            forwarded_for: str | None, forwarded_proto: str | None) -> Origin:
    """The real client and scheme of a request from ``peer`` (the TCP peer) over ``scheme``."""
    if not proxies.trusts(peer):
        return Origin(peer, scheme, forwarded=False)
    client = peer
    if forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        chosen = None
        for hop in reversed(hops):
            if not proxies.trusts(hop):
                chosen = hop
                break
        if chosen is None and hops:
            chosen = hops[0]
        found = _address(chosen) if chosen else None
        if found is not None:
            client = str(found)
    if forwarded_proto:
        last = forwarded_proto.split(",")[-1].strip().lower()
        if last in ("http", "https"):
            scheme = last
    return Origin(client, scheme, forwarded=True)
