// The judges' results grid (issue 12, fast results); a static file, as the CSP asks:
// - the keyboard entry (#quick-entry): after a result is recorded, the table field moves on
//   to the next table without a result (the grid's data-next, from the server) and the focus
//   goes to the result field; a refused entry keeps what was typed (the message is shown
//   above the page by the HTMX error path);
// - the grid does not refresh itself while a correction is open (a <details> in the grid)
//   nor while a player's comment is being read (a tapped, focused .said: on a phone it shows
//   two lines until tapped).
(function () {
  "use strict";
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "grid" && event.detail.requestConfig &&
        event.detail.requestConfig.verb === "get" &&
        (elt.querySelector("details[open]") || elt.querySelector(".said:focus"))) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (!(form instanceof HTMLFormElement) || form.id !== "quick-entry") return;
    var table = form.querySelector("[name=table]");
    var score = form.querySelector("[name=score]");
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status >= 300) {
      score.focus();
      return;
    }
    var grid = document.getElementById("grid");
    var next = grid ? grid.getAttribute("data-next") : "";
    table.value = next || "";
    score.value = "";
    (next ? score : table).focus();
  });
})();
