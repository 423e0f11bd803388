// Machiavelli (docs/rules/machiavelli.md): the melds on the table, the stock, each seat's hand count, and the
// viewer's hand. A turn is "draw", "pass", one of the server's sample melds, or a table rearranged in the
// editor: cards moved between groups by click-to-move or drag-and-drop, then sent whole as one `meld`
// action. The server judges the arrangement; its refusal is shown as it comes.
import { h } from "../dom.js";
import { cardName } from "./cards.js";

const SUIT_ORDER = "SHDC";
const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** Display order for a hand: by suit, then rank (only the picture; the server keeps its own order). */
function sorted(cards) {
  const key = (c) => SUIT_ORDER.indexOf(c.slice(-1)) * 20 + RANK_ORDER.indexOf(c.slice(0, -1));
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** The cards of `after` not in `before`, as multisets (what a meld lays from the hand). */
function added(before, after) {
  const left = [...before];
  return after.filter((c) => {
    const i = left.indexOf(c);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

function moves(legal, view) {
  const table = view.table.flat();
  const seen = new Map();
  return legal.map((action) => {
    if (action.type !== "meld") return { action, src: null, dst: null, label: action.type === "draw" ? "Draw" : "Pass" };
    const laid = added(table, action.table.flat()).map((c) => cardName(c)).join(", ");
    const n = (seen.get(laid) || 0) + 1;
    seen.set(laid, n);
    return { action, src: null, dst: null, label: `Meld: lay ${laid}${n > 1 ? ` (arrangement ${n})` : ""}` };
  });
}

// -- the editor's working table, kept in root.dataset.editor as JSON ------------------------------------------
function baseKey(view) {
  return JSON.stringify([view.table, view.hand]);
}

function loadEditor(ui) {
  const v = ui.view;
  try {
    const saved = JSON.parse(ui.root.dataset.editor || "null");
    if (saved && saved.base === baseKey(v)) return saved;
  } catch { /* a fresh editor below */ }
  return null;
}

function saveEditor(ui, editor) {
  if (editor) ui.root.dataset.editor = JSON.stringify(editor);
  else delete ui.root.dataset.editor;
  ui.redraw();
}

function openEditor(ui) {
  const v = ui.view;
  saveEditor(ui, { base: baseKey(v), groups: v.table.map((g) => [...g]), hand: sorted(v.hand), sel: null });
}

/** Move the selected card (sel = [place, index], place "hand" or a group number) to `to` ("hand", n, "new"). */
function moveTo(ui, editor, to) {
  if (!editor.sel) return;
  const [from, index] = editor.sel;
  const list = from === "hand" ? editor.hand : editor.groups[from];
  const card = list[index];
  if (to === "hand") {
    const own = ui.view.hand.filter((c) => c === card).length;
    if (editor.hand.filter((c) => c === card).length >= own) return; // table cards never go back to a hand
  }
  list.splice(index, 1);
  if (to === "hand") editor.hand = sorted([...editor.hand, card]);
  else if (to === "new") editor.groups.push([card]);
  else editor.groups[to].push(card);
  editor.groups = editor.groups.filter((g) => g.length);
  editor.sel = null;
  saveEditor(ui, editor);
}

function editorCard(ui, editor, place, index, card) {
  const on = editor.sel && editor.sel[0] === place && editor.sel[1] === index;
  return h("button", { type: "button", class: `pc movable${on ? " selected" : ""}`, draggable: "true",
    "aria-pressed": String(Boolean(on)), "aria-label": `${cardName(card)}${place === "hand" ? " (from your hand)" : ""}`,
    title: cardName(card), dataset: { card, place: String(place), index: String(index) },
    onclick: (event) => {
      event.stopPropagation();
      editor.sel = on ? null : [place, index];
      saveEditor(ui, editor);
    },
    ondragstart: (event) => {
      event.dataTransfer.setData("text/plain", JSON.stringify([place, index]));
      event.dataTransfer.effectAllowed = "move";
    } }, ui.card(card).firstChild);
}

function dropZone(ui, editor, to, label, children, extra) {
  const el = h("div", { class: `drop ${extra}${editor.sel ? " armed" : ""}`, role: "group", "aria-label": label,
    dataset: { drop: String(to) },
    ondragover: (event) => { event.preventDefault(); el.classList.add("over"); },
    ondragleave: () => el.classList.remove("over"),
    ondrop: (event) => {
      event.preventDefault();
      editor.sel = JSON.parse(event.dataTransfer.getData("text/plain") || "null");
      moveTo(ui, editor, to);
    } },
  children,
  editor.sel ? h("button", { type: "button", class: "move-here", onclick: () => moveTo(ui, editor, to) },
    to === "new" ? "New group here" : to === "hand" ? "Back to hand" : `Move to group ${to + 1}`) : null);
  return el;
}

function editorPanel(ui, editor) {
  ui.errorShown = Boolean(ui.args.error);
  const send = () => {
    const table = editor.groups.filter((g) => g.length);
    ui.act({ action: { type: "meld", table } });
  };
  return h("section.zone.editor", { "aria-label": "Rearrange the table" },
    h("h2", null, "Rearrange the table"),
    h("p.hint", null, "Click a card, then where it goes (or drag it). Send the whole table when every group is a set or a run."),
    h("div.groups", null, editor.groups.map((g, n) => dropZone(ui, editor, n, `group ${n + 1}`,
      g.map((c, i) => editorCard(ui, editor, n, i, c)), "group")),
    dropZone(ui, editor, "new", "new group", h("span.muted", null, "new group"), "group new")),
    h("h3", null, "Your hand"),
    dropZone(ui, editor, "hand", "your hand", editor.hand.map((c, i) => editorCard(ui, editor, "hand", i, c)), "hand"),
    ui.args.error ? h("p.error.meld-error", { role: "alert" }, ui.args.error) : null,
    h("div.buttons", null,
      h("button", { type: "button", class: "primary", id: "meld-send", onclick: send }, "Send this table"),
      h("button", { type: "button", id: "meld-reset", onclick: () => openEditor(ui) }, "Start again"),
      h("button", { type: "button", id: "meld-close", onclick: () => saveEditor(ui, null) }, "Close")));
}

function draw(ui, v) {
  const seats = ui.order(v.seats);
  const mine = ui.seat == null ? null : seats.pop();
  const seatZone = (p) => h("section", { class: `zone player${p === ui.seat ? " mine" : ""}`, "aria-label": ui.name(p) },
    ui.seatPanel(p, [`${v.hand_counts[p]} cards`, `score ${v.scores[p] ?? v.scores[String(p)]}`,
      p === v.dealer ? "dealer" : null]),
    p === ui.seat && v.hand
      ? h("div.hand", { "aria-label": "Your hand" }, sorted(v.hand).map((c) => ui.card(c)))
      : h("div.hand.hidden-hand", { "aria-label": `${ui.name(p)}: ${v.hand_counts[p]} cards` },
        Array.from({ length: Math.min(v.hand_counts[p], 13) }, () => ui.back()),
        v.hand_counts[p] > 13 ? h("span.count", null, `+${v.hand_counts[p] - 13}`) : null));
  const editor = ui.args.legal ? loadEditor(ui) : null;
  const table = h("section.zone.centre", { "aria-label": "Table" },
    h("div.pile", null, h("div.pile-label", null, "Stock"), ui.stack(v.stock, "cards in the stock")),
    h("div.melds", { "aria-label": "Melds on the table" }, v.table.length
      ? v.table.map((g, n) => h("div.meld", { role: "group", "aria-label": `meld ${n + 1}` }, g.map((c) => ui.card(c))))
      : h("p.muted", null, "No melds yet.")),
    h("p.turn-info", null, `Deal ${v.deal} of ${v.deals}${v.opening ? " · opening draw" : ""}${v.passes ? ` · ${v.passes} pass(es)` : ""}`));
  return h("div.board", null, ui.others(seats.map(seatZone)), table, editor ? editorPanel(ui, editor) : null,
    mine == null ? null : seatZone(mine));
}

function controls(ui) {
  const v = ui.view;
  if (!ui.args.legal || v.opening || !v.hand || loadEditor(ui)) return [];
  return [h("button", { type: "button", id: "meld-open", onclick: () => openEditor(ui) }, "Rearrange the table…")];
}

export const machiavelli = { moves, draw, controls, turnOf: (v) => v.turn };
