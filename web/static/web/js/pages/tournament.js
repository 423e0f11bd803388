// One tournament: entrants, rounds with their tables (links to each game), standings and crosstable, polled while
// it runs; the organiser adds bots, starts and cancels it; anyone signed in registers while it is open.
import { api, me } from "../api.js";
import { h, mount, pageData, toast, when } from "../dom.js";
import { FORMATS, badge, errorBox, kindTitle } from "./common.js";

const root = document.getElementById("page");
const { tournament_id: id } = pageData();
const POLL_MS = 2000;
const COLUMNS = [["rank", "Rank"], ["name", "Entrant"], ["points", "Points"], ["game_points", "Game points"],
  ["buchholz", "Buchholz"], ["sonneborn_berger", "Sonneborn–Berger"], ["played", "Played"], ["wins", "Wins"], ["byes", "Byes"]];

const parts = {
  head: h("div"), actions: h("div.tournament-actions"), entrants: h("div"), standings: h("div"), crosstable: h("div"),
  rounds: h("div"),
};
let bots = [];
let actionsKey = "";

async function act(path, body) {
  try {
    await api(`tournaments/${id}/${path}/`, { method: "POST", body });
    await refresh();
  } catch (e) {
    toast(e.message, "error");
  }
}

/** The organiser's buttons (add a bot, start, cancel) and the register button, rebuilt only when they change. */
function drawActions(t) {
  const player = me();
  const organiser = player && player.id === t.organiser;
  const entered = player && t.entrants.some((e) => e.player === player.id);
  const key = JSON.stringify([t.status, organiser, entered, Boolean(player)]);
  if (key === actionsKey) return;
  actionsKey = key;
  const open = t.status === "registering";
  const live = open || t.status === "running";
  const items = [];
  if (open && player && !entered) items.push(h("button", { type: "button", onclick: () => act("entrants", {}) }, "Register me"));
  if (organiser && open) {
    const bot = h("select", { id: "add-bot-kind" }, bots.filter((b) => b.kinds.includes(t.kind)).map((b) =>
      h("option", { value: b.name }, `${b.name} bot`)));
    items.push(h("span.add-bot", {}, h("label", { for: "add-bot-kind" }, "Bot"), bot,
      h("button", { type: "button", onclick: () => act("entrants", { bot: bot.value }) }, "Add bot")));
    items.push(h("button.primary", { type: "button", onclick: () => act("start") }, "Start"));
  }
  if (organiser && live) {
    items.push(h("button", { type: "button", onclick: () => {
      if (confirm("Cancel this tournament? Games already running are played out.")) act("cancel");
    } }, "Cancel the tournament"));
  }
  if (!player && open) items.push(h("a", { href: `/signin/?next=${encodeURIComponent(location.pathname)}` }, "Sign in to register"));
  mount(parts.actions, items);
}

function drawHead(t) {
  document.title = `${t.name} · Tavolo`;
  const round = t.current_round ? `round ${t.current_round}${t.rounds ? ` of ${t.rounds}` : ""}` : "not started";
  mount(parts.head,
    h("h1", {}, t.name), h("p.tournament-meta", {}, kindTitle(t.kind), " · ", FORMATS[t.format] || t.format, " · ",
      `tables of ${t.table_size}`, " · ", h("span", { id: "tournament-status" }, badge(t.status)), " · ", round,
      t.turn_seconds ? ` · ${t.turn_seconds} s per move` : "",
      t.started_at ? ` · started ${when(t.started_at)}` : ""),
    t.seed ? h("p.muted.seed", {}, "Seed (every game's deal derives from it): ", h("code", {}, t.seed)) : null);
}

function drawEntrants(t) {
  mount(parts.entrants, h("h2", {}, `Entrants (${t.entrants.length})`),
    t.entrants.length
      ? h("ol.entrants", { id: "entrants" }, t.entrants.map((e) => h("li", {},
        e.player ? h("a", { href: `/players/${e.player}/` }, e.name) : e.name, e.bot ? h("span.muted", {}, ` (${e.bot} bot)`) : null)))
      : h("p.muted", {}, "Nobody yet."));
}

function drawStandings(body) {
  const csv = `/api/v1/tournaments/${id}/standings.csv`;
  mount(parts.standings,
    h("h2", { id: "standings-heading" }, body.final ? "Final standings" : `Standings after round ${body.round}`),
    h("div.scroll-x", {}, h("table.data", { id: "standings" },
      h("thead", {}, h("tr", {}, COLUMNS.map(([, text]) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, body.standings.map((row) => h("tr", { dataset: { entrant: row.entrant } },
        COLUMNS.map(([key]) => h(key === "name" ? "th" : "td", key === "name" ? { scope: "row" } : {}, String(row[key] ?? "")))))))),
    h("p", {}, h("a", { id: "standings-csv", href: csv, download: "" }, "Download the standings (CSV)")));
}

/** Who beat whom: for each pair that met, 1 for the better place, ½ for the same, 0 for the worse, per meeting. */
function crosstable(entrants, rounds) {
  const score = new Map();
  for (const round of rounds) {
    for (const table of round.tables) {
      for (const a of table.seats) {
        for (const b of table.seats) {
          if (a.entrant === b.entrant || a.place === null || b.place === null) continue;
          const key = `${a.entrant}:${b.entrant}`;
          const result = a.place < b.place ? "1" : a.place === b.place ? "½" : "0";
          score.set(key, [...(score.get(key) || []), result]);
        }
      }
    }
  }
  return h("div.scroll-x", {}, h("table.data.crosstable", { id: "crosstable" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), entrants.map((e) => h("th", { scope: "col", title: e.name }, String(e.number))))),
    h("tbody", {}, entrants.map((row) => h("tr", {}, h("th", { scope: "row" }, `${row.number}. ${row.name}`),
      entrants.map((col) => h("td", { dataset: { row: row.id, col: col.id } },
        row.id === col.id ? "—" : (score.get(`${row.id}:${col.id}`) || []).join(" "))))))));
}

function drawRounds(rounds) {
  mount(parts.rounds, h("h2", {}, "Rounds"), rounds.length ? rounds.map((round) => h("section.round", { dataset: { round: round.number } },
    h("h3", {}, `Round ${round.number}`, round.finished ? h("span.muted", {}, " · finished") : null),
    h("ul.plain-list", {}, round.tables.map((table) => h("li", { dataset: { game: table.game } },
      `Table ${table.number}: `,
      table.seats.map((s, i) => [i ? ", " : "", s.name, s.place !== null ? h("span.muted", {}, ` (${ordinal(s.place)})`) : ""]),
      " · ", badge(table.status), " · ", h("a", { href: `/games/${table.game}/` }, "table"),
      table.status === "finished" ? [" · ", h("a", { href: `/games/${table.game}/replay/` }, "replay")] : null))),
    round.byes.length ? h("p.muted", {}, `Bye: ${round.byes.map((b) => b.name).join(", ")}`) : null))
    : h("p.muted", {}, "The rounds are paired when the organiser starts the tournament."));
}

const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

async function refresh() {
  const [t, rounds, standings] = await Promise.all([api(`tournaments/${id}/`), api(`tournaments/${id}/rounds/`),
    api(`tournaments/${id}/standings/`)]);
  drawHead(t);
  drawActions(t);
  drawEntrants(t);
  drawStandings(standings);
  mount(parts.crosstable, h("h2", {}, "Crosstable"), t.entrants.length ? crosstable(t.entrants, rounds) : h("p.muted", {}, "No entrants yet."));
  drawRounds(rounds);
  return t;
}

async function poll() {
  try {
    const t = await refresh();
    if (t.status === "registering" || t.status === "running") setTimeout(poll, POLL_MS);
  } catch (e) {
    toast(e.message, "error");
    setTimeout(poll, POLL_MS * 5);
  }
}

async function main() {
  bots = await api("bots/");
  mount(root, parts.head, parts.actions, h("div.tournament-grid", {}, h("div", {}, parts.standings, parts.crosstable),
    h("div", {}, parts.entrants)), parts.rounds);
  await poll();
}

main().catch((e) => mount(root, h("h1", {}, "Tournament"), errorBox(e)));
window.addEventListener("tavolo:session", () => { actionsKey = ""; refresh().catch(() => {}); });
