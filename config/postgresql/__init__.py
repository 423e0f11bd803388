"""Django's PostgreSQL backend with its connection pool, falling back to a direct connection (see `base`)."""
