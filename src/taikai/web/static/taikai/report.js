// Result reports from a phone: one idempotency key per report, kept across retries, so a report sent
// twice after a lost connection is counted once; a network failure shows a clear retry message.
(function () {
  document.querySelectorAll("form[data-retry]").forEach(function (form) {
    var key = form.querySelector("input[name=idempotency_key]");
    var stored = sessionStorage.getItem("taikai-report-key");
    key.value = stored || (Date.now().toString(36) + Math.random().toString(36).slice(2));
    sessionStorage.setItem("taikai-report-key", key.value);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var msg = form.querySelector(".retry-msg");
      fetch(form.action, { method: "POST", body: new FormData(form), redirect: "follow" })
        .then(function (r) {
          if (!r.ok) throw new Error(r.status);
          sessionStorage.removeItem("taikai-report-key");
          window.location.href = r.url;
        })
        .catch(function () { if (msg) msg.hidden = false; });
    });
  });
})();
