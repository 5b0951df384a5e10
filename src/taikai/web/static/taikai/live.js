// Live updates for public pages: a server-sent-events stream per event, polling when it is unavailable.
//
//   <script src="{% static 'taikai/live.js' %}" data-event="{{ event.pk }}" defer></script>
//
// The stream only says that something changed ("pairings", "result", "judge-call", ...); the page then
// takes its state from the server: elements with an id and data-live-refresh="result pairings ..." (or "*"
// for every kind) are re-fetched from the current page and swapped in. A region with data-live-hold (set by
// a page's script while a person fills in a form inside it) keeps its content and swaps only its
// [data-live-part] children, unless its data-live-key changed (a new round: the old form no longer applies).
// Every update is also sent as a "taikai:live" DOM event ({kind, data}) for other scripts.
(function () {
  var script = document.currentScript;
  var eventId = script && script.dataset.event;
  if (!eventId) return;
  var pollSeconds = Number(script.dataset.poll || 30);
  var streamUrl = "/api/v1/events/" + eventId + "/stream";
  var pending = {}, timer = null, source = null, failures = 0, pollTimer = null, opened = false;

  function regions(kind) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-live-refresh]"), function (el) {
      var kinds = el.dataset.liveRefresh.split(/\s+/);
      return el.id && (!kind || kinds.indexOf("*") >= 0 || kinds.indexOf(kind) >= 0);
    });
  }

  function swap(old, fresh) {
    var sameKey = (old.dataset.liveKey || "") === (fresh.dataset.liveKey || "");
    if (old.hasAttribute("data-live-hold") && sameKey) {
      Array.prototype.forEach.call(old.querySelectorAll("[data-live-part][id]"), function (part) {
        var next = fresh.querySelector("#" + CSS.escape(part.id));
        if (next) part.innerHTML = next.innerHTML;
      });
      return false;
    }
    Array.prototype.forEach.call(fresh.attributes, function (a) {
      if (a.name.indexOf("data-") === 0) old.setAttribute(a.name, a.value);
    });
    old.removeAttribute("data-live-hold");
    old.innerHTML = fresh.innerHTML;
    return !sameKey;
  }

  // Someone typing in a field of the region: swap it a little later rather than lose what they typed.
  function typing(region) {
    var el = document.activeElement;
    return el && region.contains(el) && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && el.type !== "submit";
  }
  function later(id) {
    pending[id] = true;
    if (!timer) timer = setTimeout(refresh, 2000);
  }

  function fetchAndSwap(ids) {
    return fetch(location.href, { cache: "no-store", headers: { "X-Requested-With": "taikai-live" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var changed = [];
        ids.forEach(function (id) {
          var fresh = doc.getElementById(id), old = document.getElementById(id);
          if (!fresh || !old) return;
          if (typing(old) && old.dataset.liveKey === fresh.dataset.liveKey) { later(id); return; }
          if (swap(old, fresh)) changed.push(id);
        });
        document.dispatchEvent(new CustomEvent("taikai:refreshed", { detail: { ids: ids, keyChanged: changed } }));
      });
  }

  function refresh() {
    timer = null;
    var ids = Object.keys(pending);
    pending = {};
    if (!ids.length) return;
    fetchAndSwap(ids).catch(function () { /* keep what is shown; the next update tries again */ });
  }

  function schedule(kind) {
    regions(kind).forEach(function (el) { pending[el.id] = true; });
    if (!timer) timer = setTimeout(refresh, 300); // several results in a burst cost one fetch
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
               "time-extended", "result", "players", "event", "judge-call"];

  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    opened = false;
    source = new EventSource(streamUrl); // the browser resumes with Last-Event-ID after a drop
    source.onopen = function () {
      if (opened || failures) schedule(null); // what changed while the stream was down
      opened = true; failures = 0; stopPolling();
    };
    source.onerror = function () {
      failures += 1;
      if (failures >= 3) startPolling(); // a proxy that blocks streams: fall back
      if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(connect, 10000); }
    };
    KINDS.forEach(function (kind) {
      source.addEventListener(kind, function (e) {
        var data = {};
        try { data = JSON.parse(e.data); } catch (err) { /* keep {} */ }
        dispatch(kind, data);
      });
    });
    // A proxy that buffers the stream never opens it: poll until it does.
    setTimeout(function () { if (!opened) startPolling(); }, 5000);
  }

  // A phone waking up or coming back to the Wi-Fi may have missed updates: ask once.
  window.addEventListener("online", function () { schedule(null); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) schedule(null); });

  window.taikaiLive = {
    refresh: function () { schedule(null); },
    refreshNow: function () { return fetchAndSwap(regions(null).map(function (el) { return el.id; })); }
  };
  connect();
})();
