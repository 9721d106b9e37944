// turnir's only script (no build step, no inline scripts: the Content-Security-Policy allows
// scripts from this site alone, turnir.web.headers):
// - the round timer counts down on every page that shows it (a paused one stands still),
//   by the server's time, not the device's own clock;
// - the results grid does not refresh itself while a judge is typing a score in it
//   (data-hold-while-typing: a poll is cancelled while an input of the grid has been edited);
// - error pages' "Back" link goes back in the history when there is one; the printables'
//   "Print" button prints.
(function () {
  "use strict";
  // The timer's end (data-ends) is the server's time; the device's clock may be off by minutes
  // or years (a phone set by hand, a laptop without a network). The page carries the server's
  // time as it was made (meta turnir-now), so the difference is measured once per page and the
  // countdown runs on the device's clock moved by it.
  var skew = 0;
  function measureSkew() {
    var meta = document.querySelector('meta[name="turnir-now"]');
    var server = meta ? parseInt(meta.getAttribute("content"), 10) : NaN;
    skew = isNaN(server) ? 0 : server - Date.now();
  }
  measureSkew();
  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll(".timer[data-ends]").forEach(function (el) {
      // a paused clock (data-paused: the seconds it kept) stands still
      var left = el.dataset.paused !== undefined ? parseInt(el.dataset.paused, 10) || 0
        : Math.max(0, Math.round((Date.parse(el.dataset.ends) - now) / 1000));
      var clock = el.querySelector(".clock");
      if (clock) {
        var m = Math.floor(left / 60), s = left % 60;
        clock.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      }
      el.classList.toggle("over", left === 0);
    });
  }
  // a box that scrolls sideways (a wide table on a phone) can be scrolled from the keyboard
  // too (issue 12, accessibility)
  function scrollers() {
    document.querySelectorAll(".scroll, .bracket, figure.chart").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1 && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", scrollers);
  // on a phone the tab bar scrolls sideways: the current tab is scrolled into its view
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".tabs").forEach(function (bar) {
      var on = bar.querySelector("a.on, a[aria-current=page]");
      if (on && bar.scrollWidth > bar.clientWidth) {
        bar.scrollLeft = on.offsetLeft - bar.offsetLeft - (bar.clientWidth - on.offsetWidth) / 2;
      }
    });
  });
  document.addEventListener("htmx:afterSwap", scrollers);
  window.addEventListener("resize", scrollers);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && input.closest("[data-hold-while-typing]")) {
      input.dataset.dirty = "1";
    }
  });
  // A refresh of a part (a live update, a poll) waits while the judge has typed into one of
  // its fields and not sent it yet (issue 15 QA: the keyboard entry's table went back under a
  // live refresh); a field as the page rendered it holds nothing back.
  function typingIn(elt) {
    var active = document.activeElement;
    return !!active && elt.contains(active) && active.matches("input:not([type=hidden])") &&
      active.value !== active.defaultValue;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.hasAttribute("data-hold-while-typing") &&
        event.detail.requestConfig && event.detail.requestConfig.verb === "get" &&
        (elt.querySelector("[data-dirty]") || typingIn(elt))) {
      event.preventDefault();
    }
  });

  // Faults (issue 15): a 5xx that carries a message for the page (the database cannot be
  // reached: 503, the disk is full: 507; turnir.web.errors) is shown like any refusal; a
  // request that got no answer (no network, a server restarting) or an answer without a
  // message (a proxy's 502) says so in the page's message box (its texts: base.html), and the
  // note goes once a later request succeeds.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 500 && xhr.getResponseHeader("HX-Retarget")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  function fault(key) {
    var box = document.getElementById("messages");
    if (!box || !box.dataset[key]) return;
    var note = document.createElement("p");
    note.className = "msg error";
    note.setAttribute("role", "alert");
    note.setAttribute("data-fault", key);
    note.textContent = box.dataset[key];
    box.replaceChildren(note);
  }
  document.addEventListener("htmx:sendError", function () { fault("offline"); });
  document.addEventListener("htmx:timeout", function () { fault("offline"); });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 500 && !xhr.getResponseHeader("HX-Retarget")) fault("unavailable");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0 && xhr.status < 500) {
      document.querySelectorAll("#messages [data-fault]").forEach(function (note) {
        note.remove();
      });
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    if (target.closest("[data-back]") && window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    } else if (target.closest("[data-print]")) {
      printPart(target.closest("[data-print]").getAttribute("data-print"));
    }
  });

  // A "Print" button prints the page, or only the part its data-print names (a selector:
  // the Manage page's players list); the print CSS hides the rest (style.css, issue 12).
  function printPart(selector) {
    var part = selector ? document.querySelector(selector) : null;
    if (part) {
      part.classList.add("print-target");
      document.body.classList.add("print-part");
    }
    window.print();
  }
  window.addEventListener("afterprint", function () {
    document.body.classList.remove("print-part");
    document.querySelectorAll(".print-target").forEach(function (el) {
      el.classList.remove("print-target");
    });
  });
})();
