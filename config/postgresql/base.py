"""Django's PostgreSQL backend, whose connection pool falls back to a direct connection.

A request takes a connection from the pool (`OPTIONS["pool"]`). When the pool has none to give within its
`timeout`, the database may be unreachable: the pool then reconnects in the background, with a backoff of
seconds. Waiting for it would hold every request for the whole timeout during an outage and for the backoff
after it. So the request connects by itself instead, as it would without a pool: while the database is
unreachable that fails at once (503 `database_unavailable`), and once it is back the first request is served
at once, while the pool refills behind it. Such a connection is closed, not given back, at the request's end.
"""

from __future__ import annotations

from django.db.backends.postgresql import base
from psycopg_pool import PoolTimeout


class DatabaseWrapper(base.DatabaseWrapper):
    direct = False  # whether the open connection was made here rather than taken from the pool

    def get_new_connection(self, conn_params):
        self.direct = False
        if not self.pool:
            return super().get_new_connection(conn_params)
        try:
            return super().get_new_connection(conn_params)
        except PoolTimeout:
            connection = self.Database.connect(**conn_params)
            self.direct = True
            # What the pool's `configure` hook does for its own connections (time zone, role).
            if self._configure_connection(connection) and not connection.autocommit:
                connection.commit()
            return connection

    def _close(self):
        if self.connection is not None and self.direct:
            self.direct = False
            with self.wrap_database_errors:
                return self.connection.close()  # not the pool's to take back
        return super()._close()
