// What the pages (not the table) share: kind titles, seat names, game rows, error boxes.
import { h, pageData } from "../dom.js";

/** The game's title from the page data (every page gets the kinds from its view). */
export function kindTitle(kind) {
  const found = (pageData().kinds || []).find((k) => k.kind === kind);
  return found ? found.title : kind;
}

/** A seat of a game summary as a person reads it: the player's name, or "heuristic bot (seat 2)". Seats are
 * counted from 1 on screen (as on the table), from 0 in the API and in URLs. */
export function seatName(seat) {
  if (!seat) return "";
  if (seat.name) return seat.name;
  return seat.bot ? `${seat.bot} bot (seat ${seat.index + 1})` : `seat ${seat.index + 1}`;
}

/** A seat's name linked to the player's page when it is a person. */
export function seatLink(seat) {
  return seat.player ? h("a", { href: `/players/${seat.player}/` }, seatName(seat)) : h("span", {}, seatName(seat));
}

/** "ann, heuristic bot" with the winners marked, for one line of a list. */
export function seatList(game) {
  const winners = new Set(game.result?.winners || []);
  const parts = [];
  game.seats.forEach((seat, i) => {
    if (i) parts.push(", ");
    parts.push(seatLink(seat));
    if (winners.has(seat.index)) parts.push(h("span.win", { title: "winner" }, " ★"));
  });
  return parts;
}

/** Who won, in words (finished games only). */
export function resultText(game) {
  if (game.status === "aborted") return `aborted${game.abort_reason ? ` (${game.abort_reason})` : ""}`;
  if (!game.result) return game.status;
  const winners = (game.result.winners || []).map((i) => seatName(game.seats[i]));
  return winners.length ? `won by ${winners.join(" and ")}` : "no winner";
}

/** One game in a list: kind, seats, status, links to the table and (when over) the replay. */
export function gameItem(game) {
  const over = game.status === "finished";
  return h("li.game-item", { dataset: { game: game.id } },
    h("a.game-link", { href: `/games/${game.id}/` }, kindTitle(game.kind)),
    " · ", seatList(game), " · ",
    h("span.muted", {}, over ? resultText(game) : game.status),
    over ? [" · ", h("a", { href: `/games/${game.id}/replay/` }, "replay")] : null);
}

/** An error shown in place of the content it stopped. */
export function errorBox(error) {
  return h("p.error", { role: "alert" }, error?.message || String(error));
}

/** A status as a small badge ("running", "finished"...). */
export function badge(status) {
  return h("span.status-badge", { dataset: { status } }, status.replaceAll("_", " "));
}

export const FORMATS = { round_robin: "round robin", swiss: "Swiss", knockout: "knockout", duplicate: "duplicate" };

/** One tournament in a list: name, game, format, status and round. */
export function tournamentItem(t) {
  const round = t.current_round ? ` · round ${t.current_round}${t.rounds ? ` of ${t.rounds}` : ""}` : "";
  return h("li.tournament-item", { dataset: { tournament: t.id } },
    h("a", { href: `/tournaments/${t.id}/` }, t.name || "Tournament"), " · ", kindTitle(t.kind), " · ",
    FORMATS[t.format] || t.format, " ", badge(t.status), h("span.muted", {}, round));
}

/** A list of `items` drawn by `item`, or a line saying there are none. */
export function listOf(items, item, none, className = "game-list") {
  return items.length ? h(`ul.${className}`, {}, items.map(item)) : h("p.muted", {}, none);
}

/** An input for one option of the kind, from its description (type, default, bounds, choices). */
export function optionField(name, spec) {
  const id = `option-${name}`;
  let input;
  if (spec.choices) {
    input = h("select", { id, name }, spec.choices.map((c) => h("option", { value: c, selected: c === spec.default }, c)));
  } else if (spec.type === "bool") {
    input = h("input", { id, name, type: "checkbox", checked: spec.default === true });
  } else {
    input = h("input", { id, name, type: spec.type === "int" ? "number" : "text", min: spec.minimum, max: spec.maximum,
      placeholder: spec.default === null ? "none" : String(spec.default), inputmode: spec.type === "int" ? "numeric" : null });
  }
  return h("div.field", {}, h("label", { for: id }, name.replaceAll("_", " ")), input,
    spec.help ? h("small.muted", {}, spec.help) : null);
}

/** The options a person changed: an empty field keeps the server's default. */
export function chosenOptions(specs, container) {
  const options = {};
  for (const [name, spec] of Object.entries(specs)) {
    const input = container.querySelector(`[name="${name}"]`);
    if (spec.type === "bool") { if (input.checked !== spec.default) options[name] = input.checked; continue; }
    if (input.value === "" || input.value === String(spec.default)) continue;
    options[name] = spec.type === "int" ? Number(input.value) : input.value;
  }
  return options;
}

/** "Sign in to …" for pages that need a player, coming back here afterwards. */
export function signInFirst(what) {
  const next = encodeURIComponent(location.pathname + location.search);
  return h("p", {}, h("a", { href: `/signin/?next=${next}` }, "Sign in"), ` to ${what}: you choose a name, nothing else.`);
}
