// The explorer's page: the state a path in the URL (#/0/3/1) leads to, from the JSON API.
// Model text is only ever set as textContent, never parsed as HTML.
"use strict";

const TRAIL_SHOWN = 500; // a longer path shows its last steps only
const POST_OVER = 2000; // a longer path is sent in a POST body, not the URL

let model = null; // GET /api/model
let current = null; // GET /api/state of the path in the URL
let trace = null; // the trace being stepped through

const $ = (id) => document.getElementById(id);

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function link(path, text) {
  const a = el("a", text);
  a.href = "#/" + path.join("/");
  return a;
}

async function api(url, options) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.status + " " + response.statusText);
  return body;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function pathInUrl() {
  return location.hash.replace(/^#\/?/, "");
}

async function route() {
  const path = pathInUrl();
  if (path === "" && model.initial_states === 1) {
    location.replace("#/0");
    return;
  }
  try {
    const state = path.length > POST_OVER
      ? await api("/api/state", { method: "POST", body: path })
      : await api("/api/state?path=" + encodeURIComponent(path));
    showError("");
    current = state;
    render();
  } catch (e) {
    showError("Path #/" + path.slice(0, 200) + ": " + e.message);
  }
}

function render() {
  const depth = current.path.length - 1;
  $("state").textContent = current.state === null ? "(choose an initial state)" : current.state;
  $("depth").textContent = depth < 0 ? "" : "at depth " + depth;
  $("deadlock").hidden = !current.deadlock;
  renderActions();
  renderTrail();
  renderProperties();
  renderTraceNav();
}

function renderActions() {
  const list = $("actions");
  list.replaceChildren();
  for (const action of current.actions) {
    const item = el("li");
    item.appendChild(link(current.path.concat([action.index]), action.action));
    item.appendChild(el("span", action.state, "successor"));
    list.appendChild(item);
  }
  if (current.actions.length === 0) list.appendChild(el("li", "none", "muted"));
}

function renderTrail() {
  const list = $("trail");
  list.replaceChildren();
  const path = current.path;
  const first = Math.max(0, path.length - TRAIL_SHOWN);
  list.start = first;
  if (first > 0) list.appendChild(el("li", "... " + first + " earlier steps", "muted"));
  for (let i = first; i < path.length; i++) {
    const label = i === 0 ? "initial state #" + path[0] : current.trail[i - 1];
    const item = el("li");
    item.appendChild(i === path.length - 1 ? el("span", label, "current") : link(path.slice(0, i + 1), label));
    list.appendChild(item);
  }
  $("back").disabled = path.length === 0 || (path.length === 1 && model.initial_states === 1);
}

function propertyText(p) {
  switch (p.kind) {
    case "invariant": return [p.p ? "holds here" : "violated here", p.p];
    case "sometimes": return [p.p ? "reached here" : "not here", true];
    case "eventually": return [p.p ? "true here" : "not true here", true];
    case "leads_to": return ["p " + (p.p ? "true" : "false") + ", q " + (p.q ? "true" : "false") + " here", true];
    default: return [p.p ? "true here" : "false here", true];
  }
}

function renderProperties() {
  const body = $("properties");
  body.replaceChildren();
  for (const p of current.properties) {
    const [text, fine] = propertyText(p);
    const row = el("tr");
    row.dataset.property = p.name;
    row.appendChild(el("td", p.name));
    row.appendChild(el("td", p.kind, "muted"));
    row.appendChild(el("td", text, fine ? "ok" : "bad"));
    body.appendChild(row);
  }
}

// The position of the current state on the trace, or -1 when it is off it.
function tracePosition() {
  if (!trace || current.path.length === 0 || current.path.length > trace.path.length) return -1;
  for (let i = 0; i < current.path.length; i++) if (current.path[i] !== trace.path[i]) return -1;
  return current.path.length - 1;
}

function renderTraceNav() {
  const nav = $("trace-nav");
  nav.hidden = !trace;
  if (!trace) return;
  const at = tracePosition();
  const steps = trace.path.length - 1;
  const what = trace.kind + " (" + trace.property + ")";
  $("trace-position").textContent = at < 0
    ? "off the " + what + ": go back to it with Next"
    : "step " + at + " of " + steps + " of the " + what + (at > 0 ? ": " + trace.actions[at - 1] : ": initial state");
  $("trace-prev").disabled = at <= 0;
  $("trace-next").disabled = at >= steps;
}

function goTrace(position) {
  location.hash = "#/" + trace.path.slice(0, position + 1).join("/");
}

async function runCheck() {
  const button = $("check");
  button.disabled = true;
  $("check-result").textContent = "checking...";
  try {
    const result = await api("/api/check", { method: "POST" });
    $("check-result").textContent = result.result + ": " + result.message + " (" +
      result.states + " states, " + result.transitions + " transitions, " + result.seconds.toFixed(3) + " s)";
    const traces = $("traces");
    traces.replaceChildren();
    for (const found of result.traces) {
      const open = el("button", "Step through the " + found.kind + " (" + found.property + ", " +
        found.actions.length + " steps)");
      open.type = "button";
      open.className = "open-trace";
      open.addEventListener("click", () => { trace = found; goTrace(0); renderTraceNav(); });
      traces.appendChild(open);
    }
  } catch (e) {
    $("check-result").textContent = "the check failed: " + e.message;
  }
  button.disabled = false;
}

async function start() {
  try {
    model = await api("/api/model");
  } catch (e) {
    showError("cannot load the model: " + e.message);
    return;
  }
  $("model-name").textContent = model.name;
  document.title = model.name + " - modelcheck explorer";
  $("back").addEventListener("click", () => { location.hash = "#/" + current.path.slice(0, -1).join("/"); });
  $("check").addEventListener("click", runCheck);
  $("trace-prev").addEventListener("click", () => goTrace(tracePosition() - 1));
  $("trace-next").addEventListener("click", () => { const at = tracePosition(); goTrace(at < 0 ? 0 : at + 1); });
  window.addEventListener("hashchange", route);
  await route();
}

start();
