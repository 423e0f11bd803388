// Draws one kind's table from a view, and turns the server's legal actions into clicks.
//
// Every legal action becomes a move {action, src, dst, label}: `src` names the thing clicked first (a card
// in the hand, a goal pile, a row top), `dst` the place clicked next (a centre pile, a row), or null when
// the source alone says it all (a card played to a trick). Moves without a source are buttons ("Draw",
// "Pass", "End turn"). Only the server's moves are offered: no rule is decided here.
import { h, mount } from "../dom.js";
import { cardName, cardSvg, packOf } from "./cards.js";
import { machiavelli } from "./machiavelli.js";
import { diavoletto, spiteAndMalice } from "./patience.js";
import { muscio, tarocchi } from "./tricks.js";

const KINDS = {
  "spite-and-malice": spiteAndMalice,
  diavoletto,
  muscio,
  "tarocchi-mineo": tarocchi,
  machiavelli,
};

/**
 * renderTable(root, {kind, view, seats, seat, legal, onAction, toAct, deadlines, error})
 *   kind: the game kind; view: the API's view for that viewpoint; seats: the game summary's seats;
 *   seat: the viewer's seat (null for a spectator); legal: the legal actions when the viewer is to act
 *   (else null); onAction(action): called with the chosen action (returns a promise or nothing).
 *   Optional: toAct (the seats to act), deadlines (per seat, ISO or null), error (the last refusal's text).
 *   The pending selection lives in root.dataset, so a redraw with the same legal actions keeps it.
 */
export function renderTable(root, args) {
  const rules = KINDS[args.kind];
  if (!rules || !args.view) {
    mount(root, h("pre.view", { "aria-label": `${args.kind} view` }, JSON.stringify(args.view, null, 1)));
    return;
  }
  const ui = makeUi(root, args, rules);
  root.classList.add("table", `table-${args.kind}`);
  mount(root, rules.draw(ui, args.view), ui.controls());
}

function makeUi(root, args, rules) {
  const { kind, seats, seat, legal, onAction } = args;
  const pack = packOf(kind);
  const moves = legal ? rules.moves(legal, args.view, seat) : [];
  let selected = root.dataset.selected || null;
  if (selected && !moves.some((m) => m.src === selected && m.dst !== null)) selected = null;
  if (selected) root.dataset.selected = selected;
  else delete root.dataset.selected;
  const redraw = () => renderTable(root, args);

  const act = (move) => {
    delete root.dataset.selected;
    onAction?.(move.action);
  };
  const choose = (src) => {
    const own = moves.filter((m) => m.src === src);
    if (own.length === 1 && own[0].dst === null) return act(own[0]);
    if (selected === src) delete root.dataset.selected;
    else root.dataset.selected = src;
    redraw();
    // Keep the keyboard where it was going: on the first place for the chosen card (or back on the card).
    const next = root.querySelector(".target") || root.querySelector(`[data-src="${CSS.escape(src)}"]`);
    next?.focus();
  };
  const targetMove = (dst) => selected && dst != null ? moves.find((m) => m.src === selected && m.dst === dst) : null;

  const ui = {
    kind, pack, seat, seats, view: args.view, moves, selected, root, redraw, act, args,
    toAct: args.toAct || null,
    /** A seat's display name: the player's name, "random bot", or "Seat 2". */
    name(i) {
      const s = seats?.[i];
      return s?.name || (s?.bot ? `${s.bot} bot (seat ${i + 1})` : `Seat ${i + 1}`);
    },
    isTarget: (dst) => Boolean(targetMove(dst)),
    isSource: (src) => src != null && moves.some((m) => m.src === src),
    /** One card; a button when it is a legal source or the target of the selected source. */
    card(id, { src = null, dst = null, extra = "", title = null } = {}) {
      const label = cardName(id, pack);
      const tm = targetMove(dst);
      const cls = `pc${extra ? " " + extra : ""}`;
      if (tm) {
        return h("button", { type: "button", class: `${cls} legal target`, "aria-label": `${tm.label}`,
          title: tm.label, dataset: { card: id || "", dst }, onclick: () => act(tm) }, cardSvg(id, pack));
      }
      if (ui.isSource(src)) {
        const on = selected === src;
        const single = moves.filter((m) => m.src === src);
        const hint = single.length === 1 ? single[0].label : `${label}: choose where`;
        return h("button", { type: "button", class: `${cls} legal${on ? " selected" : ""}`, "aria-label": hint,
          "aria-pressed": single.length === 1 && single[0].dst === null ? null : String(on), title: hint,
          dataset: { card: id || "", src }, onclick: () => choose(src) }, cardSvg(id, pack));
      }
      return h("span", { class: cls, role: "img", "aria-label": title || label, title: title || label,
        dataset: { card: id || "" } }, cardSvg(id, pack));
    },
    back: (label = "face-down card") => h("span.pc.back", { role: "img", "aria-label": label, title: label },
      cardSvg(null, pack)),
    /** A place cards go to: a button while it is the target of the selected source. */
    slot(dst, label, children, extra = "") {
      const tm = targetMove(dst);
      if (tm) {
        return h("button", { type: "button", class: `slot legal target ${extra}`, "aria-label": tm.label,
          title: tm.label, dataset: { dst }, onclick: () => act(tm) }, children);
      }
      return h("div", { class: `slot ${extra}`, "aria-label": label, role: "group", dataset: { dst } }, children);
    },
    /** A custom legal button (e.g. "Discard the three cards"). */
    button(label, onclick, extra = "") {
      return h("button", { type: "button", class: `legal ${extra}`, onclick }, label);
    },
    /** A stack of face-down cards with its count. */
    stack(count, label) {
      return h("div.stack", { role: "img", "aria-label": `${label}: ${count}`, title: `${label}: ${count}` },
        count ? cardSvg(null, pack) : h("span.pc.empty"), h("span.count", null, String(count)));
    },
    /** A seat's panel: name, badges, whose turn, clock. */
    seatPanel(i, badges = [], extra = null) {
      const turn = ui.toAct ? ui.toAct.includes(i) : rules.turnOf?.(args.view) === i;
      const deadline = args.deadlines?.[i];
      return h("div", { class: `seat-panel${turn ? " to-act" : ""}${i === seat ? " mine" : ""}`, dataset: { seat: i } },
        h("div.seat-name", null, h("strong", null, ui.name(i)), i === seat ? h("span.badge.you", null, "you") : null,
          turn ? h("span.badge.turn", null, "to play") : null,
          deadline ? h("span.clock", { dataset: { deadline }, "aria-label": "time left" }, clockText(deadline)) : null),
        badges.length ? h("div.badges", null, badges.filter(Boolean).map((b) => h("span.badge", null, b))) : null, extra);
    },
    /** The other seats' zones in one wrapping row (they come first; the viewer's own seat goes last). */
    others: (zones) => h("div.others", null, zones),
    /** The seats in display order: opponents first, the viewer's own seat last. */
    order(n) {
      const all = Array.from({ length: n }, (_, i) => i);
      if (seat == null) return all;
      return [...all.slice(seat + 1), ...all.slice(0, seat), seat];
    },
    controls() {
      const buttons = moves.filter((m) => m.src === null).map((m) =>
        h("button", { type: "button", class: "legal action", dataset: { type: m.action.type }, onclick: () => act(m) },
          m.label));
      const extra = rules.controls?.(ui) || [];
      buttons.push(...extra);
      const hint = selected ? `Choose where to play: ${describe(selected)}` :
        moves.some((m) => m.src !== null) ? "Your move: the highlighted cards can be played." : null;
      return h("div.controls", { "aria-label": "Your moves", role: "group" },
        legal ? h("p.hint", { "aria-live": "polite" }, hint || "Your move.") : null,
        args.error && !ui.errorShown ? h("p.error.move-error", { role: "alert" }, args.error) : null,
        buttons.length ? h("div.buttons", null, buttons) : null);
    },
  };
  const describe = (src) => {
    const card = moves.find((m) => m.src === src)?.card;
    return card ? cardName(card, pack) : src;
  };
  return ui;
}

/** "1:05" left until `iso` (0:00 once passed). */
export function clockText(iso) {
  const left = Math.max(0, Math.round((new Date(iso) - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** Refresh every clock under `root` (the table page calls it once a second). */
export function tickClocks(root) {
  for (const el of root.querySelectorAll(".clock[data-deadline]")) el.textContent = clockText(el.dataset.deadline);
}

/** Cards in a row (a hand, a trick), each made by `make(card, index)`. */
export function fan(cards, make, extra = "") {
  return h("div", { class: `fan ${extra}` }, cards.map(make));
}
