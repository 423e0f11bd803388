// Playing cards drawn as SVG here (no image files): French suits (Spite and Malice, Diavoletto, Machiavelli,
// and Muscio's 40-card pack), and Tarocchi Siciliani's Italian suits, trumps 0–20 and the Fuggitivo.
// Card ids are the API's wire notation (ARCHITECTURE §4): "10H", "JK", "FC", "T17", "FUG".

const NS = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

// Suit marks on a 20×20 box.
const FRENCH = {
  H: { name: "hearts", color: "#c62828", d: "M10 18C2 12 0 7 4 3.5C7 1 9.5 3 10 5C10.5 3 13 1 16 3.5C20 7 18 12 10 18Z" },
  D: { name: "diamonds", color: "#c62828", d: "M10 1L17.5 10L10 19L2.5 10Z" },
  S: { name: "spades", color: "#1b1b1b",
    d: "M10 1C4 7 1 10 3 13.5C5 16 8.5 15 9.3 13L8 19H12L10.7 13C11.5 15 15 16 17 13.5C19 10 16 7 10 1Z" },
  C: { name: "clubs", color: "#1b1b1b",
    d: "M10 1.5A4 4 0 1 1 10 9.5A4 4 0 1 1 10 1.5ZM5.5 7.5A4 4 0 1 1 5.5 15.5A4 4 0 1 1 5.5 7.5Z" +
      "M14.5 7.5A4 4 0 1 1 14.5 15.5A4 4 0 1 1 14.5 7.5ZM9.2 10L8 19H12L10.8 10Z" },
};

const ITALIAN = {
  S: { name: "swords", color: "#1f4e8c", marks: () => [
    s("path", { d: "M10 .5L11.6 4V13.5H8.4V4Z", fill: "#8fb3d9", stroke: "#1f4e8c", "stroke-width": ".8" }),
    s("rect", { x: 4.5, y: 13.5, width: 11, height: 1.9, rx: .9, fill: "#1f4e8c" }),
    s("rect", { x: 9.1, y: 15.4, width: 1.8, height: 2.8, fill: "#7a4a1f" }),
    s("circle", { cx: 10, cy: 18.8, r: 1.2, fill: "#1f4e8c" })] },
  B: { name: "batons", color: "#2e7d32", marks: () => [
    s("path", { d: "M5.5 18.5L13.2 2.6C14 1.2 16.6 2.2 16 3.8L8.6 19.4C7.9 20.6 5 20 5.5 18.5Z", fill: "#8d5a2b",
      stroke: "#4e2f12", "stroke-width": ".8" }),
    s("circle", { cx: 12.2, cy: 7.5, r: 1.1, fill: "#2e7d32" }),
    s("circle", { cx: 9.6, cy: 13, r: 1.1, fill: "#2e7d32" })] },
  C: { name: "cups", color: "#b71c1c", marks: () => [
    s("path", { d: "M4 2.5H16C16 8.5 13 10.8 11 11.3V15H14.5V18H5.5V15H9V11.3C7 10.8 4 8.5 4 2.5Z", fill: "#e53935",
      stroke: "#7f0000", "stroke-width": ".8" }),
    s("path", { d: "M4.6 4.6H15.4", stroke: "#ffd54f", "stroke-width": "1.2" })] },
  D: { name: "coins", color: "#a06800", marks: () => [
    s("circle", { cx: 10, cy: 10, r: 8.3, fill: "#f9c846", stroke: "#a06800", "stroke-width": "1" }),
    s("circle", { cx: 10, cy: 10, r: 4.6, fill: "none", stroke: "#a06800", "stroke-width": ".9" }),
    s("circle", { cx: 10, cy: 10, r: 1.4, fill: "#a06800" })] },
};

const FRENCH_RANKS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const TAROCCHI_RANKS = { F: "Fante", C: "Cavallo", Q: "Regina", K: "Re" };
const TRUMPS = ["La Miseria", "I Picciotti", "L'Imperatrice", "L'Imperatore", "La Costanza", "La Temperanza",
  "La Forza", "La Giustizia", "Gli Amanti", "Il Carro", "Ruota della Fortuna", "L'Impiccato", "L'Eremita",
  "La Morte", "La Nave", "La Torre", "La Stella", "La Luna", "Il Sole", "La Palla", "Giove"];
const ROMAN = ["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
  "XVI", "XVII", "XVIII", "XIX", "XX"];

/** The pack a kind plays with: "tarocchi" or "french" (Muscio's 40 cards are French-suited, see its rules). */
export function packOf(kind) {
  return kind === "tarocchi-mineo" ? "tarocchi" : "french";
}

/** Split a wire id into {rank, suit} (null suit for jokers, trumps and the Fuggitivo). */
function parse(id) {
  return { rank: id.slice(0, -1), suit: id.slice(-1) };
}

/** The card's name for screen readers and tooltips: "7 of hearts", "Cavallo of cups", "trump XVII La Luna". */
export function cardName(id, pack = "french") {
  if (!id) return "face-down card";
  if (id === "JK") return "Joker";
  if (pack === "tarocchi") {
    if (id === "FUG") return "Il Fuggitivo";
    if (/^T\d+$/.test(id)) {
      const n = Number(id.slice(1));
      return `trump ${ROMAN[n]} ${TRUMPS[n]}`;
    }
    const { rank, suit } = parse(id);
    return `${TAROCCHI_RANKS[rank] || rank} of ${ITALIAN[suit]?.name || suit}`;
  }
  const { rank, suit } = parse(id);
  return `${FRENCH_RANKS[rank] || rank} of ${FRENCH[suit]?.name || suit}`;
}

function frame(fill = "#fff", stroke = "#9e9e9e") {
  return s("rect", { x: .5, y: .5, width: 59, height: 89, rx: 5, fill, stroke, "stroke-width": "1" });
}

function mark(suit, pack, x, y, size) {
  const g = s("g", { transform: `translate(${x} ${y}) scale(${size / 20})` });
  if (pack === "tarocchi") g.append(...ITALIAN[suit].marks());
  else g.append(s("path", { d: FRENCH[suit].d, fill: FRENCH[suit].color }));
  return g;
}

function text(x, y, value, attrs = {}) {
  return s("text", { x, y, "text-anchor": "middle", "font-family": "Georgia, 'DejaVu Serif', serif",
    "font-weight": "700", ...attrs }, value);
}

function suitFace(id, pack) {
  const { rank, suit } = parse(id);
  const table = pack === "tarocchi" ? ITALIAN : FRENCH;
  const color = table[suit]?.color || "#333";
  const court = pack === "tarocchi" ? rank in TAROCCHI_RANKS : "JQK".includes(rank);
  const parts = [frame(), text(9, 15, rank, { "font-size": rank.length > 1 ? 11 : 13, fill: color }),
    mark(suit, pack, 3.5, 17, 11), text(51, 85, rank, { "font-size": rank.length > 1 ? 11 : 13, fill: color,
      transform: "rotate(180 51 80.5)" })];
  if (court) {
    parts.push(s("rect", { x: 14, y: 20, width: 32, height: 50, rx: 3, fill: "#fff7e0", stroke: color,
      "stroke-width": "1.2" }), text(30, 43, rank, { "font-size": 20, fill: color }), mark(suit, pack, 21, 48, 18));
  } else {
    parts.push(mark(suit, pack, 14, 29, 32));
  }
  return parts;
}

function trumpFace(n) {
  const name = TRUMPS[n];
  const words = name.split(" ");
  const half = Math.ceil(words.length / 2);
  const lines = words.length > 2 ? [words.slice(0, half).join(" "), words.slice(half).join(" ")] : [name];
  return [frame("#fdf3d8", "#8d6e63"),
    s("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "none", stroke: "#6a1b9a", "stroke-width": "1" }),
    text(30, 17, ROMAN[n], { "font-size": ROMAN[n].length > 3 ? 11 : 14, fill: "#6a1b9a" }),
    s("circle", { cx: 30, cy: 42, r: 14, fill: "#ede7f6", stroke: "#6a1b9a", "stroke-width": "1" }),
    text(30, 48, String(n), { "font-size": 17, fill: "#4a148c" }),
    ...lines.map((line, i) => text(30, 70 + i * 9, line, { "font-size": line.length > 10 ? 6.5 : 7.5,
      fill: "#3e2723", "font-weight": "400" }))];
}

function fuggitivoFace() {
  return [frame("#e8f5e9", "#2e7d32"),
    s("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "none", stroke: "#2e7d32", "stroke-width": "1" }),
    text(30, 17, "FUG", { "font-size": 11, fill: "#1b5e20" }),
    s("path", { d: "M30 25L34 36L46 36L36.5 43L40 55L30 47.5L20 55L23.5 43L14 36L26 36Z", fill: "#43a047",
      stroke: "#1b5e20", "stroke-width": "1" }),
    text(30, 70, "Il", { "font-size": 7.5, fill: "#1b5e20", "font-weight": "400" }),
    text(30, 79, "Fuggitivo", { "font-size": 7.5, fill: "#1b5e20", "font-weight": "400" })];
}

function jokerFace() {
  return [frame(), text(30, 17, "JOKER", { "font-size": 9, fill: "#6a1b9a" }),
    s("path", { d: "M30 26L34 38L47 38L36.5 45.5L40.5 58L30 50.5L19.5 58L23.5 45.5L13 38L26 38Z", fill: "#ab47bc" }),
    text(30, 78, "★", { "font-size": 10, fill: "#6a1b9a" })];
}

function backFace() {
  return [s("rect", { x: .5, y: .5, width: 59, height: 89, rx: 5, fill: "#1f3f8f", stroke: "#0d1f4d" }),
    s("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "none", stroke: "#d6e0ff", "stroke-width": "1",
      "stroke-dasharray": "3 2" }),
    s("path", { d: "M30 20L44 45L30 70L16 45Z", fill: "none", stroke: "#d6e0ff", "stroke-width": "1.5" }),
    s("circle", { cx: 30, cy: 45, r: 5, fill: "#d6e0ff" })];
}

/** The SVG picture of one card (null or "" = its back), for the given pack. */
export function cardSvg(id, pack = "french") {
  let parts;
  if (!id) parts = backFace();
  else if (id === "JK") parts = jokerFace();
  else if (pack === "tarocchi" && id === "FUG") parts = fuggitivoFace();
  else if (pack === "tarocchi" && /^T\d+$/.test(id)) parts = trumpFace(Number(id.slice(1)));
  else parts = suitFace(id, pack);
  return s("svg", { viewBox: "0 0 60 90", "aria-hidden": "true", focusable: "false", class: "pc-svg" }, ...parts);
}

/** Every card of a pack, in the order its rules document lists them (for the cards sheet). */
export function packCards(pack) {
  if (pack === "tarocchi") {
    const suits = ["S", "B", "C", "D"].flatMap((suit) =>
      ["K", "Q", "C", "F", "10", "9", "8", "7", "6", "5", ...(suit === "D" ? ["4"] : [])].map((r) => r + suit));
    return [...suits, ...Array.from({ length: 21 }, (_, i) => `T${20 - i}`), "FUG"];
  }
  const ranks = pack === "muscio" ? ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
    : ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  return [...["S", "H", "D", "C"].flatMap((suit) => ranks.map((r) => r + suit)), ...(pack === "french" ? ["JK"] : [])];
}
