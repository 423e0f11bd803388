// Spite and Malice and Diavoletto: each seat's goal pile, four discard rows and hand; the shared centre
// piles, the stock and the completed cards (docs/rules/spite-and-malice.md, diavoletto.md).
import { h } from "../dom.js";
import { cardName } from "./cards.js";

function moves(legal) {
  return legal.map((action) => {
    const name = cardName(action.card);
    if (action.type === "play") {
      const src = action.source === "hand" ? `hand:${action.card}`
        : action.source === "goal" ? `goal:${action.card}` : `row:${action.pile}:${action.card}`;
      const where = action.center === "new" ? "a new centre pile" : `centre pile ${action.center}`;
      return { action, src, dst: `centre:${action.center}`, card: action.card, label: `Play ${name} to ${where}` };
    }
    if (action.type === "discard") {
      return { action, src: `hand:${action.card}`, dst: `row:${action.pile}`, card: action.card,
        label: `Discard ${name} on row ${action.pile + 1}` };
    }
    if (action.type === "end_turn") return { action, src: null, dst: null, label: "End turn" };
    return { action, src: null, dst: null, label: JSON.stringify(action) };
  });
}

function row(ui, p, r, cards) {
  const mine = p === ui.seat;
  const dst = mine ? `row:${r}` : null;
  const target = ui.isTarget(dst);
  const top = cards.length - 1;
  const shown = cards.map((c, i) => ui.card(c, {
    src: mine && !target && i === top ? `row:${r}:${c}` : null, extra: i === top ? "" : "under" }));
  return ui.slot(dst, `${ui.name(p)}: row ${r + 1}, ${cards.length ? cards.length + " cards" : "empty"}`,
    shown.length ? shown : h("span.pc.empty", { "aria-hidden": "true" }), "row");
}

function player(ui, p) {
  const pl = ui.view.players[p];
  const mine = p === ui.seat;
  const totals = ui.view.totals?.[p];
  const panel = ui.seatPanel(p, [`hand ${pl.hand_count}`, `goal pile ${pl.goal_count}`,
    ui.view.target ? `points ${totals}` : null]);
  const goal = h("div.pile.goal", null, h("div.pile-label", null, "Goal"),
    pl.goal_top ? ui.card(pl.goal_top, { src: mine ? `goal:${pl.goal_top}` : null }) : h("span.pc.empty"),
    h("span.count", { "aria-label": `${pl.goal_count} cards in the goal pile` }, String(pl.goal_count)));
  const rows = h("div.rows", { "aria-label": `${ui.name(p)}'s discard rows` },
    pl.discards.map((cards, r) => row(ui, p, r, cards)));
  const hand = mine && pl.hand
    ? h("div.hand", { "aria-label": "Your hand" }, pl.hand.map((c) => ui.card(c, { src: `hand:${c}` })))
    : h("div.hand.hidden-hand", { "aria-label": `${ui.name(p)}'s hand: ${pl.hand_count} cards` },
      Array.from({ length: pl.hand_count }, () => ui.back()));
  return h("section", { class: `zone player${mine ? " mine" : ""}`, "aria-label": ui.name(p) },
    panel, h("div.player-cards", null, goal, h("div.pile", null, h("div.pile-label", null, "Discard rows"), rows),
      h("div.pile.hand-pile", null, h("div.pile-label", null, "Hand"), hand)));
}

function centre(ui) {
  const v = ui.view;
  const piles = v.centre.map((pile) => ui.slot(`centre:${pile.id}`,
    `centre pile ${pile.id}, value ${pile.value}`,
    [ui.card(pile.cards[pile.cards.length - 1], { title: `${cardName(pile.cards[pile.cards.length - 1])} (pile at ${pile.value})` }),
      h("span.pile-value", null, String(pile.value))], "centre-pile"));
  const fresh = ui.slot("centre:new", "new centre pile", h("span.pc.empty", null, "new"), "centre-pile new");
  return h("section.zone.centre", { "aria-label": "Centre" },
    h("div.pile", null, h("div.pile-label", null, "Stock"), ui.stack(v.stock_count, "cards in the stock")),
    h("div.centre-piles", { "aria-label": "Centre piles" }, piles, fresh),
    h("div.pile", null, h("div.pile-label", null, "Completed"), ui.stack(v.completed.length, "completed cards")),
    h("p.turn-info", null, `Turn ${v.turn}`, v.target ? ` · game ${v.game}, match to ${v.target}` : "",
      v.dead_turns ? ` · ${v.dead_turns} dead turn(s)` : ""));
}

function draw(ui, view) {
  const order = ui.order(view.players.length);
  const mine = ui.seat == null ? null : order.pop();
  return h("div.board", null,
    ui.others(order.map((p) => player(ui, p))), centre(ui), mine == null ? null : player(ui, mine));
}

const turnOf = (view) => view.current;

export const spiteAndMalice = { moves, draw, turnOf };
export const diavoletto = { moves, draw, turnOf };
