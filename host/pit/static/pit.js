// The pit's pages: the floor and one table, read from the JSON API and kept live by the
// server-sent events of /api/stream. Every supervisor action asks for the operator's password
// again; every POST carries the session's CSRF token (from /api/me). A viewer sees no actions.
"use strict";
const page = document.body.dataset.page;
const tableId = page === "table" ? decodeURIComponent(location.pathname.split("/").pop()) : null;
const rows = new Map();
const $ = (sel) => document.querySelector(sel);
const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
const time = (t) => new Date(t * 1000).toLocaleTimeString();
let me = {name: "", role: "viewer", csrf: ""};
const acting = () => me.role === "supervisor" || me.role === "administrator";

// every read of the API: the login page again when the session has ended
async function get(url) {
  const r = await fetch(url);
  if (r.status === 401) location.assign("/login");
  return r.json();
}

async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": me.csrf},
    body: JSON.stringify(body)});
  if (r.status === 401 && url === "/logout") location.assign("/login");
  return r.json();
}

function theo(x, exact, inexact) {
  if (exact === null || exact === undefined || exact === "") return '<span class="none" title="no exact figure exists">none</span>';
  const t = exact.includes("/") ? `${Number(x).toFixed(4)} <small>(${esc(exact)})</small>` : esc(exact);
  return inexact ? `${t} <small title="deals with no exact figure">+${inexact} not exact</small>` : t;
}

function rowHtml(r) {
  const name = page === "floor" ? `<a href="/table/${encodeURIComponent(r.table)}">${esc(r.table)}</a>` : esc(r.table);
  const acts = !acting() ? "" : ["enable", "disable", "clear", "verify"].map(
    (a) => `<button class="act" data-action="${a}" data-table="${esc(r.table)}">${a}</button>`).join("");
  return `<td>${name}</td><td>${esc(r.game)}${r.variant ? " · " + esc(r.variant) : ""}</td>` +
    `<td><span class="state ${esc(r.state)}">${esc(r.state)}</span>` +
    (r.suspect ? ` <span class="state locked" title="${esc(r.suspect)}">SUSPECT</span>` : "") + `</td>` +
    `<td class="${r.connected ? "" : "down"}">${esc(r.link)} ${r.connected ? "up" : "down"}</td>` +
    `<td class="deals-count">${r.deals}</td><td>${r.hands_per_hour ?? "–"}</td><td>${r.actual}</td>` +
    `<td>${theo(r.theo_approx, r.theo, r.inexact)}</td><td>${acts}</td>`;
}

function showRow(r) {
  if (page === "table" && r.table !== tableId) return;
  let tr = rows.get(r.table);
  if (!tr) {
    tr = document.createElement("tr");
    tr.dataset.table = r.table;
    rows.set(r.table, tr);
    $("#floor tbody").appendChild(tr);
  }
  const html = rowHtml(r);
  if (tr.dataset.html !== html) {  // only what changed is redrawn
    tr.innerHTML = html;
    tr.dataset.html = html;
  }
  tr.dataset.state = r.state;
  tr.dataset.suspect = r.suspect || "";
  alerts();
  if (page === "table" && r.theo_note) $("#theo-note").textContent = r.theo_note;
}

function alerts() {
  const locked = [...rows.values()].filter((tr) => tr.dataset.state === "locked");
  const suspect = [...rows.values()].filter((tr) => tr.dataset.suspect);
  const key = locked.map((tr) => tr.dataset.table + (tr.dataset.why || "")).join("|") + "/" +
    suspect.map((tr) => tr.dataset.table + tr.dataset.suspect).join("|");
  if (key === alerts.shown) return;  // unchanged: the buttons stay the ones on the screen
  alerts.shown = key;
  $("#alerts").innerHTML = locked.map((tr) => `<div class="alert">TILT: table ${esc(tr.dataset.table)} is locked ` +
    `(${esc(tr.dataset.why || "see its events")})` + (acting() ? ` <button class="act" data-action="clear" ` +
    `data-table="${esc(tr.dataset.table)}">clear</button>` : "") + "</div>").join("") +
    suspect.map((tr) => `<div class="alert suspect">SUSPECT: table ${esc(tr.dataset.table)}: ${esc(tr.dataset.suspect)}` +
    (acting() ? ` <button class="act" data-action="acknowledge" data-table="${esc(tr.dataset.table)}">acknowledge</button>` : "") +
    "</div>").join("");
}

function showEvent(e, atTop = true) {
  if (page === "table" && e.table !== tableId) return;
  const li = document.createElement("li");
  li.className = e.tilt ? "tilt" : "";
  li.textContent = `${time(e.at)} · ${e.table} #${e.seq} · ${e.kind}${e.detail ? ": " + e.detail : ""}${e.who ? " (" + e.who + ")" : ""}`;
  const list = $("#events");
  atTop ? list.prepend(li) : list.append(li);
  while (list.children.length > 50) list.lastChild.remove();
  if (e.tilt && rows.get(e.table)) rows.get(e.table).dataset.why = e.detail;
}

function showDeal(d, atTop = true) {
  const li = document.createElement("li");
  li.textContent = `deal ${d.seq} · ${time(d.ended_at)}`;
  li.onclick = async () => {
    const r = await get(`/api/tables/${encodeURIComponent(tableId)}/deals/${d.seq}`);
    $("#deal").textContent = `deal ${r.seq} (${r.record.game}), as tapis recall tells it:\n\n${r.text}`;
  };
  atTop ? $("#deals").prepend(li) : $("#deals").append(li);
}

function showSeats(seats) {
  $("#seats tbody").innerHTML = seats.map((x) => `<tr><td>${x.seat}</td><td>${x.deals}</td><td>${x.wagered}</td>` +
    `<td>${x.won}</td><td>${theo(x.theo_approx, x.theo)}</td></tr>`).join("");
}

// The board's own meters (METERS, its critical memory: every deal since its last RAM clear).
function showMeters(m) {
  $("#meters").hidden = !m;
  $("#meters-none").hidden = !!m;
  if (!m) return;
  const cols = ["wagered", "won", "lost", "pushed", "commission"];
  $("#meters tbody").innerHTML = m.seats.map((x) => `<tr><td>${x.seat}</td>` +
    cols.map((k) => `<td>${x[k]}</td>`).join("") + "</tr>").join("");
  $("#meters-say").textContent = `deals ${m.deals} · games ${m.games} · voids ${m.voids} · house ${m.house} · ` +
    `generation ${m.generation}, read ${time(m.read_at)}` +
    (m.checked_seq ? ` · the deal records agree with them up to deal ${m.checked_seq}` : "");
}

// What the pit itself found wrong: deals compacted away before it fetched them, meters and records apart.
function showAlert(a, atTop = true) {
  if (page === "table" && a.table !== tableId) return;
  const li = document.createElement("li");
  li.className = "tilt";
  li.textContent = `${time(a.at)} · ${a.table} · ${a.kind}: ${a.detail}`;
  atTop ? $("#pit-alerts").prepend(li) : $("#pit-alerts").append(li);
}

async function load() {
  if (page === "floor") {
    const f = await get("/api/floor");
    f.tables.forEach(showRow);
    $("#events").innerHTML = "";
    f.events.forEach((e) => showEvent(e, false));
    $("#pit-alerts").innerHTML = "";
    (f.alerts || []).forEach((a) => showAlert(a, false));
  } else {
    const t = await get(`/api/tables/${encodeURIComponent(tableId)}`);
    $("#name").textContent = tableId;
    showRow(t.table);
    showSeats(t.seats);
    showMeters(t.meters);
    $("#pit-alerts").innerHTML = "";
    (t.alerts || []).forEach((a) => showAlert(a, false));
    $("#events").innerHTML = "";
    t.events.forEach((e) => showEvent(e, false));
    $("#deals").innerHTML = "";
    t.deals.forEach((d) => showDeal(d, false));
  }
}

let seatsDue = null;
function listen() {
  const es = new EventSource("/api/stream");
  es.onopen = () => { $("#live").textContent = "live"; $("#live").className = "live on"; load(); };
  es.onerror = () => { $("#live").textContent = "reconnecting…"; $("#live").className = "live off"; };
  es.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    showRow(msg.row);
    msg.events.forEach((e) => showEvent(e));
    (msg.alerts || []).forEach((a) => showAlert(a));
    if (page === "table" && msg.row.table === tableId) {
      msg.deals.forEach((d) => showDeal(d));
      if (msg.deals.length && !seatsDue) seatsDue = setTimeout(async () => {
        seatsDue = null;
        const t = await get(`/api/tables/${encodeURIComponent(tableId)}`);
        showSeats(t.seats);
        showMeters(t.meters);
      }, 500);
    }
    window.pitLastMessage = Date.now();
  };
}

function say(text) {
  const m = $("#message");
  m.textContent = text;
  m.className = "show";
  clearTimeout(say.t);
  say.t = setTimeout(() => { m.className = ""; }, 8000);
}

// Every action asks for the operator's password again: the pit records who acted.
document.addEventListener("click", (ev) => {
  const b = ev.target.closest("button.act");
  if (!b) return;
  const dlg = $("#credential"), form = dlg.querySelector("form");
  $("#asking").textContent = `${b.dataset.action} table ${b.dataset.table}: ${me.name}, your password`;
  form.credential.value = "";
  dlg.onclose = async () => {
    if (dlg.returnValue !== "ok") return;
    const out = await post(`/api/tables/${encodeURIComponent(b.dataset.table)}/${b.dataset.action}`,
      {credential: form.credential.value});
    form.credential.value = "";
    say(`${b.dataset.action} ${b.dataset.table}: ${out.result || out.error}`);
  };
  dlg.showModal();
  form.credential.focus();
});

$("#sign-out").onclick = async () => { await post("/logout", {}); location.assign("/login"); };

(async () => {
  me = await get("/api/me");
  $("#operator").textContent = `${me.name} (${me.role})`;
  listen();
})();
