// A new round's table at once, from the stream's pairing message, on the player's page.
//
// The message carries where every player sits ({round, spread, tables: [[table, player, opponent], ...]}, see
// taikai.events.seating). A page that finds its player there and shows another table says "New pairing: table
// N" above the last round (dimmed) and asks live.js to fetch the rest of the page (the opponent, the clock, the
// report form) at a moment of its own within ``spread`` seconds: a round published at a 2,000-player event is
// then not 2,000 page renders asked of the laptop in the same second. Once the page shows that table, the note
// goes. A page whose player the message does not seat (a bye, a drop) refreshes at once, as before.
(function () {
  var note = document.getElementById("seat-note"), live = document.getElementById("player-live");
  if (!note || !live) return;
  var player = Number(note.dataset.player);

  function show(round, table) {
    var words = note.dataset.words.split("{table}"), number = document.createElement("strong");
    number.className = "seat-table";
    number.textContent = table;
    note.textContent = "";
    note.append(words[0], number, words.slice(1).join(""));
    note.dataset.shows = round + ":" + table;
    note.hidden = false;
    live.classList.add("stale");
  }

  function shownRound() { return Number((live.dataset.liveKey || "").split(":")[0]) || 0; }

  document.addEventListener("taikai:live", function (e) {
    var seats = e.detail.data && e.detail.data.seats;
    if (e.detail.kind !== "pairings" || !seats || !seats.tables) return;
    var row = seats.tables.filter(function (t) { return t[1] === player || t[2] === player; })[0];
    if (!row) return;
    e.detail.delay = Math.random() * (Number(seats.spread) || 0) * 1000;
    if (live.dataset.seat !== seats.round + ":" + row[0]) show(seats.round, row[0]);
  });

  document.addEventListener("taikai:refreshed", function () {
    if (note.hidden) return;
    var round = Number((note.dataset.shows || "").split(":")[0]);
    if (live.dataset.seat === note.dataset.shows || shownRound() > round) {
      note.hidden = true;
      live.classList.remove("stale");
    }
  });
})();
