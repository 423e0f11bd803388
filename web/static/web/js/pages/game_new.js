// New game: a kind, its options (GET /kinds/), the seats (you, bots from GET /bots/ at their level, other players
// by number: an invitation) and the clock; POST /games/ and on to the table.
import { api, me } from "../api.js";
import { h, mount } from "../dom.js";
import { chosenOptions, errorBox, kindTitle, optionField, signInFirst } from "./common.js";

const root = document.getElementById("page");
const CLOCK_POLICIES = { random: "a random move is played for you", heuristic: "the heuristic bot moves for you",
  forfeit: "you forfeit the game" };

let kinds = [];
let bots = [];
const form = {};

const kindOf = () => kinds.find((k) => k.kind === form.kind.value);

function seatRow(index, player) {
  const kind = form.kind.value;
  const choices = [
    player ? h("option", { value: "me", selected: index === 0 }, `Me (${player.name})`) : null,
    ...bots.filter((b) => b.kinds.includes(kind)).map((b) =>
      h("option", { value: `bot:${b.name}`, selected: index > 0 && b.name === "heuristic" }, `${b.name} bot`)),
    h("option", { value: "player" }, "Invite a player…"),
  ];
  const who = h("select", { id: `seat-${index}`, name: "who" }, choices);
  const extra = h("span.seat-extra");
  const row = h("li.seat-row", { dataset: { seat: index } }, h("label", { for: `seat-${index}` }, `Seat ${index + 1}`), who, extra);
  const refresh = () => mount(extra, seatExtra(index, who.value, kind));
  who.addEventListener("change", refresh);
  refresh();
  return row;
}

/** What a seat choice needs besides itself: the search bot's thinking time, an invited player's number. */
function seatExtra(index, value, kind) {
  if (value === "bot:search") {
    const spec = bots.find((b) => b.name === "search").options.budget_ms;
    const fallback = spec.default_by_kind?.[kind] ?? spec.default;
    return [h("label", { for: `budget-${index}` }, "Thinking time (ms)"),
      h("input", { id: `budget-${index}`, name: "budget_ms", type: "number", min: spec.minimum, max: spec.maximum, value: fallback })];
  }
  if (value === "player") {
    const name = h("span.muted", { "aria-live": "polite" });
    const input = h("input", { id: `player-${index}`, name: "player", type: "number", min: 1, required: true, inputmode: "numeric" });
    input.addEventListener("change", async () => {
      name.textContent = "";
      if (!input.value) return;
      try {
        name.textContent = `→ ${(await api(`players/${input.value}/ratings/`, { auth: false })).name}`;
      } catch {
        name.textContent = "→ no such player";
      }
    });
    return [h("label", { for: `player-${index}` }, "Player number (from their page)"), input, name];
  }
  return [];
}

function drawKind() {
  const kind = kindOf();
  mount(form.options, Object.entries(kind.options).map(([name, spec]) => optionField(name, spec)));
  mount(form.count, kind.seats.map((n) => h("option", { value: n }, `${n} players`)));
  form.count.disabled = kind.seats.length === 1;
  drawSeats();
}

function drawSeats() {
  const player = me();
  mount(form.seats, Array.from({ length: Number(form.count.value) }, (_, i) => seatRow(i, player)));
}

function seatsBody() {
  const player = me();
  return [...form.seats.children].map((row) => {
    const who = row.querySelector('[name="who"]').value;
    if (who === "me") return { player: player.id };
    if (who === "player") return { player: Number(row.querySelector('[name="player"]').value) };
    const seat = { bot: who.slice(4) };
    const budget = row.querySelector('[name="budget_ms"]');
    if (budget?.value) seat.budget_ms = Number(budget.value);
    return seat;
  });
}

async function submit(event) {
  event.preventDefault();
  mount(form.error);
  const body = { kind: form.kind.value, seats: seatsBody(), options: chosenOptions(kindOf().options, form.options) };
  if (form.turn.value) {
    body.turn_seconds = Number(form.turn.value);
    body.clock_policy = form.policy.value;
  }
  form.submit.disabled = true;
  try {
    const game = await api("games/", { method: "POST", body });
    location.assign(`/games/${game.id}/`);
  } catch (e) {
    form.submit.disabled = false;
    const fields = e.body?.errors ? Object.entries(e.body.errors).map(([k, v]) => `${k}: ${JSON.stringify(v)}`) : [];
    mount(form.error, h("p.error", {}, e.message), fields.length ? h("ul.error", {}, fields.map((f) => h("li", {}, f))) : null);
  }
}

function build() {
  const wanted = new URLSearchParams(location.search).get("kind");
  form.kind = h("select", { id: "game-kind", name: "kind" },
    kinds.map((k) => h("option", { value: k.kind, selected: k.kind === wanted }, kindTitle(k.kind))));
  form.count = h("select", { id: "game-count", name: "count" });
  form.options = h("div.options-grid");
  form.seats = h("ol.seats");
  form.turn = h("input", { id: "game-turn", type: "number", min: 1, placeholder: "no clock", inputmode: "numeric" });
  form.policy = h("select", { id: "game-policy" },
    Object.entries(CLOCK_POLICIES).map(([value, text]) => h("option", { value }, text)));
  form.error = h("div", { id: "new-game-error", role: "alert" });
  form.submit = h("button.primary", { type: "submit" }, "Create the game");
  form.kind.addEventListener("change", drawKind);
  form.count.addEventListener("change", drawSeats);
  drawKind();
  return h("form.card.new-game", { id: "new-game", onsubmit: submit },
    h("div.field", {}, h("label", { for: "game-kind" }, "Game"), form.kind, " ",
      h("a", { href: `/rules/${form.kind.value}/`, id: "kind-rules" }, "rules")),
    h("fieldset", {}, h("legend", {}, "Seats"),
      h("label", { for: "game-count" }, "Number of players"), form.count, form.seats,
      h("p.muted", {}, "An invited player gets a notification; the cards are dealt once every person has accepted.")),
    h("fieldset", {}, h("legend", {}, "Options"), form.options),
    h("fieldset", {}, h("legend", {}, "Clock"),
      h("label", { for: "game-turn" }, "Seconds per move"), form.turn,
      h("label", { for: "game-policy" }, "When time runs out"), form.policy),
    form.error, form.submit);
}

async function main() {
  if (!me()) {
    mount(root, h("h1", {}, "New game"), signInFirst("create a game"));
    return;
  }
  [kinds, bots] = await Promise.all([api("kinds/"), api("bots/")]);
  mount(root, h("h1", {}, "New game"), build());
  form.kind.addEventListener("change", () => {
    document.getElementById("kind-rules").href = `/rules/${form.kind.value}/`;
  });
}

main().catch((e) => mount(root, h("h1", {}, "New game"), errorBox(e)));
window.addEventListener("tavolo:session", () => location.reload());
