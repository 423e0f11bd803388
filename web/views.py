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


#: One or two sentences per game for the home page; the whole rules are docs/rules/<kind>.md (/rules/<kind>/).
SUMMARIES = {
    "spite-and-malice": "Two players race to empty their 26-card goal piles by building shared centre piles from "
                        "Ace to King, whatever the suit; jokers stand in for any card but a Two.",
    "diavoletto": "Spite and Malice's cousin: no hand is dealt, you draw up to five each turn, every Ace must be "
                  "played before your compulsory discard, and jokers never open a pile.",
    "muscio": "A trick-taking match for 3 to 6 with the 40-card pack: everyone starts at 30 and wants to reach 0 "
              "by taking tricks; you may play, pass, or swap your hand for the unseen blinde.",
    "tarocchi-mineo": "The Sicilian tarot game of Mineo for four: 63 cards with trumps 0 to 20 and the Fuggitivo; "
                      "bid to play alone or call a partner who stays secret until the called card falls.",
    "machiavelli": "Rummy with two packs for 2 to 6: meld sets and runs, and rearrange everything on the table as "
                   "you like, as long as every group is valid when your turn ends; first to empty the hand wins.",
}


def _kinds() -> list[dict]:
    return [{"kind": e.kind, "title": e.title, "seats": list(e.seats)} for e in registry.engines()]


def _page(request: HttpRequest, template: str, module: str, **context) -> HttpResponse:
    """A frame whose `module` (under static web/js/pages/) fills it in; `context` goes to the template and,
    as data attributes, to the module, with every game's kind, title and seat counts (`kinds`)."""
    context.setdefault("kinds", _kinds())
    return render(request, f"web/{template}", {"module": module, "data": context, **context})


def home(request: HttpRequest) -> HttpResponse:
    kinds = [{**k, "summary": SUMMARIES.get(k["kind"], "")} for k in _kinds()]
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
