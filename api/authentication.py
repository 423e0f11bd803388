"""Token authentication that loads the token, its user and the player in one hand-written statement
(`games.rows`: every authenticated request makes it), and refuses an address that sent too many bad tokens
(`AuthFailureThrottle`) before it looks the token up."""

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from api.throttles import AuthFailureThrottle
from games import rows


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate(self, request):
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != self.keyword.lower().encode():
            return None  # no token offered: nothing to refuse or count
        failures = AuthFailureThrottle()
        failures.check(request)
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            failures.record(request)
            raise

    def authenticate_credentials(self, key):
        token = rows.token_with_player(key)
        if token is None:  # DRF's own messages, without its second lookup of the same token
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
