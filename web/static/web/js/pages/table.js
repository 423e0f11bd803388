// The table page /games/<id>/: the summary and the caller's /state/ (a seat, or a spectator's view), kept live
// by the game's SSE stream (resumed after the last version seen), with a slow poll of the summary as a
// fallback. A seated player plays by clicking the moves the server lists; an invited player accepts or
// declines here; a finished game shows its result and links to the replay.
import { api, ApiError, gameStream, me } from "../api.js";
import { h, mount, pageData, toast } from "../dom.js";
import { renderTable, tickClocks } from "../table/render.js";

const TITLES = { "spite-and-malice": "Spite and Malice", diavoletto: "Diavoletto", muscio: "Muscio",
  "tarocchi-mineo": "Tarocchi Siciliani (Mineo)", machiavelli: "Machiavelli" };
const POLL_MS = 15000;
const TICK_MS = 3000;
const RECONNECT_MS = 3000;

const gameId = pageData().game_id;
const page = document.getElementById("page");
const tableRoot = h("div", { id: "table", "aria-busy": "true" });
const live = {
  summary: null, state: null, error: null, notice: null, busy: false, stream: null, refreshing: null, again: false,
};

function seatName(i) {
  const s = live.summary?.seats[i];
  return s?.name || (s?.bot ? `${s.bot} bot (seat ${i + 1})` : `Seat ${i + 1}`);
}

function resultText(result) {
  if (!result) return "";
  const winners = result.winners?.length ? `Winner: ${result.winners.map(seatName).join(", ")}` : "A draw";
  const scores = result.scores && typeof result.scores === "object"
    ? Object.entries(result.scores).map(([s, v]) => `${seatName(Number(s))} ${v}`).join(" · ") : "";
  return [winners, scores, result.reason ? `(${String(result.reason).replaceAll("_", " ")})` : ""].filter(Boolean).join(" — ");
}

function banner() {
  const { summary } = live;
  if (summary.status === "finished") {
    return h("section.game-over", { role: "status" }, h("h2", null, "Game over"), h("p.result", null, resultText(summary.result)),
      h("p", null, h("a.button.primary", { href: `/games/${gameId}/replay/` }, "Step through the replay"), " ",
        h("a", { href: `/api/v1/games/${gameId}/export/` }, "Raw export (log, seed and verification)")));
  }
  if (summary.status === "aborted") {
    return h("section.game-over.aborted", { role: "status" }, h("h2", null, "Game aborted"),
      h("p", null, summary.abort_reason ? `Reason: ${summary.abort_reason}` : ""));
  }
  return null;
}

function invitation() {
  const player = me();
  const { summary } = live;
  const mine = summary.seats.filter((s) => player && s.player === player.id);
  const waiting = summary.seats.filter((s) => s.player && !s.accepted).map((s) => s.name);
  const answer = async (verb) => {
    try {
      live.summary = await api(`games/${gameId}/${verb}/`, { method: "POST" });
      await refresh();
      connect();
    } catch (e) {
      toast(e.message, "error");
    }
  };
  return h("section.invitation", { "aria-label": "Invitation" },
    h("h2", null, "This game waits for every seated player to accept"),
    h("p", null, `Waiting for: ${waiting.join(", ") || "nobody"}`),
    mine.some((s) => !s.accepted) ? h("div.buttons", null,
      h("button.primary", { type: "button", id: "accept", onclick: () => answer("accept") }, "Accept and play"),
      h("button", { type: "button", id: "decline", onclick: () => answer("decline") }, "Decline")) : null);
}

function render() {
  const { summary, state } = live;
  if (!summary) {
    if (live.notice) mount(page, h("p.error", { role: "alert" }, live.notice));
    return;
  }
  const toAct = state?.to_act || summary.to_act || [];
  document.title = `${TITLES[summary.kind] || summary.kind} · Tavolo`;
  const head = h("header.table-head", null,
    h("h1", null, TITLES[summary.kind] || summary.kind),
    h("p.status", { "aria-live": "polite" },
      summary.status === "active" ? `To play: ${toAct.map(seatName).join(", ") || "—"}` : `Status: ${summary.status}`,
      state?.seat == null ? " · you are watching" : ` · you hold seat ${state.seat + 1}`,
      ` · version ${state?.version ?? summary.version}`,
      " · ", h("a", { href: `/rules/${summary.kind}/` }, "rules")));
  tableRoot.setAttribute("aria-busy", String(live.busy));
  tableRoot.dataset.version = String(state?.version ?? summary.version);
  if (state) {
    const mineToAct = state.seat != null && state.to_act.includes(state.seat) && state.status === "active";
    renderTable(tableRoot, {
      kind: summary.kind, view: state.view, seats: summary.seats, seat: state.seat,
      legal: mineToAct && !live.busy ? state.legal_actions : null, onAction: play,
      toAct: state.status === "active" ? state.to_act : [], deadlines: state.deadlines, error: live.error,
    });
  } else {
    mount(tableRoot);
  }
  mount(page, head, banner(), summary.status === "pending" ? invitation() : null,
    live.notice && !state ? h("p.notice", { role: "status" }, live.notice) : null, tableRoot);
}

/** Send one action with the version it was chosen at; a refusal's text stays on the table until the next move. */
async function play(action) {
  if (live.busy) return;
  live.busy = true;
  render();
  try {
    await api(`games/${gameId}/actions/`, {
      method: "POST", body: { action, expected_version: live.state.version },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    live.error = null;
  } catch (e) {
    live.error = e instanceof ApiError ? e.message : "the move could not be sent; try again";
    toast(live.error, "error");
  } finally {
    live.busy = false;
  }
  await refresh();
}

/** Reload summary and state; calls made meanwhile are folded into one more reload. */
async function refresh() {
  if (live.refreshing) {
    live.again = true;
    return live.refreshing;
  }
  live.refreshing = (async () => {
    do {
      live.again = false;
      try {
        live.summary = await api(`games/${gameId}/`);
        if (!["pending", "aborted"].includes(live.summary.status)) { // never dealt: no state to show
          const state = await api(`games/${gameId}/state/`);
          if (live.state && state.version !== live.state.version) live.error = null;
          live.state = state;
        }
      } catch (e) {
        const message = e instanceof ApiError ? e.message : "the server cannot be reached; retrying";
        if (!live.summary || e.code === "game_sealed") live.notice = message; // e.g. a running duplicate round
        else toast(message, "error");
      }
      render();
    } while (live.again);
  })().finally(() => { live.refreshing = null; });
  return live.refreshing;
}

function version() {
  return live.state?.version ?? live.summary?.version ?? 0;
}

/** Follow the game's stream; each `head` newer than what we show triggers one reload. */
function connect() {
  if (live.stream || !live.summary || ["finished", "aborted", "pending"].includes(live.summary.status)) return;
  const stream = gameStream(gameId, { after: version() });
  live.stream = stream;
  stream.addEventListener("head", (event) => {
    if (JSON.parse(event.data).version > version()) refresh();
  });
  stream.addEventListener("end", () => {
    stream.close();
    live.stream = null;
    refresh();
  });
  stream.onerror = () => {
    if (stream.readyState !== EventSource.CLOSED) return; // EventSource reconnects by itself
    live.stream = null;
    setTimeout(() => refresh().then(connect), RECONNECT_MS);
  };
}

async function start() {
  await refresh();
  connect();
  let ticks = 0;
  setInterval(async () => {
    const status = live.summary?.status;
    ticks += 1;
    // A pending game is checked every tick (the others may accept any moment), a live one every POLL_MS.
    if (["finished", "aborted"].includes(status) || (status !== "pending" && ticks % (POLL_MS / TICK_MS))) return;
    try {
      const summary = await api(`games/${gameId}/`);
      if (summary.version !== version() || summary.status !== status) {
        await refresh();
        connect();
      }
    } catch { /* the next tick tries again */ }
  }, TICK_MS);
  setInterval(() => tickClocks(tableRoot), 1000);
}

start();
