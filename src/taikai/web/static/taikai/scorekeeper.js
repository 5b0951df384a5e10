// The scorekeeper's results page: the table number shows both names at once, so the post can save in one go
// (the confirm field carries the table whose names were on screen); a number key picks a result.
(function () {
  var form = document.getElementById("quick-entry");
  var box = document.getElementById("table");
  var who = document.getElementById("who");
  var confirm = document.getElementById("confirm-table");
  var data = document.getElementById("table-names");
  if (!form || !box || !who || !confirm || !data) return;
  var names = JSON.parse(data.textContent);
  var outcomes = form.querySelectorAll('input[name="outcome"]');
  function digits(s) { return s.replace(/[０-９]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0xfee0); }).trim(); }
  function show() {
    var t = names[digits(box.value)];
    confirm.value = "";
    who.classList.remove("done");
    if (!t) { who.textContent = ""; return; }
    who.textContent = t.a + " – " + t.b + (t.done ? "  (" + t.done + ")" : "");
    if (t.done) { who.classList.add("done"); return; }
    confirm.value = digits(box.value);
  }
  box.addEventListener("input", show);
  box.addEventListener("keydown", function (e) {
    if (e.key === "Enter") {
      var picked = form.querySelector('input[name="outcome"]:checked');
      if (!picked) { e.preventDefault(); if (outcomes.length) outcomes[0].focus(); }
    }
  });
  form.addEventListener("keydown", function (e) {
    if (e.target === box || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Enter" && e.target.name === "outcome") { e.preventDefault(); form.requestSubmit(); return; }
    var n = parseInt(e.key, 10);
    if (n >= 1 && n <= outcomes.length) { outcomes[n - 1].checked = true; outcomes[n - 1].focus(); e.preventDefault(); }
  });
  show();
  if (!document.getElementById("confirm")) box.focus();
})();
