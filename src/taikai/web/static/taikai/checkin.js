// The check-in desk: filter the player table as the organizer types (ID digits or name/kana).
(function () {
  var box = document.getElementById("checkin-search");
  if (!box) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll("#player-table tbody tr[data-search]"));
  function norm(s) {
    s = (s || "").normalize("NFKC").toLowerCase().replace(/[\s-]/g, "");
    // katakana -> hiragana, so カナ and かな match alike
    return s.replace(/[\u30a1-\u30f6]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0x60); });
  }
  box.addEventListener("input", function () {
    var q = norm(box.value);
    rows.forEach(function (tr) {
      tr.hidden = q !== "" && norm(tr.dataset.search).indexOf(q) === -1;
    });
  });
  box.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    e.preventDefault();
    var visible = rows.filter(function (tr) { return !tr.hidden; });
    if (visible.length === 1) {
      var btn = visible[0].querySelector("button[name=check_in]");
      if (btn) btn.click();
    }
  });
})();
