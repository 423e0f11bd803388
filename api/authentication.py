"""Token authentication that loads the player with the user, saving a query on every request."""

from rest_framework.authentication import TokenAuthentication


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        model = self.get_model()
        token = model.objects.select_related("user__player").filter(key=key).first()
        if token is None or not token.user.is_active:
            return super().authenticate_credentials(key)  # raises the standard AuthenticationFailed
        return token.user, token
