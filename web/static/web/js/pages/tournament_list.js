// Tournaments: every tournament, newest first, filtered by status and game.
import { api } from "../api.js";
import { h, mount, pageData } from "../dom.js";
import { errorBox, listOf, tournamentItem } from "./common.js";

const root = document.getElementById("page");
const STATUSES = ["registering", "running", "finished", "cancelled"];
const list = h("div", { id: "tournament-list" });
const status = h("select", { id: "filter-status" }, h("option", { value: "" }, "any"),
  STATUSES.map((s) => h("option", { value: s }, s)));
const kind = h("select", { id: "filter-kind" }, h("option", { value: "" }, "any"),
  (pageData().kinds || []).map((k) => h("option", { value: k.kind }, k.title)));

async function load() {
  try {
    const page = await api("tournaments/", { params: { status: status.value || null, kind: kind.value || null, limit: 100 } });
    mount(list, listOf(page.results, tournamentItem, "No tournament matches.", "plain-list"),
      page.count > page.results.length ? h("p.muted", {}, `The newest ${page.results.length} of ${page.count}.`) : null);
  } catch (e) {
    mount(list, errorBox(e));
  }
}

status.addEventListener("change", load);
kind.addEventListener("change", load);
mount(root, h("h1", {}, "Tournaments"),
  h("p", {}, h("a.button.primary", { href: "/tournaments/new/" }, "New tournament")),
  h("div.filters", {}, h("label", { for: "filter-status" }, "Status"), status, h("label", { for: "filter-kind" }, "Game"), kind),
  list);
load();
