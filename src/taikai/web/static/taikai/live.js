// Live updates for public pages: a server-sent-events stream per event, polling when it is unavailable.
//
//   <script src="{% static 'taikai/live.js' %}" data-event="{{ event.pk }}" defer></script>
//
// The stream only says that something changed ("pairings", "result", "judge-call", ...); the page then
// takes its state from the server: elements with an id and data-live-refresh="result pairings ..." (or "*"
// for every kind) are re-fetched from the current page and swapped in. Everything in a region comes from the
// server except an element inside it marked data-live-hold (set by a page's script while a person fills in a
// form): that element stays where it is, with what was typed and the focus, and the rest of the region is
// swapped around it, unless the region's or the held element's data-live-key changed (a new round, a new
// penalty duel: the old form no longer applies). A region the server sends unchanged since its last swap is
// left alone (a button being tapped is not rebuilt under the finger). A page the server answers as gone (a revoked or replaced
// personal link: header X-Taikai-Page: gone) is reloaded, so the person reads why instead of a frozen page.
// A per-table message (a result, a time extension) names its table ("events.match:12"): a region that lists the
// tables it shows (data-live-tables) is not refreshed for another table's, so at a 2,000-player event one result
// costs its two players' pages a fetch, not every open page one.
// Every update is also sent as a "taikai:live" DOM event ({kind, data, delay}) for other scripts, before the
// refresh is scheduled: a listener that shows the update itself may put the refresh off by ``delay`` ms.
(function () {
  var script = document.currentScript;
  var eventId = script && script.dataset.event;
  if (!eventId) return;
  var pollSeconds = Number(script.dataset.poll || 30);
  var streamUrl = "/api/v1/events/" + eventId + "/stream";
  var pending = {}, timer = null, source = null, failures = 0, pollTimer = null, opened = false;

  var PER_TABLE = ["result", "time-extended"];
  var TABLE = "events.match:";

  // Whether a message of ``kind`` about ``object`` may change the element: anything not known to be about a
  // table other than those listed around it does (clock.js asks the same for its clock).
  function concerns(el, kind, object) {
    var listed = el.closest("[data-live-tables]");
    if (!listed || PER_TABLE.indexOf(kind) < 0 || !object || object.indexOf(TABLE) !== 0) return true;
    return listed.dataset.liveTables.split(/\s+/).indexOf(object) >= 0;
  }

  function regions(kind, object) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-live-refresh]"), function (el) {
      var kinds = el.dataset.liveRefresh.split(/\s+/);
      return el.id && (!kind || kinds.indexOf("*") >= 0 || kinds.indexOf(kind) >= 0) && concerns(el, kind, object);
    });
  }

  function copyAttributes(old, fresh, only) {
    Array.prototype.slice.call(old.attributes).forEach(function (a) {
      if ((!only || a.name.indexOf(only) === 0) && !fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
    });
    Array.prototype.forEach.call(fresh.attributes, function (a) {
      if (!only || a.name.indexOf(only) === 0) old.setAttribute(a.name, a.value);
    });
  }

  function childHolding(parent, node) {
    while (node && node.parentNode !== parent) node = node.parentNode;
    return node;
  }

  // The held element and its counterpart in the fresh page, when the rest can be swapped around it: the
  // same key, and the same element names on the way down from the region.
  function heldPair(old, fresh) {
    var held = old.querySelector("[data-live-hold][id]");
    if (!held) return null;
    var twin = fresh.querySelector("#" + CSS.escape(held.id));
    if (!twin || (twin.dataset.liveKey || "") !== (held.dataset.liveKey || "")) return null;
    for (var a = held, b = twin; a !== old; a = a.parentNode, b = b.parentNode) {
      if (b === fresh || a.tagName !== b.tagName) return null;
    }
    return { held: held, twin: twin };
  }

  // Swap old's content for fresh's, keeping ``held`` in the document (never removed, so it keeps its focus).
  function graft(old, fresh, held, twin) {
    if (old === held) return;
    var keep = childHolding(old, held), next = childHolding(fresh, twin);
    Array.prototype.slice.call(old.childNodes).forEach(function (n) { if (n !== keep) old.removeChild(n); });
    var before = true;
    Array.prototype.slice.call(fresh.childNodes).forEach(function (n) {
      if (n === next) { before = false; return; }
      old.insertBefore(document.importNode(n, true), before ? keep : null);
    });
    if (keep !== held) {
      // a details the person opened to fill in the held form stays open, whatever the fresh page says
      var open = keep.tagName === "DETAILS" && keep.open;
      copyAttributes(keep, next);
      if (open) keep.open = true;
    }
    graft(keep, next, held, twin);
  }

  // Returns whether the region's key changed (a new round).
  function swap(old, fresh) {
    var sameKey = (old.dataset.liveKey || "") === (fresh.dataset.liveKey || "");
    var pair = sameKey ? heldPair(old, fresh) : null;
    copyAttributes(old, fresh, "data-");
    if (pair) { graft(old, fresh, pair.held, pair.twin); return false; }
    old.innerHTML = fresh.innerHTML;
    return !sameKey;
  }

  // Someone in a field of the region (outside a held element, which is kept as it is): swap it a little later
  // rather than lose what they typed or tapped.
  function typing(region) {
    var el = document.activeElement;
    if (!el || !region.contains(el) || el.closest("[data-live-hold]")) return false;
    return /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && el.type !== "submit";
  }
  function later(id) {
    pending[id] = true;
    if (!timer) timer = setTimeout(refresh, 2000);
  }

  // A region as the server sent it, less the CSRF tokens (masked anew on every render) and the clock it carries
  // (its server time, new on every render): equal to the last one swapped in means nothing changed, so the
  // region is left as it is rather than rebuilt under a finger.
  function served(fresh) {
    return fresh.outerHTML.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "").replace(/ data-clock-state="[^"]*"/g, "");
  }

  // Answers can arrive out of order (a stream's refresh and a page script's refreshNow at once): one from a
  // fetch older than the last one shown would set the page back, so it is dropped.
  var started = 0, shown = 0;
  function fetchAndSwap(ids) {
    var seq = ++started;
    return fetch(location.href, { cache: "no-store", headers: { "X-Requested-With": "taikai-live" } })
      .then(function (r) {
        if (r.headers.get("X-Taikai-Page") === "gone") { location.reload(); return Promise.reject(r.status); }
        return r.ok ? r.text() : Promise.reject(r.status);
      })
      .then(function (html) {
        if (seq < shown) { ids.forEach(later); return; } // fetched again, after the newer one
        shown = seq;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var changed = [];
        ids.forEach(function (id) {
          var fresh = doc.getElementById(id), old = document.getElementById(id);
          if (!fresh || !old) return;
          var seen = served(fresh);
          if (old.taikaiServed === seen) return; // the server's copy is unchanged: a tap in progress stays
          if (typing(old) && old.dataset.liveKey === fresh.dataset.liveKey) { later(id); return; }
          if (swap(old, fresh)) changed.push(id);
          old.taikaiServed = seen;
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

  function schedule(kind, object, delay) {
    regions(kind, object).forEach(function (el) { pending[el.id] = true; });
    // a burst costs one fetch
    if (!timer && Object.keys(pending).length) timer = setTimeout(refresh, 300 + (delay || 0));
  }

  // A listener of "taikai:live" may set detail.delay (ms): the page already shows what matters of the message
  // (seat.js: the new table) and takes the rest later, so a big event's pages do not all fetch at once.
  function dispatch(kind, data) {
    var detail = { kind: kind, data: data, delay: 0 };
    document.dispatchEvent(new CustomEvent("taikai:live", { detail: detail }));
    schedule(kind, data.object, detail.delay);
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
               "time-extended", "result", "players", "event", "judge-call", "access"];

  // The server pings every few seconds when it has nothing else to say: a stream silent for longer went away
  // without a word (the Wi-Fi lost, the laptop asleep), and the browser would wait on it for ever. Open a new one.
  var SILENT_MS = Number(script.dataset.silent || 9000), heard = 0;
  function watch() {
    if (!source || source.readyState !== EventSource.OPEN || Date.now() - heard < SILENT_MS) return;
    source.close();
    source = null;
    failures += 1;
    connect();
  }

  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    opened = false;
    source = new EventSource(streamUrl); // the browser resumes with Last-Event-ID after a drop
    source.onopen = function () {
      heard = Date.now();
      if (opened || failures) schedule(null); // what changed while the stream was down
      opened = true; failures = 0; stopPolling();
    };
    source.addEventListener("ping", function () { heard = Date.now(); });
    source.onerror = function () {
      failures += 1;
      if (failures >= 3) startPolling(); // a proxy that blocks streams: fall back
      if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(connect, 10000); }
    };
    KINDS.forEach(function (kind) {
      source.addEventListener(kind, function (e) {
        heard = Date.now();
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
    concerns: concerns,
    streaming: function () { return !!source && source.readyState === 1 && !pollTimer; },
    refreshNow: function () { return fetchAndSwap(regions(null).map(function (el) { return el.id; })); }
  };
  connect();
  setInterval(watch, 1000);
})();
