// The header's sign-in area and the sign-in page's forms.
import { api, me, signIn, signOut } from "./api.js";
import { h, mount } from "./dom.js";

function renderSession() {
  const el = document.getElementById("session");
  if (!el) return;
  const player = me();
  if (player) {
    mount(el,
      h("a", { href: `/players/${player.id}/`, id: "session-name" }, player.name),
      h("button.link", { type: "button", id: "signout", onclick: () => signOut() }, "Sign out"));
  } else {
    mount(el, h("a", { href: `/signin/?next=${encodeURIComponent(location.pathname + location.search)}`, id: "signin-link" },
      "Sign in"));
  }
}

function nextUrl() {
  const next = new URLSearchParams(location.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

function wireSignInPage() {
  const form = document.getElementById("signin-form");
  if (!form) return;
  const error = document.getElementById("signin-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const player = await api("players/", { method: "POST", auth: false, body: { name: form.name.value.trim() } });
      signIn(player);
      location.assign(nextUrl());
    } catch (e) {
      error.textContent = e.message;
    }
  });
  document.getElementById("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target;
    signIn({ id: Number(f.id.value), name: f.name.value, token: f.token.value.trim() });
    location.assign(nextUrl());
  });
}

window.addEventListener("tavolo:session", renderSession);
window.addEventListener("storage", renderSession);
renderSession();
wireSignInPage();
