// A player: ratings per game (GET /players/<id>/ratings/) with their history drawn as an inline SVG chart, and
// recent games (GET /games/?player=<id>).
import { api } from "../api.js";
import { h, mount, pageData, when } from "../dom.js";
import { errorBox, gameItem, kindTitle, listOf } from "./common.js";

const root = document.getElementById("page");
const { player_id: playerId } = pageData();
const COLOURS = ["#1d5c3a", "#b3261e", "#0b57d0", "#a66f00", "#6a3d9a"];
const W = 640, H = 240, PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const NS = "http://www.w3.org/2000/svg";

/** An SVG element (h() makes HTML elements only). */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child);
  return el;
}

const fixed = (x) => Number(x).toFixed(2);

/** Rating (mu − 3σ) after each rated game, one line per game kind, oldest on the left. */
function chart(history, kinds) {
  const changes = [...history].reverse(); // the API gives the newest first
  const ys = changes.map((c) => c.rating);
  let low = Math.min(...ys, 0), high = Math.max(...ys, 1);
  if (high - low < 1) high = low + 1;
  const x = (i) => PAD.left + (changes.length === 1 ? 0.5 : i / (changes.length - 1)) * (W - PAD.left - PAD.right);
  const y = (r) => PAD.top + (1 - (r - low) / (high - low)) * (H - PAD.top - PAD.bottom);
  const ticks = [low, (low + high) / 2, high];
  const series = kinds.map((kind, k) => {
    const points = changes.map((c, i) => ({ ...c, i })).filter((c) => c.kind === kind);
    const colour = COLOURS[k % COLOURS.length];
    return svg("g", { class: "series", "data-kind": kind },
      svg("polyline", { points: points.map((p) => `${x(p.i)},${y(p.rating)}`).join(" "), fill: "none", stroke: colour,
        "stroke-width": 2 }),
      points.map((p) => svg("circle", { cx: x(p.i), cy: y(p.rating), r: 3.5, fill: colour },
        svg("title", {}, `${kindTitle(kind)}: ${fixed(p.rating)} after a game on ${when(p.created_at)} (place ${p.place})`))));
  });
  const summary = kinds.map((kind) => {
    const last = changes.filter((c) => c.kind === kind).at(-1);
    return `${kindTitle(kind)} ${fixed(last.rating)}`;
  }).join(", ");
  return h("figure.rating-chart", {},
    svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", id: "rating-chart",
      "aria-label": `Rating after each of ${changes.length} rated games; latest: ${summary}` },
    ticks.map((t) => svg("g", { class: "tick" },
      svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), stroke: "#ddd" }),
      svg("text", { x: PAD.left - 6, y: y(t) + 4, "text-anchor": "end", "font-size": 11 }, fixed(t)))),
    svg("text", { x: PAD.left, y: H - 8, "font-size": 11 }, "oldest"),
    svg("text", { x: W - PAD.right, y: H - 8, "font-size": 11, "text-anchor": "end" }, "latest"),
    series),
    h("figcaption", {}, kinds.map((kind, k) => h("span.legend", {},
      h("span.swatch", { style: `background:${COLOURS[k % COLOURS.length]}`, "aria-hidden": "true" }), kindTitle(kind)))));
}

function ratingsTable(ratings) {
  return h("div.scroll-x", {}, h("table.data", { id: "ratings" },
    h("thead", {}, h("tr", {}, ["Game", "Rating (μ − 3σ)", "μ", "σ", "Games"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, ratings.map((r) => h("tr", { dataset: { kind: r.kind } }, h("th", { scope: "row" }, kindTitle(r.kind)),
      h("td", {}, fixed(r.rating)), h("td", {}, fixed(r.mu)), h("td", {}, fixed(r.sigma)), h("td", {}, String(r.games)))))));
}

function historyTable(history) {
  return h("details", {}, h("summary", {}, `Every rating change (${history.length})`),
    h("div.scroll-x", {}, h("table.data", { id: "rating-history" },
      h("thead", {}, h("tr", {}, ["When", "Game", "Place", "Rating", "μ before → after"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, history.map((c) => h("tr", {}, h("td", {}, when(c.created_at)),
        h("td", {}, h("a", { href: `/games/${c.game}/replay/` }, kindTitle(c.kind))), h("td", {}, String(c.place)),
        h("td", {}, fixed(c.rating)), h("td", {}, `${fixed(c.mu_before)} → ${fixed(c.mu)}`)))))));
}

async function main() {
  const [ratings, games] = await Promise.all([api(`players/${playerId}/ratings/`),
    api("games/", { params: { player: playerId, limit: 20 } })]);
  document.title = `${ratings.name} · Tavolo`;
  const kinds = ratings.ratings.map((r) => r.kind).filter((k) => ratings.history.some((c) => c.kind === k));
  mount(root, h("h1", {}, ratings.name), h("p.muted", {}, `Player number ${ratings.player}`),
    h("section", {}, h("h2", {}, "Ratings"), ratings.ratings.length
      ? [ratingsTable(ratings.ratings), kinds.length ? chart(ratings.history, kinds) : null, historyTable(ratings.history)]
      : h("p.muted", {}, "No rated game yet: a game is rated when every seat is a different person.")),
    h("section", {}, h("h2", {}, "Recent games"), listOf(games.results, gameItem, "No game yet.")));
}

main().catch((e) => mount(root, h("h1", {}, "Player"), errorBox(e)));
