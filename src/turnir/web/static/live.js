// Live page updates (issue 15); a static file, as the CSP asks.
// A page whose live part carries data-live="/t/{tid}/events" opens one EventSource on that
// stream (server-sent events, turnir.web.live). When the stream says the tournament's change
// stamp moved (event "changed"), "turnir:changed" is fired on document.body (after a short
// random delay, so 2,000 open pages do not ask in the same millisecond); the live parts refresh
// on it (hx-trigger="turnir:changed from:body, every Ns").
// Coalescing (issue 15, scale-out): the server already sends "changed" at most once per its
// interval and spreads the streams of a busy tournament over it; the stream says that interval
// ("pace", in ms). Here several "changed" while a refresh is due make that one refresh, and
// "turnir:changed" is never fired twice within the pace, whatever arrives (a reconnect's first
// stamp included).
// The poll "every Ns" stays in the markup at the old speed. While the stream is open, this file
// cancels a poll of a part that is up to date: one refreshed since the last change and less
// than SLOW_MS ago, so the part still refreshes at least once a minute. Without EventSource,
// without this file, or while the stream fails (the server refused it with 503, the network is
// down, a proxy buffers it), nothing is cancelled and the parts poll at the old speed.
(function () {
  "use strict";
  var SLOW_MS = 60000;
  var JITTER_MS = 250;
  var source = null;
  var url = "";
  var open = false;
  var stamp = null;
  var lastChange = 0;
  var loaded = {};
  var pace = 0;
  var fired = 0;
  var due = null;

  function key(elt) {
    var get = elt.getAttribute("hx-get") || "";
    return elt.id || get.split("?")[0];
  }

  function changed() {
    lastChange = Date.now();
    if (due !== null) return;  // the refresh already due brings this change too
    var wait = Math.max(0, fired + pace - lastChange) + Math.floor(Math.random() * JITTER_MS);
    due = window.setTimeout(function () {
      due = null;
      fired = Date.now();
      document.body.dispatchEvent(new CustomEvent("turnir:changed", {bubbles: true}));
    }, wait);
  }

  function close() {
    if (due !== null) window.clearTimeout(due);
    due = null;
    if (source) source.close();
    source = null;
    open = false;
    url = "";
  }

  function connect() {
    var part = document.querySelector("[data-live]");
    var wanted = part ? part.getAttribute("data-live") : "";
    if (wanted === url) return;
    close();
    if (!wanted || typeof window.EventSource !== "function") return;
    url = wanted;
    source = new EventSource(wanted);
    source.addEventListener("open", function () { open = true; });
    source.addEventListener("error", function () {
      // Reconnecting (the stream ended after its minute) or failed (a 503): poll meanwhile.
      open = false;
    });
    source.addEventListener("changed", function (event) {
      open = true;
      var now = event.data;
      // The first stamp too: a change between the page's rendering and the stream's start
      // would be missed otherwise (one refresh per page load, answered from the page cache).
      if (now !== stamp) changed();
      stamp = now;
    });
    source.addEventListener("pace", function (event) {
      var ms = parseInt(event.data, 10);
      if (ms >= 0 && ms <= 60000) pace = ms;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var now = Date.now();
    document.querySelectorAll("[data-live]").forEach(function (elt) { loaded[key(elt)] = now; });
    connect();
  });
  document.addEventListener("htmx:afterSettle", connect);
  window.addEventListener("pagehide", close);

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var config = event.detail && event.detail.requestConfig;
    if (!open || !elt || !elt.hasAttribute("data-live") || !config) return;
    if (config.verb !== "get" || config.triggeringEvent) return;  // only the timed poll
    var last = loaded[key(elt)] || 0;
    // A refresh already due (coalesced, see above) brings the change: the poll waits for it.
    if (due !== null || (last >= lastChange && Date.now() - last < SLOW_MS)) {
      event.preventDefault();
    }
  });
  // A refresh asked before another answer replaced the part (a judge's POST swapping the grid)
  // may carry the state before that answer: it is dropped, the part is already newer.
  var swapped = {};
  var lastWrite = 0;  // the last answer to a form sent (a POST), wherever it swapped
  document.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail && event.detail.xhr) event.detail.xhr.turnirSent = Date.now();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail || {};
    var elt = detail.elt;
    var sent = detail.xhr && detail.xhr.turnirSent;
    var target = detail.target;
    if (elt && elt.hasAttribute("data-live") && detail.requestConfig &&
        detail.requestConfig.verb === "get" && sent && target &&
        ((swapped[target.id] || 0) > sent || lastWrite > sent)) {
      detail.shouldSwap = false;
    }
    // A refresh asked before a judge began typing a result into the grid
    // (data-hold-while-typing, static/app.js holds the ones asked after) would wipe the typed
    // score: it is dropped too, the judge's own POST brings the grid back.
    if (elt && elt.hasAttribute("data-hold-while-typing") && detail.requestConfig &&
        detail.requestConfig.verb === "get" && target && target.querySelector &&
        target.querySelector("[data-dirty]")) {
      detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id) swapped[target.id] = Date.now();
    var config = event.detail && event.detail.requestConfig;
    if (config && config.verb && config.verb !== "get") lastWrite = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var xhr = event.detail && event.detail.xhr;
    // An answer served within the server's stale tolerance (X-Turnir-Stale, turnir.web.cache)
    // is not up to date: the timed poll still runs and brings the change (issue 15, load).
    var stale = xhr && xhr.getResponseHeader && xhr.getResponseHeader("X-Turnir-Stale");
    if (elt && elt.hasAttribute("data-live") && event.detail.successful && !stale) {
      loaded[key(elt)] = Date.now();
    }
  });
})();
