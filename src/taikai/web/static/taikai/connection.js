// A dropped connection said on the page, not only in the console (issue 24, item 23): a small banner while
// the live stream or a fetch to the server fails, and a short "connected again" when one gets through.
//
//   {% include "taikai/_connection.html" %}   (before the page's other scripts: it watches what they open)
//
// It watches every fetch and EventSource of the page from outside (live.js, clock.js and player.js are not
// changed): a request that fails means offline; an answer from the server means online. A copy the service
// worker answered from its cache is no sign of the server, so only live URLs (the API, the clock) count then.
// A failure is shown after a short grace, so a stream that reconnects at once does not flash the banner.
(function () {
  var script = document.currentScript;
  if (!script || window.taikaiConnection) return;
  var GRACE_MS = Number(script.dataset.grace || 2500);
  var banner = null, offline = false, pending = null, hideTimer = null;

  function bannerEl() {
    if (!banner) {
      banner = document.createElement("div");
      banner.id = "connection-banner";
      banner.className = "connection-banner";
      banner.setAttribute("role", "status");
      banner.setAttribute("aria-live", "polite");
      banner.hidden = true;
      document.body.insertBefore(banner, document.body.firstChild); // on top, pushing the page down
    }
    return banner;
  }

  function show(text, state) {
    var el = bannerEl();
    el.textContent = text;
    el.dataset.state = state;
    el.hidden = false;
  }

  function failed() {
    if (offline || pending) return;
    pending = setTimeout(function () {
      pending = null;
      offline = true;
      clearTimeout(hideTimer);
      show(script.dataset.offline || "Connection lost: showing what was last received. Reconnecting…", "offline");
    }, navigator.onLine === false ? 0 : GRACE_MS);
  }

  function reached() {
    clearTimeout(pending);
    pending = null;
    if (!offline) return;
    offline = false;
    show(script.dataset.back || "Connected again.", "online");
    hideTimer = setTimeout(function () { bannerEl().hidden = true; }, 3000);
  }

  function live(url) {
    var path = new URL(url, location.href).pathname;
    return path.indexOf("/api/") === 0 || /\/clock\.json$/.test(path);
  }

  function answeredByServer(url) {
    var controlled = navigator.serviceWorker && navigator.serviceWorker.controller;
    return !controlled || live(url);
  }

  if (window.fetch) {
    var plainFetch = window.fetch;
    window.fetch = function (input, init) {
      var url = typeof input === "string" ? input : (input && input.url) || String(input);
      return plainFetch.apply(this, arguments).then(function (response) {
        if (answeredByServer(url)) reached();
        return response;
      }, function (error) {
        failed();
        throw error;
      });
    };
  }

  if (window.EventSource) {
    var PlainSource = window.EventSource;
    var Watched = function (url, options) {
      var source = new PlainSource(url, options);
      source.addEventListener("open", reached);
      source.addEventListener("error", function () { if (source.readyState !== PlainSource.OPEN) failed(); });
      return source;
    };
    Watched.prototype = PlainSource.prototype;
    Watched.CONNECTING = PlainSource.CONNECTING;
    Watched.OPEN = PlainSource.OPEN;
    Watched.CLOSED = PlainSource.CLOSED;
    window.EventSource = Watched;
  }

  window.addEventListener("offline", failed);
  window.taikaiConnection = { get offline() { return offline; } };
})();
