// The deck pages (issue 13): the deck registration form, its card builder and the public deck
// check. No inline script (the app's CSP): everything is wired here by data attributes.
//
// - A card found by the builder's search (any element with data-card="name" inside
//   [data-card-results]) adds a line "1 name" to the list (or one more copy to its line);
// - a suggestion button of an unknown card (data-line, data-from, data-to) replaces the name
//   in that line of the list; without JavaScript the suggestions are plain text;
// - a file input with data-read-into reads a text file (.txt/.csv) into the list in the
//   browser (the public check page: nothing is uploaded).
(function () {
  "use strict";

  function deckText(from) {
    var form = from.closest("[data-deck]") || document;
    return form.querySelector("textarea[data-deck-text]") ||
      document.querySelector("textarea[data-deck-text]");
  }

  function nameKey(text) {
    return text.toLowerCase().replace(/ё/g, "е").replace(/\s+/g, " ").trim();
  }

  // "3 Name", "3x Name", "Name x3", "3;Name;Edition": the count and the name of a line
  var COUNT_FIRST = /^(\s*)(\d{1,4})(\s*[xх×*]?\s+)(.+)$/i;

  function lineName(line) {
    var found = COUNT_FIRST.exec(line);
    var rest = found ? found[4] : line;
    return rest.split(/[;\t]/)[0].replace(/\s*[\[(][^\[\]()]*[\])]\s*$/, "").trim();
  }

  function changed(area) {
    area.dispatchEvent(new Event("input", { bubbles: true }));
    area.classList.add("edited");
  }

  function addCard(area, name) {
    var lines = area.value.split("\n");
    for (var i = 0; i < lines.length; i++) {
      var found = COUNT_FIRST.exec(lines[i]);
      if (found && nameKey(lineName(lines[i])) === nameKey(name) && lines[i].indexOf(";") < 0) {
        lines[i] = found[1] + (parseInt(found[2], 10) + 1) + found[3] + found[4];
        area.value = lines.join("\n");
        changed(area);
        return;
      }
    }
    var text = area.value.replace(/\s+$/, "");
    area.value = (text ? text + "\n" : "") + "1 " + name + "\n";
    changed(area);
  }

  function replaceName(area, number, from, to) {
    var lines = area.value.split("\n");
    var at = number - 1;
    if (!(at >= 0 && at < lines.length && lines[at].indexOf(from) >= 0)) {
      at = -1;
      for (var i = 0; i < lines.length; i++) {
        if (lines[i].indexOf(from) >= 0) { at = i; break; }
      }
    }
    if (at < 0) return false;
    lines[at] = lines[at].replace(from, to);
    area.value = lines.join("\n");
    changed(area);
    return true;
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var suggestion = target.closest("button[data-to]");
    if (suggestion) {
      var area = deckText(suggestion);
      if (area && replaceName(area, parseInt(suggestion.getAttribute("data-line"), 10),
                              suggestion.getAttribute("data-from"),
                              suggestion.getAttribute("data-to"))) {
        var group = suggestion.closest(".suggestions");
        (group || suggestion).classList.add("applied");
        suggestion.classList.add("chosen");
        suggestion.setAttribute("aria-pressed", "true");
      }
      return;
    }
    var results = target.closest("[data-card-results]");
    var card = results ? target.closest("[data-card]") : null;
    if (card && results.contains(card)) {
      event.preventDefault();
      var into = deckText(results);
      if (into) {
        addCard(into, card.getAttribute("data-card"));
        var said = results.parentElement.querySelector("[data-added]");
        if (said) said.textContent = (said.getAttribute("data-added") || "") + " " +
          card.getAttribute("data-card");
      }
    }
  });

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.hasAttribute("data-read-into")) return;
    var area = document.getElementById(input.getAttribute("data-read-into"));
    var file = input.files && input.files[0];
    if (!area || !file || file.size > 200000) return;
    var reader = new FileReader();
    reader.onload = function () {
      area.value = String(reader.result || "");
      changed(area);
    };
    reader.readAsText(file);
  });

  // Without JavaScript the suggestions are text; with it, buttons.
  function upgrade(root) {
    var boxes = root.querySelectorAll(".suggestions");
    for (var i = 0; i < boxes.length; i++) {
      var text = boxes[i].querySelector(".as-text");
      var buttons = boxes[i].querySelector(".as-buttons");
      if (text && buttons) { text.hidden = true; buttons.hidden = false; }
    }
    var keys = root.querySelectorAll("[data-builder]");
    for (var j = 0; j < keys.length; j++) keys[j].hidden = false;
  }

  document.addEventListener("DOMContentLoaded", function () { upgrade(document); });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target instanceof Element) upgrade(event.target);
  });
})();
