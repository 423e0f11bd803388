// The public API, as the pages use it: same origin, the signed-in player's token in the Authorization
// header (never in a URL, except the EventSource stream, which cannot send headers: see the README).

const KEY = "tavolo.player";
export const API = "/api/v1";

/** The signed-in player {id, name, token}, or null. */
export function me() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || null;
  } catch {
    return null;
  }
}

export function signIn(player) {
  localStorage.setItem(KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token }));
  window.dispatchEvent(new Event("tavolo:session"));
}

export function signOut() {
  localStorage.removeItem(KEY);
  window.dispatchEvent(new Event("tavolo:session"));
}

/** An API error: the server's JSON error body ({code, message, ...}) and the HTTP status. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || body?.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "error";
    this.body = body;
  }
}

/** Call the API; resolves to the parsed JSON (null for 204), rejects with ApiError. */
export async function api(path, { method = "GET", body, params, auth = true, headers = {} } = {}) {
  const url = new URL(path.startsWith("/") ? path : `${API}/${path}`, location.origin);
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null) url.searchParams.set(k, v);
  const player = me();
  const all = { Accept: "application/json", ...headers };
  if (auth && player) all.Authorization = `Token ${player.token}`;
  if (body !== undefined) all["Content-Type"] = "application/json";
  const response = await fetch(url, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** Live stream of a game (SSE). The token rides in the query string only here: EventSource sends no headers. */
export function gameStream(gameId, { after, seat } = {}) {
  const url = new URL(`${API}/games/${gameId}/stream/`, location.origin);
  const player = me();
  if (player) url.searchParams.set("token", player.token);
  if (seat !== undefined && seat !== null) url.searchParams.set("seat", seat);
  if (after !== undefined && after !== null) url.searchParams.set("after", after);
  return new EventSource(url);
}
