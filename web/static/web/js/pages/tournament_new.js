// New tournament: game, format, rounds, table size, the game's options and clock; POST /tournaments/ and on to
// its page, where the organiser adds entrants and starts it.
import { api, me } from "../api.js";
import { h, mount } from "../dom.js";
import { FORMATS, chosenOptions, errorBox, kindTitle, optionField, signInFirst } from "./common.js";

const root = document.getElementById("page");
const form = {};
let kinds = [];
const kindOf = () => kinds.find((k) => k.kind === form.kind.value);

function drawKind() {
  const kind = kindOf();
  mount(form.options, Object.entries(kind.options).map(([name, spec]) => optionField(name, spec)));
  mount(form.size, kind.seats.map((n) => h("option", { value: n }, `${n} players`)));
  form.size.disabled = kind.seats.length === 1;
}

async function submit(event) {
  event.preventDefault();
  mount(form.error);
  const body = { kind: form.kind.value, format: form.format.value, table_size: Number(form.size.value),
    options: chosenOptions(kindOf().options, form.options) };
  if (form.name.value.trim()) body.name = form.name.value.trim();
  if (form.rounds.value && form.format.value !== "knockout") body.rounds = Number(form.rounds.value);
  if (form.turn.value) body.turn_seconds = Number(form.turn.value);
  form.submit.disabled = true;
  try {
    const tournament = await api("tournaments/", { method: "POST", body });
    location.assign(`/tournaments/${tournament.id}/`);
  } catch (e) {
    form.submit.disabled = false;
    const fields = e.body?.errors ? Object.entries(e.body.errors).map(([k, v]) => `${k}: ${JSON.stringify(v)}`) : [];
    mount(form.error, h("p.error", {}, e.message), fields.map((f) => h("p.error", {}, f)));
  }
}

function build() {
  const wanted = new URLSearchParams(location.search).get("kind");
  form.name = h("input", { id: "t-name", maxlength: 80, placeholder: "e.g. Friday cup" });
  form.kind = h("select", { id: "t-kind" },
    kinds.map((k) => h("option", { value: k.kind, selected: k.kind === wanted }, kindTitle(k.kind))));
  form.format = h("select", { id: "t-format" }, Object.entries(FORMATS).map(([value, text]) => h("option", { value }, text)));
  form.rounds = h("input", { id: "t-rounds", type: "number", min: 1, placeholder: "what the format needs", inputmode: "numeric" });
  form.size = h("select", { id: "t-size" });
  form.options = h("div.options-grid");
  form.turn = h("input", { id: "t-turn", type: "number", min: 1, placeholder: "no clock", inputmode: "numeric" });
  form.error = h("div", { id: "new-tournament-error", role: "alert" });
  form.submit = h("button.primary", { type: "submit" }, "Create the tournament");
  form.kind.addEventListener("change", drawKind);
  form.format.addEventListener("change", () => { form.rounds.disabled = form.format.value === "knockout"; });
  drawKind();
  const field = (id, text, input) => h("div.field", {}, h("label", { for: id }, text), input);
  return h("form.card.new-game", { id: "new-tournament", onsubmit: submit },
    field("t-name", "Name", form.name), field("t-kind", "Game", form.kind),
    h("fieldset", {}, h("legend", {}, "Format"), field("t-format", "Format", form.format),
      field("t-rounds", "Rounds", form.rounds), field("t-size", "Players per table", form.size),
      field("t-turn", "Seconds per move", form.turn)),
    h("fieldset", {}, h("legend", {}, "Game options"), form.options),
    h("p.muted", {}, "You organise it: on its page you register yourself, add bots and start it."),
    form.error, form.submit);
}

async function main() {
  if (!me()) {
    mount(root, h("h1", {}, "New tournament"), signInFirst("organise a tournament"));
    return;
  }
  kinds = await api("kinds/");
  mount(root, h("h1", {}, "New tournament"), build());
}

main().catch((e) => mount(root, h("h1", {}, "New tournament"), errorBox(e)));
