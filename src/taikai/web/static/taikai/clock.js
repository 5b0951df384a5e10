// The round clock on every screen: fetched from the server (one truth), counted down locally.
// The element may be swapped by live.js, so it is looked up on every tick, and it may first appear long after
// the page was opened (a player's page opened before pairing gets its table, and its clock, by live.js): the
// script runs on every page that loads it and starts counting whenever a clock is there. On a player's page the
// clock URL names the table (?table=N): its own time, with a judge's extension (TIME-4), is shown, and
// #time-note says what happens at time. A page that carries its clock (data-clock-state: the player's page,
// events' clock payload at render) takes it from there after each refresh, not with a second request.
(function () {
  function clockEl() { return document.getElementById("clock"); }
  function clockUrl() {
    var el = clockEl();
    if (!el) return null;
    var host = el.closest("[data-clock-url]") || el;
    return el.dataset.clockUrl || host.dataset.clockUrl;
  }
  var state = null, fetchedAt = 0, stateUrl = null;
  function fmt(sec) {
    sec = Math.max(0, Math.floor(sec));
    var m = Math.floor(sec / 60), s = sec % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function render() {
    var el = clockEl();
    if (!el) return;
    if (!state || state.round === null || stateUrl !== clockUrl()) { el.textContent = "--:--"; return; }
    var clock = state.table || state; // a table's own clock (with its extension) where the page names one
    var remaining = clock.remaining;
    if (clock.status === "running") remaining = clock.remaining - (Date.now() - fetchedAt) / 1000;
    var atTime = clock.status === "time" || (remaining <= 0 && clock.status === "running");
    el.dataset.status = atTime ? "time" : clock.status;
    var note = document.getElementById("time-note");
    if (note) note.hidden = !atTime || state.status === "finished" || clock.status === "finished";
    if (state.status === "finished" || clock.status === "finished") { el.textContent = "✔"; return; }
    el.textContent = clock.status === "not-started" ? fmt(clock.remaining)
      : (atTime ? (el.dataset.timeText || "0:00") : fmt(remaining));
    var list = document.getElementById("tables-list") || document.getElementById("tables-playing");
    var banner = document.getElementById("time-called");
    if (banner) banner.hidden = state.status !== "time";
    if (list && state.tables_playing) {
      list.textContent = state.tables_playing.map(function (t) {
        // Where the table stands, in the page's language (the list carries the words; no codes on screen).
        var p = t.procedure, step = "", words = list.dataset;
        if (p && p.phase === "extra_turn") step = " " + (words.extraTurn || "") + " " + p.turn + "/" + p.turns;
        else if (p && p.phase === "extra_duel_turn") step = " " + (words.extraDuel || "") + " " + p.turn + "/" + p.turns;
        else if (p && p.phase === "sudden_death") step = " " + (words.suddenDeath || "");
        else if (p && p.phase === "life_points") step = " " + (words.lifePoints || "");
        else if (p && p.phase === "finish_turn") step = " " + (words.finishTurn || "");
        return "#" + t.table + step + (t.extension ? " (+" + Math.round(t.extension / 60) + "m)" : "");
      }).join("  ");
    }
  }
  var STREAMING_POLL_MS = 60000, FRESH_SECONDS = 10, polledAt = 0;

  function keep(data, url) {
    state = data; fetchedAt = Date.now(); stateUrl = url; render();
    try { localStorage.setItem("taikai-clock:" + url, JSON.stringify({ state: state, at: fetchedAt })); } catch (e) { /* full */ }
  }

  // The clock the page came with, when it is fresh (not a copy the service worker kept from before).
  function carried() {
    var el = clockEl(), url = clockUrl(), data = null;
    if (!el || !url || !el.dataset.clockState) return false;
    try { data = JSON.parse(el.dataset.clockState); } catch (e) { return false; }
    if (!data || Math.abs(Date.now() / 1000 - data.server_time) > FRESH_SECONDS) return false;
    delete el.dataset.clockState; // once: later counts come from polls
    polledAt = Date.now();
    keep(data, url);
    return true;
  }

  function poll() {
    var url = clockUrl();
    if (!url) return;
    polledAt = Date.now();
    fetch(url, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (data) {
      keep(data, url);
    }).catch(function () {
      // Offline: keep counting locally, from the last state this phone saw (also after a reload).
      if (state && stateUrl === url) return;
      try {
        var kept = JSON.parse(localStorage.getItem("taikai-clock:" + url) || "null");
        if (kept) { state = kept.state; fetchedAt = kept.at; stateUrl = url; render(); }
      } catch (e) { /* nothing kept */ }
    });
  }
  function follow() { if (!carried()) poll(); }
  follow();
  document.addEventListener("taikai:refreshed", follow);
  document.addEventListener("taikai:live", function (e) {
    var kind = e.detail && e.detail.kind, object = e.detail && e.detail.data && e.detail.data.object;
    var el = clockEl(), mine = !el || !window.taikaiLive || window.taikaiLive.concerns(el, kind, object); // not another table's
    // New pairings change a table's clock only through the page's refresh (a new table), which polls anyway.
    if (kind === "pairings" && /[?&]table=/.test(clockUrl() || "")) return;
    if (mine && ["round-started", "clock-paused", "clock-resumed", "time-called", "pairings", "result", "time-extended"].indexOf(kind) >= 0) poll();
  });
  setInterval(render, 250);
  // Every change of a clock comes on the stream (above): while it is open, a poll a minute only keeps the count
  // honest, so 2,000 open phones ask the laptop 33 times a second, not 400; without it, every 5 s.
  setInterval(function () {
    var streaming = window.taikaiLive && window.taikaiLive.streaming && window.taikaiLive.streaming();
    if (!streaming || Date.now() - polledAt >= STREAMING_POLL_MS) poll();
  }, 5000);
})();
