// The round clock on every screen: fetched from the server (one truth), counted down locally.
(function () {
  var el = document.getElementById("clock");
  if (!el) return;
  var host = el.closest("[data-clock-url]") || el;
  var url = host.dataset.clockUrl || el.dataset.clockUrl;
  if (!url) return;
  var state = null, offset = 0, fetchedAt = 0;
  function fmt(sec) {
    sec = Math.max(0, Math.floor(sec));
    var m = Math.floor(sec / 60), s = sec % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function render() {
    if (!state || state.round === null) { el.textContent = "--:--"; return; }
    var remaining = state.remaining;
    if (state.status === "running") remaining = state.remaining - (Date.now() - fetchedAt) / 1000;
    el.dataset.status = remaining <= 0 && state.status === "running" ? "time" : state.status;
    if (state.status === "finished") { el.textContent = "✔"; return; }
    el.textContent = state.status === "not-started" ? fmt(state.limit) : (remaining <= 0 ? (el.dataset.timeText || "0:00") : fmt(remaining));
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
  function poll() {
    fetch(url, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (data) {
      state = data; fetchedAt = Date.now(); render();
    }).catch(function () { /* keep counting locally while offline */ });
  }
  poll();
  document.addEventListener("taikai:live", function (e) {
    var kind = e.detail && e.detail.kind;
    if (["round-started", "clock-paused", "clock-resumed", "time-called", "pairings", "result"].indexOf(kind) >= 0) poll();
  });
  setInterval(render, 250);
  setInterval(poll, 5000);
})();
