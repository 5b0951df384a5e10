// Live updates for public pages: a server-sent-events stream per event, polling when it is unavailable.
//
//   <script src="{% static 'taikai/live.js' %}" data-event="{{ event.pk }}" defer></script>
//
// Elements with an id and data-live-refresh="result pairings ..." are re-fetched from the current page
// and swapped in when one of those kinds of update arrives (or every data-live-poll seconds without a
// stream). Every update is also sent as a "taikai:live" DOM event ({kind, data}) for other scripts.
(function () {
  var script = document.currentScript;
  var eventId = script && script.dataset.event;
  if (!eventId) return;
  var pollSeconds = Number(script.dataset.poll || 30);
  var streamUrl = "/api/v1/events/" + eventId + "/stream";
  var pending = {}, timer = null, source = null, failures = 0, pollTimer = null;

  function regions(kind) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-live-refresh]"), function (el) {
      return el.id && (!kind || el.dataset.liveRefresh.split(/\s+/).indexOf(kind) >= 0);
    });
  }

  function refresh() {
    timer = null;
    var ids = Object.keys(pending);
    pending = {};
    if (!ids.length) return;
    fetch(location.href, { cache: "no-store", headers: { "X-Requested-With": "taikai-live" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        ids.forEach(function (id) {
          var fresh = doc.getElementById(id), old = document.getElementById(id);
          if (fresh && old) old.innerHTML = fresh.innerHTML;
        });
        document.dispatchEvent(new CustomEvent("taikai:refreshed", { detail: { ids: ids } }));
      })
      .catch(function () { /* keep what is shown; the next update tries again */ });
  }

  function schedule(kind) {
    regions(kind).forEach(function (el) { pending[el.id] = true; });
    if (!timer) timer = setTimeout(refresh, 400); // several results in a burst cost one fetch
  }

  function dispatch(kind, data) {
    document.dispatchEvent(new CustomEvent("taikai:live", { detail: { kind: kind, data: data } }));
    schedule(kind);
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(function () { schedule(null); }, pollSeconds * 1000);
  }

  function stopPolling() {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
  }

  var KINDS = ["pairings", "round-started", "clock-paused", "clock-resumed", "round-finished", "time-called",
               "time-extended", "result", "players", "event"];

  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    source = new EventSource(streamUrl); // the browser resumes with Last-Event-ID after a drop
    source.onopen = function () { failures = 0; stopPolling(); };
    source.onerror = function () {
      failures += 1;
      if (failures >= 3) startPolling(); // a proxy that buffers or blocks streams: fall back
      if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(connect, 10000); }
    };
    KINDS.forEach(function (kind) {
      source.addEventListener(kind, function (e) {
        var data = {};
        try { data = JSON.parse(e.data); } catch (err) { /* keep {} */ }
        dispatch(kind, data);
      });
    });
  }

  window.taikaiLive = { refresh: function () { schedule(null); } };
  connect();
})();
