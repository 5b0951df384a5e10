// The player's own page: reports and confirmations answered in place, kept on the phone while offline.
//
// * Every answer (saved, waiting for the opponent, refused and why) comes back as JSON and is shown in
//   #answer; without this script the same answer arrives as a message on the reloaded page.
// * A report keeps one idempotency key per match (in localStorage) until the server has answered it, so a
//   report resent after a lost connection is counted once; a corrected report under the same key is a new
//   report on the server.
// * Offline, the report waits in localStorage and is sent when the connection is back; the service worker
//   (player-sw.js) keeps the last page, so a reload without Wi-Fi still shows the table and opponent.
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
      return r.json().then(function (answer) { return answer; }, function () {
        return { ok: false, message: r.status + " " + r.statusText };
      });
    });
  }

  function answered(answer, fields) {
    show("answer", answer.message, answer.ok ? "" : "error");
    var match = fields.filter(function (f) { return f[0] === "match"; })[0];
    if (match) {
      localStorage.removeItem(keyName(match[1])); // answered: the next report is a new one
      document.querySelectorAll("form[data-report] input[name=idempotency_key]").forEach(function (el) {
        el.value = keyFor(match[1]);
      });
    }
    if (window.taikaiLive) window.taikaiLive.refreshNow().then(prepare, prepare);
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

  // While the duel-by-duel form is being filled in, live updates leave it alone (unless the round changes).
  document.addEventListener("input", function (e) {
    if (live && e.target.closest("details.more")) live.setAttribute("data-live-hold", "");
  });
  document.addEventListener("taikai:refreshed", function (e) {
    if (e.detail.keyChanged && e.detail.keyChanged.indexOf("player-live") >= 0) hide("answer"); // a new round
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
