// A form is sent once per click (issue 12 item 4): while a form's request is in flight its
// submit buttons are disabled, so a double click sends it once (the server also answers a
// form sent twice as the first time: turnir.web.form_once). No inline script (the CSP).
// - HTMX forms: disabled on htmx:beforeRequest (after any hx-confirm, once the values are
//   taken, so the clicked button's value still goes), enabled again on htmx:afterRequest;
// - plain POST forms: disabled just after the browser has taken the values;
// - a page shown again by Back (the back-forward cache) gets its buttons back.
(function () {
  "use strict";
  var BUTTONS = "button[type=submit], button:not([type]), input[type=submit]";

  function hold(form) {
    form.querySelectorAll(BUTTONS).forEach(function (button) {
      if (!button.disabled) {
        button.disabled = true;
        button.setAttribute("data-sending", "");
      }
    });
  }

  function release(root) {
    root.querySelectorAll("[data-sending]").forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("data-sending");
    });
  }

  function isPost(form) {
    return form instanceof HTMLFormElement &&
      (form.getAttribute("method") || "get").toLowerCase() === "post";
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !isPost(form) || form.hasAttribute("hx-post")) return;
    window.setTimeout(function () { hold(form); }, 0);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var form = elt instanceof Element ? elt.closest("form") : null;
    if (form && form.hasAttribute("hx-post")) hold(form);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var form = elt instanceof Element ? elt.closest("form") : null;
    if (form) release(form);
  });
  window.addEventListener("pageshow", function () { release(document); });
})();
