// Pre-fill the duel-by-duel result form from the stored record (a correction, or a penalty's duel loss).
(function () {
  var data = document.getElementById("result-prefill");
  if (!data) return;
  var values = JSON.parse(data.textContent);
  Object.keys(values).forEach(function (name) {
    document.querySelectorAll('[name="' + name + '"]').forEach(function (el) {
      if (el.type === "radio") el.checked = el.value === values[name];
      else if (el.type === "checkbox") el.checked = true;
      else el.value = values[name];
    });
  });
})();
