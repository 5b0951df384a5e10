// The player's page offline (plain JS, no library): pages and static files are fetched from the network
// first and kept; without Wi-Fi the last copy answers, so a reload still shows the table, the opponent
// and the clock as last seen. Reports are never cached: the page keeps a pending report itself and sends
// it when the connection is back (its idempotency key prevents double counting).
var CACHE = "taikai-player-v1";

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

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || live(url)) return;
  var key = url.origin + url.pathname + url.search; // the live refresh (X-Requested-With) and a reload share a copy
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
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
