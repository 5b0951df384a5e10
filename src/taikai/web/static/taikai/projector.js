// The projector: pairings by name scroll slowly, over and over, so everyone finds their table.
(function () {
  var box = document.getElementById("proj-scroll");
  if (!box) return;
  var pause = 0;
  setInterval(function () {
    if (box.scrollHeight <= box.clientHeight) return;
    if (pause > 0) { pause -= 1; return; }
    box.scrollTop += 2;
    if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) { pause = 60; setTimeout(function () { box.scrollTop = 0; }, 2500); }
  }, 50);
  // New pairings arrive through live.js (the event's stream, or polling without it).
  document.addEventListener("taikai:live", function (e) {
    if (e.detail && e.detail.kind === "pairings") { box.scrollTop = 0; }
  });
})();
