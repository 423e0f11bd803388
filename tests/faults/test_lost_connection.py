"""A worker that loses its Redis connection closes its channel without dying (`config.celery`'s guard around
kombu 5.7's restore of unacknowledged messages through a transport the connection already detached)."""

from __future__ import annotations

import pytest
from kombu import Connection

import config.celery  # noqa: F401 - installs the guard

pytestmark = pytest.mark.faults


def test_closing_a_channel_of_a_detached_transport_with_messages_held_does_not_raise(redis_server):
    connection = Connection(redis_server.url)
    channel = connection.default_channel
    channel.qos._delivered["tag"] = object()  # a message delivered and not acknowledged
    connection._do_close_transport()  # what the consumer's close does first when the broker is lost
    channel.close()  # kombu 5.7 alone: AttributeError: 'NoneType' object has no attribute 'hostname'
    assert not channel.qos._delivered
