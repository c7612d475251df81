// tokenmc explore: the page walks the state space through /api/state.
// A position is {init, path}; it is kept in the URL hash so that a reload
// or a bookmark shows the same state, and each move is an entry of the
// browser's history (pushState), so that its Back and Forward buttons
// walk the positions visited within the page.
"use strict";

const $ = (id) => document.getElementById(id);
let info = null;          // /api/info
let hist = [];            // positions visited, for back and forward
let at = -1;              // index into hist
let trace = null;         // the trace being stepped: {name, init, path, loop}
let current = null;       // the last /api/state answer
const openGroups = new Set(); // the processes whose folded action groups the user opened

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg || "";
  box.hidden = !msg;
}

async function api(url, opts) {
  const r = await fetch(url, opts);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function posKey(p) { return p.init + ":" + p.path.join("."); }

function fromHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  const p = q.get("p");
  return { init: Number(q.get("i") || 0), path: p ? p.split(".").map(Number) : [] };
}

function hashOf(p) { return `#i=${p.init}&p=${p.path.join(".")}`; }

// go shows position p. record "push" adds it to the history after the
// current one (a new entry of the browser's history too), "replace"
// starts the history with it; false only shows it (Back and Forward).
async function go(p, record) {
  try {
    let q = `api/state?init=${p.init}&path=${p.path.join(".")}`;
    if (trace && trace.loop > 0 && onTrace(p)) q += `&loop=${trace.loop}&starving=${trace.waiting}`;
    const v = await api(q);
    showError("");
    if (record === "replace") {
      hist = [p];
      at = 0;
      history.replaceState({ at }, "", hashOf(p));
    } else if (record) {
      hist = hist.slice(0, at + 1);
      hist.push(p);
      at = hist.length - 1;
      history.pushState({ at }, "", hashOf(p));
    }
    current = v;
    render(v);
  } catch (e) {
    showError(e.message);
  }
}

function render(v) {
  $("depth").textContent = v.path.length === 0 ? "(initial state " + v.init + ")" : `(after ${v.path.length} step${v.path.length === 1 ? "" : "s"})`;
  $("where").textContent = `state ${at + 1} of ${hist.length} visited`;
  $("back").disabled = at <= 0;
  $("forward").disabled = at >= hist.length - 1;
  renderTable(v);
  renderNetwork(v);
  renderProps(v);
  renderActions(v);
  renderSteps(v);
  renderStepper();
  $("msc").innerHTML = v.chart || "<p><small>no step taken yet: the chart grows as you take actions</small></p>";
}

function renderTable(v) {
  const t = $("procs");
  t.replaceChildren();
  const head = el("tr", {}, el("th", { text: "process" }));
  v.columns.forEach((c) => head.append(el("th", { text: c })));
  t.append(head);
  for (const p of v.processes) {
    const tr = el("tr", { class: p.phase });
    tr.append(el("td", { class: p.token ? "token" : "", text: "P" + p.id + (p.token ? " (token)" : "") }));
    p.cells.forEach((c) => {
      const td = el("td", {}, el("code", { text: c.value }));
      if (c.changed) { td.className = "changed"; td.title = "was " + (c.was === "" ? "(none)" : c.was); }
      tr.append(td);
    });
    t.append(tr);
  }
}

function renderNetwork(v) {
  const n = $("network");
  n.replaceChildren();
  $("transit-count").textContent = `(${v.in_transit} message${v.in_transit === 1 ? "" : "s"}${v.faults_used ? ", faults used " + v.faults_used : ""})`;
  if (v.network.length === 0) n.append(el("p", { text: "nothing in transit" }));
  for (const box of v.network) {
    const d = el("div", { class: "inbox" }, el("span", { class: "to", text: "to P" + box.to }));
    for (const m of box.messages) {
      const cls = "msg" + (m.new ? " new" : "") + (m.token ? " tok" : "");
      d.append(el("span", { class: cls, title: m.new ? "sent by the last step" : "", text: m.text + (m.count > 1 ? " x" + m.count : "") }));
    }
    n.append(d);
  }
}

function renderProps(v) {
  const ul = $("props");
  ul.replaceChildren();
  for (const p of v.properties) {
    const cls = p.status === "n/a" ? "na" : p.status;
    const li = el("li", { class: cls }, el("b", { text: p.name }), ` (${p.kind}): ${p.status}`);
    if (p.note) li.append(" ", el("span", { class: "note", text: "- " + p.note }));
    ul.append(li);
  }
}

// onTrace reports whether position p lies on the trace being stepped.
function onTrace(p) {
  return trace && p.init === trace.init && p.path.length <= trace.path.length &&
    p.path.every((x, i) => x === trace.path[i]);
}

function nextInTrace(v) {
  if (!trace || v.init !== trace.init || v.path.length >= trace.path.length) return -1;
  for (let k = 0; k < v.path.length; k++) if (v.path[k] !== trace.path[k]) return -1;
  return trace.path[v.path.length];
}

// renderActions shows the enabled actions grouped by the acting process,
// those that match the filter box; with many actions the groups are
// folded (their summary counts them) except those with an action that
// leads to a violation or is the trace's next step, or that the user
// opened.
function renderActions(v) {
  const box = $("actions");
  box.replaceChildren();
  if (v.actions.length === 0) box.append(el("p", { text: "none: this state is terminal" }));
  const want = nextInTrace(v);
  const f = $("filter").value.trim().toLowerCase();
  const by = new Map();
  for (const a of v.actions) {
    if (!by.has(a.proc)) by.set(a.proc, []);
    by.get(a.proc).push(a);
  }
  const many = v.actions.length > 12;
  let matched = 0;
  for (const p of [...by.keys()].sort((x, y) => x - y)) {
    const list = by.get(p).filter((a) => !f || [a.label, ...a.changes, ...(a.sends || [])].join(" ").toLowerCase().includes(f));
    matched += list.length;
    if (list.length === 0) continue;
    const bad = list.filter((a) => a.violates && a.violates.length).length;
    const d = el("details", { class: "group", "data-proc": p });
    d.open = !many || f !== "" || bad > 0 || list.some((a) => a.index === want) || openGroups.has(p);
    d.append(el("summary", { text: `${p < 0 ? "environment" : "P" + p}: ${list.length} action${list.length === 1 ? "" : "s"}` + (bad ? `, ${bad} lead${bad === 1 ? "s" : ""} to a violation` : "") }));
    const auto = d.open;
    d.ontoggle = () => { // the user's, not the page's own
      if (d.open === auto) return;
      if (d.open) openGroups.add(p); else openGroups.delete(p);
    };
    const grid = el("div", { class: "grid" });
    for (const a of list) grid.append(actionButton(v, a, want));
    d.append(grid);
    box.append(d);
  }
  $("action-count").textContent = f ? `(${matched} of ${v.actions.length} match)` : `(${v.actions.length})`;
}

function actionButton(v, a, want) {
  const b = el("button", { class: "action", "data-index": a.index, title: "take this action" }, el("div", { class: "lbl", text: a.label }));
  const chg = a.changes.slice();
  if (a.sends && a.sends.length) chg.push("sends " + a.sends.join(", "));
  b.append(el("div", { class: "chg", text: chg.length ? chg.join("; ") : "changes nothing but the network" }));
  if (a.violates && a.violates.length) {
    b.classList.add("bad");
    b.append(el("div", { class: "viol", text: "leads to a violation of " + a.violates.join(", ") }));
  }
  if (a.index === want) b.classList.add("next-in-trace");
  b.onclick = () => go({ init: v.init, path: v.path.concat([a.index]) }, "push");
  return b;
}

function renderSteps(v) {
  const ol = $("steps");
  ol.replaceChildren();
  v.steps.forEach((s, k) => {
    const a = el("a", { title: "go back to the state after this step", text: s });
    a.onclick = () => go({ init: v.init, path: v.path.slice(0, k + 1) }, "push");
    ol.append(el("li", {}, a));
  });
}

function renderStepper() {
  const sp = $("stepper");
  if (!trace || !current) { sp.hidden = true; return; }
  sp.hidden = false;
  let k = -1;
  if (current.init === trace.init && current.path.length <= trace.path.length &&
      current.path.every((x, i) => x === trace.path[i])) k = current.path.length;
  let txt = k < 0 ? "off the trace" : `step ${k} of ${trace.path.length}`;
  if (k >= 0 && trace.loop > 0 && k >= trace.loop - 1) txt += " (in the cycle)";
  $("tpos").textContent = txt;
  $("tprev").disabled = k <= 0;
  $("tnext").disabled = k < 0 || k >= trace.path.length;
}

function fillPaths(sel) {
  const s = $("paths");
  s.replaceChildren();
  info.paths.forEach((p, k) => s.append(el("option", { value: k, text: p.name })));
  if (info.paths.length === 0) s.append(el("option", { value: -1, text: "(no trace yet: search or paste one)" }));
  if (sel !== undefined) s.value = sel;
  $("load").disabled = info.paths.length === 0;
}

async function loadInfo() {
  info = await api("api/info");
  const params = Object.keys(info.params || {}).sort().map((k) => `${k}=${info.params[k]}`).join(", ");
  $("title").textContent = `tokenmc explore: ${info.algorithm} (${params})`;
  document.title = `explore ${info.algorithm}`;
  const fp = $("findprop");
  fp.replaceChildren();
  info.properties.forEach((p) => fp.append(el("option", { value: p, text: p })));
  fp.append(el("option", { value: "starvation-freedom", text: "starvation-freedom (liveness: a lasso)" }));
  fillPaths();
}

function startTrace(p) {
  trace = p;
  go({ init: p.init, path: [] }, "push");
}

function stepTrace(d) {
  if (!trace || !current) return;
  const k = current.path.length + d;
  if (k < 0 || k > trace.path.length) return;
  go({ init: trace.init, path: trace.path.slice(0, k) }, "push");
}

async function addPath(p) {
  await loadInfo();
  const k = info.paths.findIndex((q) => q.name === p.name);
  fillPaths(k);
  startTrace(info.paths[k]);
}

$("back").onclick = () => { if (at > 0) history.back(); };
$("forward").onclick = () => { if (at < hist.length - 1) history.forward(); };
// the browser's own Back and Forward (and Alt+Left, Alt+Right)
window.addEventListener("popstate", (e) => {
  const k = e.state && typeof e.state.at === "number" ? e.state.at : -1;
  if (k >= 0 && k < hist.length) { at = k; go(hist[k], false); } else go(fromHash(), "replace");
});
$("reset").onclick = () => go({ init: 0, path: [] }, "push");
$("filter").oninput = () => { if (current) renderActions(current); };
$("load").onclick = () => { const k = Number($("paths").value); if (k >= 0) startTrace(info.paths[k]); };
$("tprev").onclick = () => stepTrace(-1);
$("tnext").onclick = () => stepTrace(1);
$("find").onclick = async () => {
  const prop = $("findprop").value;
  $("findmsg").textContent = "searching...";
  try {
    const url = prop === "starvation-freedom" ? "api/lasso" : `api/counterexample?prop=${encodeURIComponent(prop)}`;
    const r = await api(url, { method: "POST" });
    if (r.message) { $("findmsg").textContent = r.message; return; }
    $("findmsg").textContent = r.loop > 0 ? `found: a lasso of ${r.path.length} steps, P${r.waiting} starves in the cycle from step ${r.loop}` : `found: ${r.path.length} steps`;
    await addPath(r);
  } catch (e) { $("findmsg").textContent = ""; showError(e.message); }
};
$("paste").onclick = async () => {
  try {
    const r = await api("api/trace", { method: "POST", body: $("tracetext").value });
    await addPath(r);
  } catch (e) { showError(e.message); }
};
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT" || e.target.tagName === "INPUT" || e.altKey) return;
  if (trace && e.key === "ArrowRight") stepTrace(1);
  else if (trace && e.key === "ArrowLeft") stepTrace(-1);
});

(async () => {
  try {
    await loadInfo();
    const start = location.hash ? fromHash() : { init: 0, path: [] };
    if (!location.hash && info.paths.length > 0) trace = info.paths[0];
    await go(start, "replace");
  } catch (e) {
    showError(e.message);
  }
})();
