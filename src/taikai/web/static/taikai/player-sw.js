// The player's page offline (plain JS, no library): pages and static files are fetched from the network
// first and kept; without Wi-Fi the last copy answers, so a reload still shows the table, the opponent
// and the clock as last seen. Reports are never cached: the page keeps a pending report itself and sends
// it when the connection is back (its idempotency key prevents double counting).
// A copy is dropped when it should no longer open: the server answers 404 or 410 for its link (re-issued or
// revoked: every copy under that link goes), or marks the page "X-Taikai-Offline: forget" (the event has
// ended); signing out on this device clears everything (the server's Clear-Site-Data, or the "forget-all"
// message).
var CACHE = "taikai-player-v2";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("taikai-player-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function live(url) {
  // The clock and the stream must be live or absent: a stale copy would set the clock back.
  return url.pathname.indexOf("/api/") === 0 || /\/clock\.json$/.test(url.pathname);
}

function linkPrefix(url) {
  var m = /^\/p\/[^/]+\//.exec(url.pathname);
  return m ? url.origin + m[0] : url.origin + url.pathname;
}

function forget(url) {
  var start = linkPrefix(url);
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) { return r.url.indexOf(start) === 0; })
        .map(function (r) { return cache.delete(r); }));
    });
  });
}

self.addEventListener("message", function (event) {
  if (event.data === "taikai-forget-all") event.waitUntil(caches.delete(CACHE));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || live(url)) return;
  var key = url.origin + url.pathname + url.search; // the live refresh (X-Requested-With) and a reload share a copy
  event.respondWith(fetch(request).then(function (response) {
    if (response.status === 404 || response.status === 410 || response.headers.get("X-Taikai-Offline") === "forget") {
      event.waitUntil(forget(url));
    } else if (response.ok && response.type === "basic") {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
    }
    return response;
  }, function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(key); }).then(function (found) {
      return found || Response.error();
    });
  }));
});
