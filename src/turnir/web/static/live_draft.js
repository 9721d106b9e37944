// The live draft's countdowns (issue 14; no inline script: the CSP). A clock
// (.draft-clock[data-left]) counts down from the seconds the server gave when the part was
// drawn, by this device's monotonic clock, so a phone whose clock is wrong still shows the
// right time. At zero the page asks the server at once (the event draft-due: the polled part
// listens for it) instead of waiting for the next poll; the server has picked by then.
(function () {
  "use strict";
  var started = new WeakMap();

  function tick() {
    var now = performance.now();
    document.querySelectorAll(".draft-clock[data-left]").forEach(function (el) {
      if (!started.has(el)) started.set(el, now);
      var total = parseInt(el.dataset.left, 10) || 0;
      var left = Math.max(0, Math.ceil(total - (now - started.get(el)) / 1000));
      var clock = el.querySelector(".clock");
      if (clock) {
        var m = Math.floor(left / 60), s = left % 60;
        clock.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      }
      el.classList.toggle("soon", left > 0 && left <= 5);
      if (left === 0 && !el.classList.contains("over")) {
        el.classList.add("over");
        if (window.htmx) window.htmx.trigger(document.body, "draft-due");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 250);
})();
