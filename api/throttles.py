"""Request throttles (DRF's cache-backed sliding windows) with their rates read from settings at each request.

DRF reads `DEFAULT_THROTTLE_RATES` once, when its throttle class is defined; these read
`settings.THROTTLE_RATES[scope]` every time, so a deployment's environment and a test's `settings` both
apply. A rate of "off" (or empty) lets everything through. A refused request raises DRF's `Throttled`,
which `api.errors` renders as 429 `{"code": "throttled", ...}` with a `Retry-After` header.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle

_OFF = ("", "off", "none")


class SettingsRateThrottle(SimpleRateThrottle):
    """Throttles unsafe requests only (a scope names one kind of write); the rate comes from settings."""

    methods = ("POST", "PUT", "PATCH", "DELETE")

    def get_rate(self) -> str | None:
        rate = settings.THROTTLE_RATES.get(self.scope)
        return None if rate is None or rate.strip().lower() in _OFF else rate

    def allow_request(self, request, view) -> bool:
        if request.method not in self.methods:
            return True
        return super().allow_request(request, view)


class PerAddressThrottle(SettingsRateThrottle):
    """Counted per client address (see REST_FRAMEWORK["NUM_PROXIES"])."""

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class PerPlayerThrottle(SettingsRateThrottle):
    """Counted per authenticated user (the views using it require one); per address otherwise."""

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class RegisterThrottle(PerAddressThrottle):
    scope = "register"


class GameCreateThrottle(PerPlayerThrottle):
    scope = "game_create"


class ActionThrottle(PerPlayerThrottle):
    scope = "action"


class TournamentCreateThrottle(PerPlayerThrottle):
    scope = "tournament_create"


class AuthFailureThrottle(PerAddressThrottle):
    """Failed token checks per client address. Unlike the others it is not asked per request: the token
    authentication refuses every token from an address over the limit (`check`), before looking the token up,
    and counts each token it could not accept (`record`)."""

    scope = "auth_failure"

    def check(self, request) -> None:
        """Raise `Throttled` while the address has used up its failures."""
        if self.rate is None:
            return
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            raise exceptions.Throttled(wait=self.wait(), detail="too many failed authentications from this address")

    def record(self, request) -> None:
        """Count one failure (kept for the rate's duration)."""
        if self.rate is None:
            return
        self.key = self.get_cache_key(request, None)
        self.now = self.timer()
        history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]
        self.cache.set(self.key, [self.now, *history], self.duration)
