// The organizer's announcement on the projector and the players' pages (templates/events/_announcement.html).
// live.js says when the event changed ("taikai:live", kind "event", e.g. the action taikai.event.announced) and
// when it re-read the page after a drop or while polling ("taikai:refreshed"); each time the announcement is read
// again from its own small address, so a cached projector page and the player page show the same one.
(function () {
  var box = document.getElementById("announcement");
  if (!box) return;
  var text = document.getElementById("announcement-text");
  var at = document.getElementById("announcement-at");

  function show(a) {
    var changed = String(a.id) !== box.dataset.id;
    box.dataset.id = String(a.id);
    if (!changed) return;
    text.textContent = a.text;
    at.textContent = a.at;
    box.hidden = !a.text;
    if (a.text) {
      box.classList.remove("fresh");
      void box.offsetWidth; // restart the highlight
      box.classList.add("fresh");
    }
  }

  function load() {
    fetch(box.dataset.url, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(show)
      .catch(function () { /* offline: keep what is shown */ });
  }

  document.addEventListener("taikai:live", function (e) {
    if (e.detail && e.detail.kind === "event") load();
  });
  document.addEventListener("taikai:refreshed", load);
  load(); // a projector page may come from the page cache
})();
