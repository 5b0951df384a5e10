// The player's own page: reports and confirmations answered in place, kept on the phone while offline.
//
// * Every answer (saved, waiting for the opponent, refused and why) comes back as JSON and is shown in
//   #answer; without this script the same answer arrives as a message on the reloaded page.
// * A report keeps one idempotency key per match (in localStorage) until the server has answered it, so a
//   report resent after a lost connection is counted once; a corrected report under the same key is a new
//   report on the server.
// * Offline, the report waits in localStorage and is sent when the connection is back; the service worker
//   (player-sw.js) keeps the last page, so a reload without Wi-Fi still shows the table and opponent.
// * Everything else on the page comes from the live state (live.js): once the player starts filling in the
//   report form, only that form is held (what was tapped and typed stays) while the opponent's report, the
//   confirm button and the result around it keep arriving; a sent report releases it.
// * A link the server no longer knows (revoked or replaced) reloads into the page that explains.
(function () {
  var script = document.currentScript;
  var token = script.dataset.token;
  var PENDING = "taikai-pending:" + token;
  var live = document.getElementById("player-live");

  function keyName(match) { return "taikai-key:" + token + ":" + match; }
  function newKey() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 10); }
  function keyFor(match) {
    var name = keyName(match), key = localStorage.getItem(name);
    if (!key) { key = newKey(); localStorage.setItem(name, key); }
    return key;
  }

  function show(id, text, level) {
    var el = document.getElementById(id);
    if (!el) return;
    if (text !== undefined) el.textContent = text;
    if (level !== undefined) el.className = "answer" + (level ? " " + level : "");
    el.hidden = false;
    if (el.scrollIntoView && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: "start" });
  }
  function hide(id) { var el = document.getElementById(id); if (el) el.hidden = true; }

  function prepare() {
    var data = document.getElementById("result-prefill");
    var values = data ? JSON.parse(data.textContent) : {};
    document.querySelectorAll("form[data-report]:not([data-prepared])").forEach(function (form) {
      form.setAttribute("data-prepared", "");
      var match = form.querySelector("input[name=match]").value;
      form.querySelector("input[name=idempotency_key]").value = keyFor(match);
      Object.keys(values).forEach(function (name) {
        form.querySelectorAll('[name="' + name + '"]').forEach(function (el) {
          if (el.type === "radio") el.checked = el.value === values[name];
          else if (el.type === "checkbox") el.checked = true;
          else el.value = values[name];
        });
      });
    });
  }

  function fieldsOf(form, submitter) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, value]); });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return fields;
  }

  function post(action, fields) {
    var body = new URLSearchParams();
    fields.forEach(function (f) { body.append(f[0], f[1]); });
    return fetch(action, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (r) {
      if (r.headers.get("X-Taikai-Page") === "gone") { // this link was revoked or replaced: say so
        localStorage.removeItem(PENDING);
        location.reload();
        return new Promise(function () { /* the page is going */ });
      }
      return r.json().then(function (answer) { return answer; }, function () {
        return { ok: false, message: r.status + " " + r.statusText };
      });
    });
  }

  var shownState = null; // the page state the last answer was shown on; another one makes it stale
  function answered(answer, fields) {
    show("answer", answer.message, answer.ok ? "" : "error");
    if (answer.ok) release(); // sent: the form follows the live state again (kept after a refusal, to fix it)
    var match = fields.filter(function (f) { return f[0] === "match"; })[0];
    if (match) {
      localStorage.removeItem(keyName(match[1])); // answered: the next report is a new one
      document.querySelectorAll("form[data-report] input[name=idempotency_key]").forEach(function (el) {
        el.value = keyFor(match[1]);
      });
    }
    shownState = null;
    function settled() { shownState = live && live.dataset.state; prepare(); }
    if (window.taikaiLive) window.taikaiLive.refreshNow().then(settled, settled);
  }

  function send(action, fields, queueOffline) {
    hide("answer");
    document.querySelectorAll("form[data-report] button, form[data-answer] button").forEach(function (b) { b.disabled = true; });
    return post(action, fields).then(function (answer) {
      localStorage.removeItem(PENDING);
      hide("pending-note");
      answered(answer, fields);
    }, function () {
      if (queueOffline) {
        localStorage.setItem(PENDING, JSON.stringify({ action: action, fields: fields }));
        show("pending-note");
      } else {
        show("answer", document.getElementById("offline-note").textContent, "error");
      }
    }).then(function () {
      document.querySelectorAll("form[data-report] button, form[data-answer] button").forEach(function (b) { b.disabled = false; });
    });
  }

  function sendPending() {
    var raw = localStorage.getItem(PENDING);
    if (!raw || !navigator.onLine) return;
    var pending = JSON.parse(raw);
    send(pending.action, pending.fields, true);
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    var isReport = form.matches("form[data-report]");
    if (!isReport && !form.matches("form[data-answer]")) return;
    e.preventDefault();
    send(form.action, fieldsOf(form, e.submitter), isReport);
  });

  // While the report form is being filled in (duel by duel), or the drop card is open, live updates swap
  // everything around it but leave it alone, unless the round or the table's penalty duels change (its
  // data-live-key) or the page no longer offers it (the event has finished).
  function hold(el) {
    var part = el && el.closest && el.closest("[data-live-holdable][id]");
    if (part) part.setAttribute("data-live-hold", "");
  }
  function release() {
    document.querySelectorAll("form[data-report][data-live-hold]").forEach(function (f) { f.removeAttribute("data-live-hold"); });
  }
  document.addEventListener("input", function (e) { if (e.target.closest("details")) hold(e.target); });
  document.addEventListener("toggle", function (e) { if (e.target.open) hold(e.target); }, true);
  document.addEventListener("taikai:refreshed", function (e) {
    var state = live && live.dataset.state;
    var newRound = e.detail.keyChanged && e.detail.keyChanged.indexOf("player-live") >= 0;
    if (newRound || (shownState !== null && state !== shownState)) { hide("answer"); shownState = null; }
    prepare();
  });

  window.addEventListener("online", function () { hide("offline-note"); sendPending(); });
  window.addEventListener("offline", function () { show("offline-note"); });
  setInterval(sendPending, 15000);

  if (localStorage.getItem(PENDING)) show("pending-note");
  if (!navigator.onLine) show("offline-note");
  prepare();
  sendPending();

  if ("serviceWorker" in navigator && script.dataset.sw) {
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/p/" }).catch(function () { /* not on http LAN hosts */ });
  }
})();
