// Replay: step through a game's log (/replay/ and /replay/<n>/), through any seat's eyes once it is over, or
// your own while it runs. The step and the viewpoint live in the URL (?step=N&seat=S), so a link shows the same.
import { api, me } from "../api.js";
import { h, mount, pageData } from "../dom.js";
import { renderTable } from "../table/render.js";
import { errorBox, kindTitle, resultText, seatList, seatName } from "./common.js";

const root = document.getElementById("page");
const { game_id: gameId } = pageData();
const DETAILS_MAX = 160; // characters of an event's data shown next to the step (a shuffle lists a whole deck)
const SPEEDS = { "0.5": 1600, "1": 800, "2": 400, "4": 200 }; // autoplay: milliseconds per step

const state = {
  game: null, steps: [], events: new Map(), step: 1, viewpoint: "spectator", mine: [],
  cache: new Map(), shown: 0, timer: null,
};
const ui = {};

const isOver = (game) => game.status === "finished" || game.status === "aborted";

/** Viewpoints this person may use: "spectator", their own seats, and once the game is over every seat and "all". */
function viewpoints() {
  const over = isOver(state.game);
  const seats = over ? state.game.seats.map((s) => s.index) : state.mine;
  return ["spectator", ...seats.map(String), ...(over ? ["all"] : [])];
}

function viewpointLabel(v) {
  if (v === "spectator") return "Spectator";
  if (v === "all") return "Everything (every seat)";
  const seat = state.game.seats[Number(v)];
  return `Seat ${seat.index + 1}: ${seat.name || `${seat.bot} bot`}`;
}

/** The view after `step` through viewpoint `v` (one seat or the spectator): a request, cached. */
function fetchView(step, v) {
  const key = `${step}:${v}`;
  if (!state.cache.has(key)) {
    const request = v === "spectator"
      ? api(`games/${gameId}/replay/${step}/`, { auth: false })
      : api(`games/${gameId}/replay/${step}/`, { params: { seat: v } });
    state.cache.set(key, request);
    request.catch(() => state.cache.delete(key));
  }
  return state.cache.get(key);
}

async function loadViews(step, v) {
  if (v !== "all") return [{ viewpoint: v, data: await fetchView(step, v) }];
  const seats = state.game.seats.map((s) => String(s.index));
  const all = await Promise.all(seats.map((s) => fetchView(step, s)));
  return all.map((data, i) => ({ viewpoint: seats[i], data }));
}

function describeStep(step) {
  const entry = state.steps[step - 1];
  if (!entry) return "";
  const event = state.events.get(step);
  const who = entry.actor === null || entry.actor === undefined ? "" : ` by ${seatName(state.game.seats[entry.actor])}`;
  const details = event?.data
    ? Object.entries(event.data).filter(([k]) => k !== "seat").map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")
    : "";
  const short = details.length > DETAILS_MAX ? `${details.slice(0, DETAILS_MAX)}…` : details;
  return `${entry.type.replaceAll("_", " ")}${who}${short ? ` (${short})` : ""}`;
}

function writeUrl() {
  const url = new URL(location.href);
  url.searchParams.set("step", state.step);
  url.searchParams.set("seat", state.viewpoint);
  history.replaceState(null, "", url);
}

/** Show step `n` (clamped): controls and URL at once, the table when its view arrives (latest request wins). */
async function show(n) {
  const last = state.steps.length;
  state.step = Math.min(Math.max(1, Math.round(n) || 1), last);
  ui.slider.value = state.step;
  ui.slider.setAttribute("aria-valuetext", `step ${state.step} of ${last}`);
  ui.position.textContent = `Step ${state.step} of ${last}`;
  ui.event.textContent = describeStep(state.step);
  ui.prev.disabled = ui.first.disabled = state.step <= 1;
  ui.next.disabled = ui.last.disabled = state.step >= last && state.game.status !== "active";
  writeUrl();
  const ticket = ++state.shown;
  const { step, viewpoint } = state;
  try {
    const views = await loadViews(step, viewpoint);
    if (ticket === state.shown) drawViews(views, step);
  } catch (e) {
    if (ticket === state.shown) mount(ui.table, errorBox(e));
  }
}

/** Draw the views of `step`; the table's data-step and data-viewpoint say what it shows once drawn. */
function drawViews(views, step) {
  const { kind, seats } = state.game;
  const boxes = views.map(({ viewpoint, data }) => {
    const box = h("div.replay-view", { dataset: { viewpoint } });
    if (data.view === null) box.append(h("p.muted", {}, "The game is created: nothing is dealt yet."));
    else {
      try {
        renderTable(box, { kind, view: data.view, seats, seat: viewpoint === "spectator" ? null : Number(viewpoint), legal: null,
          toAct: data.to_act });
      } catch (e) {
        mount(box, errorBox(e)); // the data below still shows what this viewpoint sees
      }
    }
    return views.length > 1 ? h("section.replay-seat", {}, h("h2", {}, viewpointLabel(viewpoint)), box) : box;
  });
  mount(ui.table, h("div", { class: views.length > 1 ? "replay-all" : "replay-one" }, boxes));
  Object.assign(ui.table.dataset, { step, viewpoint: state.viewpoint });
  const shown = views.length > 1 ? Object.fromEntries(views.map((v) => [v.viewpoint, v.data.view])) : views[0].data.view;
  ui.json.textContent = JSON.stringify(shown, null, 1);
  ui.toAct.textContent = views[0].data.to_act.length
    ? `To act: ${views[0].data.to_act.map((i) => seatName(seats[i])).join(", ")}` : "";
}

/** A running game grows: past the last known step, fetch the index again. */
async function refreshSteps() {
  const [game, index] = await Promise.all([api(`games/${gameId}/`), api(`games/${gameId}/replay/`)]);
  state.game = game;
  state.steps = index.steps;
  ui.slider.max = index.steps.length;
}

async function step(delta) {
  if (delta > 0 && state.step >= state.steps.length && state.game.status === "active") await refreshSteps();
  await show(state.step + delta);
}

function autoplay(on) {
  clearInterval(state.timer);
  state.timer = null;
  if (on) {
    if (state.step >= state.steps.length) show(1);
    state.timer = setInterval(() => {
      if (state.step >= state.steps.length) autoplay(false);
      else show(state.step + 1);
    }, SPEEDS[ui.speed.value]);
  }
  ui.play.textContent = on ? "Pause" : "Play";
  ui.play.setAttribute("aria-pressed", on ? "true" : "false");
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, select, textarea")) return; // the slider and the select have their own keys
  const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => show(1), End: () => show(state.steps.length) };
  if (moves[event.key]) {
    event.preventDefault();
    autoplay(false);
    moves[event.key]();
  }
}

async function verificationLine() {
  const exportUrl = `/api/v1/games/${gameId}/export/`;
  if (!isOver(state.game)) {
    return h("p.muted", { id: "replay-verification" }, "The seed stays secret until the game is over; then the deal can be verified.");
  }
  try {
    const exported = await api(`games/${gameId}/export/`, { auth: false });
    const v = exported.verification;
    const text = v.ok ? "Deal verified from the revealed seed." : "Verification FAILED: the log does not match the revealed seed.";
    return h("p", { id: "replay-verification", class: v.ok ? "verified" : "error" }, h("strong", {}, text), " ",
      h("span.muted", {}, `${v.shuffles.length} shuffle${v.shuffles.length === 1 ? "" : "s"} re-derived, seed SHA-256 ${exported.seed_sha256.slice(0, 12)}…`),
      " ", h("a", { id: "replay-export", href: exportUrl }, "Raw export (JSON)"));
  } catch (e) {
    return h("p.muted", { id: "replay-verification" }, `No export: ${e.message}`);
  }
}

function buildControls() {
  ui.first = h("button", { type: "button", onclick: () => { autoplay(false); show(1); } }, "« First");
  ui.prev = h("button", { id: "replay-prev", type: "button", onclick: () => { autoplay(false); step(-1); } }, "◀ Previous");
  ui.play = h("button", { id: "replay-play", type: "button", "aria-pressed": "false", onclick: () => autoplay(!state.timer) }, "Play");
  ui.speed = h("select", { id: "replay-speed" }, Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: k === "1" }, `${k}×`)));
  ui.speed.addEventListener("change", () => { if (state.timer) autoplay(true); });
  ui.next = h("button", { id: "replay-next", type: "button", onclick: () => { autoplay(false); step(1); } }, "Next ▶");
  ui.last = h("button", { type: "button", onclick: () => { autoplay(false); show(state.steps.length); } }, "Last »");
  ui.slider = h("input", { id: "replay-slider", type: "range", min: 1, max: state.steps.length, value: state.step, "aria-label": "Step" });
  ui.slider.addEventListener("input", () => { autoplay(false); show(Number(ui.slider.value)); });
  ui.viewpoint = h("select", { id: "replay-viewpoint" },
    viewpoints().map((v) => h("option", { value: v, selected: v === state.viewpoint }, viewpointLabel(v))));
  ui.viewpoint.addEventListener("change", () => { state.viewpoint = ui.viewpoint.value; show(state.step); });
  ui.position = h("span.replay-position", { id: "replay-position", "aria-live": "polite" });
  ui.event = h("span.replay-event", { id: "replay-event" });
  ui.toAct = h("span.muted", { id: "replay-to-act" });
  return h("div.replay-controls", {},
    h("div.replay-buttons", {}, ui.first, ui.prev, ui.play, ui.next, ui.last),
    h("div.replay-slider", {}, ui.slider),
    h("div.replay-where", {}, ui.position, " · ", ui.event, " ", ui.toAct),
    h("div.replay-viewpoint", {}, h("label", { for: "replay-viewpoint" }, "Viewpoint"), ui.viewpoint,
      h("label", { for: "replay-speed" }, "Speed"), ui.speed));
}

async function main() {
  const [game, index] = await Promise.all([api(`games/${gameId}/`), api(`games/${gameId}/replay/`)]);
  state.game = game;
  state.steps = index.steps;
  document.title = `Replay: ${kindTitle(game.kind)} · Tavolo`;
  if (!state.steps.length) {
    mount(root, h("h1", {}, `Replay: ${kindTitle(game.kind)}`), h("p", {}, "This game was never dealt: there is nothing to replay."));
    return;
  }
  const player = me();
  state.mine = player ? game.seats.filter((s) => s.player === player.id).map((s) => String(s.index)) : [];
  const params = new URLSearchParams(location.search);
  const allowed = viewpoints();
  const asked = params.get("seat");
  state.viewpoint = allowed.includes(asked) ? asked : (state.mine[0] || "spectator");
  state.step = params.has("step") ? Number(params.get("step")) : state.steps.length;
  const events = await api(`games/${gameId}/events/`, { params: { after: 0 } }).catch(() => []);
  for (const event of events) state.events.set(event.seq, event);

  ui.table = h("div.replay-table", { id: "replay-table" });
  ui.json = h("pre.view-json", { id: "replay-view-json" });
  mount(root,
    h("h1", {}, `Replay: ${kindTitle(game.kind)}`),
    h("p.replay-players", {}, seatList(game), " · ", h("span", { id: "replay-status" }, resultText(game)), " · ",
      h("a", { href: `/games/${gameId}/` }, "The table")),
    await verificationLine(),
    buildControls(),
    ui.table,
    h("details.view-data", {}, h("summary", {}, "This viewpoint's data (JSON)"), ui.json));
  document.addEventListener("keydown", onKey);
  await show(state.step);
}

main().catch((e) => mount(root, h("h1", {}, "Replay"), errorBox(e)));
