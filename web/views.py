"""Page frames. Each view renders a template that names the ES module filling it in from the public API:
the pages hold no game logic and use no endpoint a third-party client could not."""

from __future__ import annotations

from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from games.engine import registry

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"


def _page(request: HttpRequest, template: str, module: str, **context) -> HttpResponse:
    """A frame whose `module` (under static web/js/pages/) fills it in; `context` goes to the template and,
    as data attributes, to the module."""
    return render(request, f"web/{template}", {"module": module, "data": context, **context})


def home(request: HttpRequest) -> HttpResponse:
    kinds = [{"kind": e.kind, "title": e.title, "seats": list(e.seats)} for e in registry.engines()]
    return _page(request, "home.html", "home", kinds=kinds)


def rules(request: HttpRequest, kind: str) -> HttpResponse:
    """The rules document of one game (docs/rules/<kind>.md), rendered."""
    if kind not in registry.kinds():
        raise Http404(f"no game called {kind!r}")
    text = (RULES_DIR / f"{kind}.md").read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "toc"])
    return render(request, "web/rules.html", {"title": registry.get(kind).title, "kind": kind,
                                              "body": mark_safe(html)})  # noqa: S308 - our own docs


def sign_in(request: HttpRequest) -> HttpResponse:
    return render(request, "web/signin.html")  # wired by session.js, loaded on every page


def game_new(request: HttpRequest) -> HttpResponse:
    return _page(request, "game_new.html", "game_new")


def game_table(request: HttpRequest, game_id) -> HttpResponse:
    return _page(request, "table.html", "table", game_id=str(game_id))


def game_replay(request: HttpRequest, game_id) -> HttpResponse:
    return _page(request, "replay.html", "replay", game_id=str(game_id))


def tournament_list(request: HttpRequest) -> HttpResponse:
    return _page(request, "tournament_list.html", "tournament_list")


def tournament_new(request: HttpRequest) -> HttpResponse:
    return _page(request, "tournament_new.html", "tournament_new")


def tournament_detail(request: HttpRequest, tournament_id) -> HttpResponse:
    return _page(request, "tournament.html", "tournament", tournament_id=str(tournament_id))


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    return _page(request, "player.html", "player", player_id=player_id)
