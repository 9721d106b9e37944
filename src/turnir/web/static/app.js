// turnir: the round timer counts down on every page that shows it (no build step).
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".timer[data-ends]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.ends) - now) / 1000));
      var clock = el.querySelector(".clock");
      if (clock) {
        var m = Math.floor(left / 60), s = left % 60;
        clock.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      }
      el.classList.toggle("over", left === 0);
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
