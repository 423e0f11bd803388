// Draws one kind's table from a view (placeholder until the table renderer lands).
import { h, mount } from "../dom.js";

/**
 * renderTable(root, {kind, view, seats, seat, legal, onAction})
 *   kind: the game kind; view: the API's view for that viewpoint; seats: the game summary's seats;
 *   seat: the viewer's seat (null for a spectator); legal: the legal actions when the viewer is to act
 *   (else null); onAction(action): called with one of `legal` when the viewer chooses it.
 */
export function renderTable(root, { kind, view }) {
  mount(root, h("pre.view", { "aria-label": `${kind} view` }, JSON.stringify(view, null, 1)));
}
