"""The hand-written one-row reads (games.rows) load what the ORM loads, field by field, with the relations set
as select_related sets them, and ask nothing more when those are followed."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from games import rows
from games.models import Game
from tests.conftest import create_game

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def test_a_game_row_equals_the_orm_one(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}])
    read = rows.game_by_id(uuid.UUID(game["id"]))
    expected = Game.objects.get(pk=game["id"])
    assert _fields(read) == _fields(expected)
    assert isinstance(read.options, dict) and isinstance(read.to_act, list)  # JSON decoded, as the ORM does
    assert read._state.adding is False and read._state.db == "default"
    assert rows.game_by_id(str(game["id"])).pk == expected.pk  # the URL's string form too


def test_a_missing_game_is_none():
    assert rows.game_by_id(uuid.uuid4()) is None


def test_a_token_comes_with_its_user_and_player(ann, django_assert_num_queries):
    with django_assert_num_queries(1):
        token = rows.token_with_player(ann.token)
        assert token.user.player.id == ann.id and token.user.player.user is token.user
    expected = Token.objects.select_related("user__player").get(key=ann.token)
    assert _fields(token) == _fields(expected)
    assert _fields(token.user) == _fields(expected.user)
    assert _fields(token.user.player) == _fields(expected.user.player)


def test_a_user_without_a_player_has_none_and_asks_nothing(django_assert_num_queries):
    user = get_user_model().objects.create_user("staff-only")
    key = Token.objects.create(user=user).key
    with django_assert_num_queries(1):
        token = rows.token_with_player(key)
        assert getattr(token.user, "player", None) is None  # RelatedObjectDoesNotExist, without a query
    assert token.user.pk == user.pk


def test_an_unknown_token_is_none():
    assert rows.token_with_player("0" * 40) is None


def test_an_inactive_user_is_refused_by_the_api(ann):
    get_user_model().objects.filter(player__id=ann.id).update(is_active=False)
    response = ann.get("/api/v1/games/")
    assert response.status_code == 401, response.content
