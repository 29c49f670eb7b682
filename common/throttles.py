"""The sign-in throttles, shared by the token endpoint and the sign-in page, and the client's address.

Both faces count in the same cache under the same keys, so a password guessed through the page and the
API together is slowed as much as through either. The address is the connection's peer, or, when that
peer is one of ``TRUSTED_PROXIES``, the rightmost address of ``X-Forwarded-For`` that no trusted proxy
wrote: whatever a client puts further left is its own claim, and rotating it changes nothing.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from rest_framework.throttling import SimpleRateThrottle

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    try:
        return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)
    except ValueError as e:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {e}") from None


def _trusted(address: str, networks: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(request: Any) -> str:
    """The address a request came from, trusting ``X-Forwarded-For`` only as far as ``TRUSTED_PROXIES``.

    Read from the right: the peer, then each address a trusted proxy says it was handed by. The first
    that is not a trusted proxy is the client; if all of them are, the leftmost one is.
    """
    meta = request.META
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    peer = str(meta.get("REMOTE_ADDR") or "")
    if not _trusted(peer, networks):
        return peer
    forwarded = [a.strip() for a in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if a.strip()]
    address = peer
    for hop in reversed(forwarded):
        address = hop
        if not _trusted(hop, networks):
            break
    return address


def address_block(address: str) -> str:
    """What one client is counted as: its IPv4 address, or the /64 network of its IPv6 address (one
    customer's line usually has a whole /64, so counting single IPv6 addresses would let it rotate)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _name_of(request: Any) -> str | None:
    data = getattr(request, "data", None)  # the API's request: JSON or a form
    if data is None:
        data = request.POST  # the sign-in page's form
    name = data.get("username") if hasattr(data, "get") else None
    return name if isinstance(name, str) and name else None


@contextmanager
def _counting(cache: Any, key: str, *, wait: float = 2.0) -> Iterator[None]:
    """One process at a time reads and writes the count under ``key``: a lock entry beside it, taken with
    ``cache.add`` (atomic in every cache backend: an insert on its primary key in the database cache, SET NX
    in Redis). A lock left by a process that died expires in seconds; one held longer than ``wait`` is not
    waited for (the attempt is counted all the same: a sign-in is never refused for a lock)."""
    lock = f"{key}:counting"
    deadline = time.monotonic() + wait
    held = cache.add(lock, 1, timeout=5)
    while not held and time.monotonic() < deadline:
        time.sleep(0.005)
        held = cache.add(lock, 1, timeout=5)
    try:
        yield
    finally:
        if held:
            cache.delete(lock)


class CountedAcrossProcesses(SimpleRateThrottle):
    """DRF's throttle reads the attempts, adds one and writes them back: two server processes counting
    at once would each write their own list and one attempt would be lost. Here the read and the write
    are one step (:func:`_counting`)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        key = self.get_cache_key(request, view) if self.rate is not None else None
        if key is None:
            return super().allow_request(request, view)
        with _counting(self.cache, key):
            return super().allow_request(request, view)


class LoginAddressThrottle(CountedAcrossProcesses):
    """Sign-ins and token requests from one address (the ``login`` rate)."""

    scope = "login"

    def get_ident(self, request: Any) -> str:
        return address_block(client_address(request))

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginNameThrottle(CountedAcrossProcesses):
    """Sign-ins and token requests for one user name, wherever they come from (the ``login_name``
    rate): a password guessed from many addresses is slowed down as much as from one."""

    scope = "login_name"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        name = _name_of(request)
        if name is None:
            return None
        digest = hashlib.sha256(name.strip().casefold().encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}


LOGIN_THROTTLES = (LoginAddressThrottle, LoginNameThrottle)


def login_wait(request: Any, view: Any = None) -> float | None:
    """Count one sign-in attempt against every sign-in throttle: None if it may go on, else the seconds
    to wait before the next one."""
    waits = []
    for throttle in (cls() for cls in LOGIN_THROTTLES):
        if not throttle.allow_request(request, view):
            waits.append(throttle.wait() or 1)
    return max(waits) if waits else None
