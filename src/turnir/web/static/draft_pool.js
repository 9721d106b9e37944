// The draft pool page (issue 14, D-6): the running count of the ticked cards. Without this
// script the page works the same; the count is then the saved deck's.
(function () {
  "use strict";
  function update(form) {
    var out = form.querySelector("[data-pool-count]");
    if (!out) { return; }
    var n = form.querySelectorAll("input[name=card]:checked").length;
    var least = parseInt(form.getAttribute("data-min") || "0", 10);
    out.textContent = String(n);
    out.classList.toggle("short", n < least);
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-pool]");
    if (form) { update(form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-pool]").forEach(update);
  });
})();
