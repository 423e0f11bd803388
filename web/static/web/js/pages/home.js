// Home: the games are in the page already; this fills in your games, live and finished games, tournaments.
import { api, me } from "../api.js";
import { h, mount, toast } from "../dom.js";
import { errorBox, gameItem, listOf, tournamentItem } from "./common.js";

const slot = (id) => document.querySelector(`#${id} .list-slot`);

async function fill(id, load) {
  try {
    mount(slot(id), await load());
  } catch (e) {
    mount(slot(id), errorBox(e));
  }
}

const games = (params) => api("games/", { params: { limit: 10, ...params } }).then((page) => page.results);

/** An invitation: the game waits for you; accept (the last acceptance deals it) or decline (it is aborted). */
function invitation(game) {
  const answer = (verb) => async () => {
    try {
      await api(`games/${game.id}/${verb}/`, { method: "POST" });
      if (verb === "accept") location.assign(`/games/${game.id}/`);
      else showMine();
    } catch (e) {
      toast(e.message, "error");
    }
  };
  return h("li.game-item", { dataset: { game: game.id } }, [...gameItem(game).childNodes], " ",
    h("button.primary", { type: "button", onclick: answer("accept") }, "Accept"), " ",
    h("button", { type: "button", onclick: answer("decline") }, "Decline"));
}

async function showMine() {
  const player = me();
  const section = document.getElementById("home-mine");
  section.hidden = !player;
  if (!player) return;
  await fill("home-mine", async () => {
    const [pending, active] = await Promise.all([games({ player: player.id, status: "pending" }),
      games({ player: player.id, status: "active" })]);
    const invited = pending.filter((g) => g.seats.some((s) => s.player === player.id && !s.accepted));
    const waiting = pending.filter((g) => !invited.includes(g));
    return [
      invited.length ? h("ul.game-list", { "aria-label": "Invitations" }, invited.map(invitation)) : null,
      listOf([...active, ...waiting], gameItem, invited.length ? "" : "No game of yours is running."),
    ];
  });
}

const REFRESH_MS = 15000;

function showGames() {
  fill("home-live", async () => listOf(await games({ status: "active" }), gameItem, "No game is being played right now."));
  fill("home-finished", async () => listOf(await games({ status: "finished" }), gameItem, "No game has finished yet."));
}

showMine();
showGames();
setInterval(() => { if (!document.hidden) showGames(); }, REFRESH_MS); // live games come and go
fill("home-tournaments", async () => listOf((await api("tournaments/", { params: { limit: 10 } })).results,
  tournamentItem, "No tournament yet.", "plain-list"));
window.addEventListener("tavolo:session", showMine);
