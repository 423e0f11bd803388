// The trick games: Muscio (docs/rules/muscio.md) and Tarocchi Siciliani of Mineo (tarocchi-mineo.md).
// Seats around the trick in progress, the turn-up / monte in the middle, the viewer's hand below.
import { h } from "../dom.js";
import { cardName } from "./cards.js";

const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const WORDS = {
  play: "Play", play_blinde: "Play the blinde", pass: "Pass", no_exchange: "Keep my hand", forfeit: "Forfeit",
  no_forfeit: "Play on", call: "Call", solo: "Go solo", scommessa: "Bet (scommessa)", no_scommessa: "No bet",
  rivanto: "Rivanto", no_rivanto: "No rivanto",
};

function buttonMove(action) {
  return { action, src: null, dst: null, label: WORDS[action.type] || action.type };
}

/** A card action played by clicking the card alone (a trick card, the card given up for the turn-up). */
function cardMoves(legal, pack) {
  return legal.map((action) => {
    if (!action.card) return buttonMove(action);
    const verb = action.type === "exchange" ? "Give up" : "Play";
    return { action, src: `hand:${action.card}`, dst: null, card: action.card,
      label: `${verb} ${cardName(action.card, pack)}` };
  });
}

function trickCards(ui, plays, { faceDownAt = 2 } = {}) {
  return h("div.trick", { "aria-label": "Trick" }, plays.map((play) => {
    const [s, card] = play;
    const down = play[faceDownAt] === true;
    return h("figure.played", { dataset: { seat: s } },
      card && !down ? ui.card(card) : ui.back(`${ui.name(s)}: a face-down card`),
      h("figcaption", null, ui.name(s), down && card ? " (face down)" : ""));
  }));
}

function handOf(ui, cards) {
  return h("div.hand", { "aria-label": "Your hand" }, cards.map((c) => ui.card(c, { src: `hand:${c}` })));
}

function backs(ui, p, n) {
  return h("div.hand.hidden-hand", { "aria-label": `${ui.name(p)}: ${n} cards in hand` },
    Array.from({ length: n }, () => ui.back()));
}

// -- Muscio -------------------------------------------------------------------------------------------------
function muscioDraw(ui, v) {
  const seats = ui.order(v.players);
  const mine = ui.seat == null ? null : seats.pop();
  const seatZone = (p) => h("section", { class: `zone player${p === ui.seat ? " mine" : ""}`, "aria-label": ui.name(p) },
    ui.seatPanel(p, [`score ${v.scores[p]}`, p === v.dealer ? "dealer" : null,
      v.declarations[p] ? `declared: ${WORDS[v.declarations[p]] || v.declarations[p]}` : null,
      v.participants.includes(p) ? `tricks ${v.tricks_won[p]}` : null, p === v.blinde_taker ? "took the blinde" : null]),
    p === ui.seat && v.my_hand ? handOf(ui, v.my_hand) : backs(ui, p, v.hand_counts[p]));
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const middle = h("section.zone.centre", { "aria-label": "Centre" },
    h("div.pile", null, h("div.pile-label", null, `Turn-up${v.turn_up_taken ? " (taken)" : ""}`),
      v.turn_up ? ui.card(v.turn_up) : h("span.pc.empty")),
    h("div.pile", null, h("div.pile-label", null, "Trump"), h("strong.trump", null, v.trump ? SUITS[v.trump] : "—")),
    h("div.pile", null, h("div.pile-label", null, "Blinde"), ui.stack(v.blinde_count, "cards in the blinde")),
    h("div.pile", null, h("div.pile-label", null, "Stock"), ui.stack(v.stock_count, "unused cards")),
    h("div.trick-area", null, h("div.pile-label", null, `Hand ${v.hand} · ${v.phase} · trick ${v.tricks.length + (v.trick.length ? 1 : 0)}`),
      v.trick.length ? trickCards(ui, v.trick) : last ? h("div.last-trick", null,
        h("span.muted", null, `Last trick, won by ${ui.name(last.winner)}:`), trickCards(ui, last.plays)) : null),
    v.gatta?.length ? h("p.note", null, "Gatta!") : null,
    v.last_hand ? h("p.note.muted", null, `Last hand: ${Object.entries(v.last_hand.deltas)
      .map(([s, d]) => `${ui.name(Number(s))} ${d > 0 ? "+" : ""}${d}`).join(", ")}`) : null);
  return h("div.board", null, ui.others(seats.map(seatZone)), middle, mine == null ? null : seatZone(mine));
}

export const muscio = {
  moves: (legal) => cardMoves(legal, "french"),
  draw: muscioDraw,
  turnOf: (v) => v.turn,
};

// -- Tarocchi -----------------------------------------------------------------------------------------------
const BIDS = { pass: "passed", call: "called", solo: "solo", scommessa: "bet", no_scommessa: "no bet",
  rivanto: "rivanto", no_rivanto: "no rivanto" };

function tarocchiMoves(legal) {
  return legal.filter((a) => a.type !== "discard").map((action) =>
    action.card ? { action, src: `hand:${action.card}`, dst: null, card: action.card,
      label: `Play ${cardName(action.card, "tarocchi")}` } : buttonMove(action));
}

/** The declarer's discard: pick three cards among the legal combinations, then confirm. */
function discardPicker(ui, hand) {
  const combos = (ui.args.legal || []).filter((a) => a.type === "discard");
  const picked = (ui.root.dataset.picked || "").split(",").filter((c) => hand.includes(c));
  const fits = combos.filter((a) => picked.every((c) => a.cards.includes(c)));
  const setPicked = (list) => {
    if (list.length) ui.root.dataset.picked = list.join(",");
    else delete ui.root.dataset.picked;
    ui.redraw();
  };
  const cards = hand.map((c) => {
    const label = cardName(c, "tarocchi");
    if (picked.includes(c)) {
      return h("button", { type: "button", class: "pc selected", "aria-pressed": "true", "aria-label": `${label} (chosen)`,
        title: label, dataset: { card: c }, onclick: () => setPicked(picked.filter((x) => x !== c)) },
      ui.card(c).firstChild);
    }
    if (picked.length < 3 && fits.some((a) => a.cards.includes(c))) {
      return h("button", { type: "button", class: "pc legal", "aria-pressed": "false", "aria-label": `Discard ${label}`,
        title: label, dataset: { card: c }, onclick: () => setPicked([...picked, c]) }, ui.card(c).firstChild);
    }
    return ui.card(c);
  });
  const chosen = picked.length === 3 ? fits.find((a) => a.cards.length === 3) : null;
  return h("div.discard-picker", null,
    h("p.hint", null, `Choose the 3 cards to discard (${picked.length}/3).`),
    h("div.hand", { "aria-label": "Your hand" }, cards),
    chosen ? ui.button(`Discard ${picked.map((c) => cardName(c, "tarocchi")).join(", ")}`, () => {
      delete ui.root.dataset.picked;
      ui.act({ action: chosen });
    }, "action") : null);
}

function tarocchiDraw(ui, v) {
  const seats = ui.order(4);
  const mine = ui.seat == null ? null : seats.pop();
  const bidsOf = (p) => [...(v.stata_bids || []), ...(v.bids || []), ...(v.commits || [])]
    .filter(([s]) => s === p).map(([, b]) => BIDS[b] || b);
  const discarding = (ui.args.legal || []).some((a) => a.type === "discard");
  const seatZone = (p) => h("section", { class: `zone player${p === ui.seat ? " mine" : ""}`, "aria-label": ui.name(p) },
    ui.seatPanel(p, [`score ${v.scores[p]}`, p === v.dealer ? "dealer" : null,
      p === v.declarer ? `declarer (${v.contract})` : null, v.partner === p ? "partner" : null,
      v.fuggitivo?.owner === p ? "had the Fuggitivo" : null, ...bidsOf(p)]),
    p === ui.seat && v.hand ? (discarding ? discardPicker(ui, v.hand) : handOf(ui, v.hand)) : backs(ui, p, v.hand_counts[p]),
    p === ui.seat && v.discard?.length ? h("div.pile.own-discard", null, h("div.pile-label", null, "Your discard"),
      h("div.fan", null, v.discard.map((c) => ui.card(c)))) : null);
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const middle = h("section.zone.centre", { "aria-label": "Centre" },
    h("div.pile", null, h("div.pile-label", null, v.monte?.length || v.stock_count <= 3 ? "Monte" : "Undealt"),
      v.monte?.length ? h("div.fan", null, v.monte.map((c) => ui.card(c)))
      : ui.stack(v.stock_count, "cards in the monte")),
    v.peek ? h("div.pile", null, h("div.pile-label", null, "Bottom card (you, the dealer)"), ui.card(v.peek)) : null,
    v.called ? h("div.pile", null, h("div.pile-label", null, "Called card"), ui.card(v.called)) : null,
    v.discard_count ? h("div.pile", null, h("div.pile-label", null, "Discard"), ui.stack(v.discard_count, "discarded cards")) : null,
    h("div.trick-area", null, h("div.pile-label", null, `Deal ${v.deal + 1} of ${v.deals} · ${v.phase} · trick ${v.tricks.length +
      (v.trick.length ? 1 : 0)} of 15`),
    v.trick.length ? trickCards(ui, v.trick, { faceDownAt: 9 }) : last ? h("div.last-trick", null,
      h("span.muted", null, `Last trick, won by ${ui.name(last[2])}:`), trickCards(ui, last[1], { faceDownAt: 9 })) : null),
    v.history?.length ? h("p.note.muted", null, `Last deal: ${historyText(ui, v.history[v.history.length - 1])}`) : null);
  return h("div.board", null, ui.others(seats.map(seatZone)), middle, mine == null ? null : seatZone(mine));
}

function historyText(ui, deal) {
  const scores = Object.entries(deal.scores || {}).map(([s, d]) => `${ui.name(Number(s))} ${d > 0 ? "+" : ""}${d}`);
  return `${deal.type}${deal.winner ? `, won by the ${deal.winner}` : ""}; ${scores.join(", ")}`;
}

export const tarocchi = { moves: tarocchiMoves, draw: tarocchiDraw, turnOf: (v) => v.turn };
