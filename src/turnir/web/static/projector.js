// The projector view (/t/{tid}/projector, turnir.web.projector): a list longer than the
// screen scrolls by itself, slowly, pauses at the end, and starts again from the top. A
// visitor who asked for reduced motion gets no animation: the list turns a screenful at a
// time every few seconds. The page's live part is fetched again by HTMX every 15 s; a new
// round starts from the top. No inline script: the Content-Security-Policy allows files only.
(function () {
  "use strict";
  var SPEED = 45;          // pixels a second
  var PAUSE = 5000;        // milliseconds at the top and at the end
  var PAGE_EVERY = 9000;   // reduced motion: a screenful every 9 s
  var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var pos = 0, waitUntil = 0, last = 0, round = null, pageTimer = null;

  function root() { return document.scrollingElement || document.documentElement; }
  function room() { return Math.max(0, root().scrollHeight - window.innerHeight); }
  function headHeight() {
    var head = document.querySelector("#projector .proj-head");
    return head ? head.getBoundingClientRect().height : 0;
  }

  function checkRound() {
    var box = document.getElementById("projector");
    var now = box ? box.getAttribute("data-round") : null;
    if (now !== round) {  // the next round is paired: from the top again
      round = now; pos = 0; window.scrollTo(0, 0);
      waitUntil = performance.now() + PAUSE;
    }
  }

  function frame(t) {
    var dt = last ? Math.min(0.1, (t - last) / 1000) : 0;
    last = t;
    var max = room();
    if (max > 0 && t >= waitUntil) {
      if (pos >= max) {
        pos = 0; window.scrollTo(0, 0); waitUntil = t + PAUSE;
      } else {
        pos = Math.min(max, pos + SPEED * dt);
        window.scrollTo(0, pos);
        if (pos >= max) waitUntil = t + PAUSE;
      }
    }
    window.requestAnimationFrame(frame);
  }

  function turnPage() {
    var max = room();
    if (max <= 0) return;
    var step = Math.max(100, window.innerHeight - headHeight() - 40);
    pos = pos >= max ? 0 : Math.min(max, pos + step);
    window.scrollTo(0, pos);
  }

  function start() {
    checkRound();
    if (reduce && reduce.matches) {
      if (pageTimer === null) pageTimer = window.setInterval(turnPage, PAGE_EVERY);
    } else {
      window.requestAnimationFrame(frame);
    }
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", checkRound);
})();
