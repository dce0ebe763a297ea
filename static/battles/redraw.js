// A redraw of the board (the other phone changed something) keeps the player's place: open cards and folds, a card
// being edited, what was typed in a form (and its error), the focus and the scroll. The focus is never moved to the
// page's body (issue 19). Used by static/battles/battle.js, which fetches the boards.
(function () {
  "use strict";
  var board = null; // the board being redrawn

  // Focus, scroll and typed values survive a board update (the other phone changed something): the player's
  // place is kept, never moved to the page's body (issue 19).
  var FOCUSABLE = "button, input, select, textarea, [tabindex]";

  function focusMark(el) {
    if (!el || el === document.body || !board.contains(el)) return null;
    var scope = el.closest("[data-unit]") || board;
    var sel = null;
    if (el.dataset.command) sel = 'button[data-command="' + CSS.escape(el.dataset.command) + '"][data-inputs="' + CSS.escape(el.dataset.inputs || "{}") + '"]';
    else if (el.dataset.undo) sel = 'button[data-undo="' + CSS.escape(el.dataset.undo) + '"]';
    else if (el.dataset.set) sel = '.scale[data-set="' + CSS.escape(el.dataset.set) + '"]';
    else if (el.name) {
      var form = el.closest("form[data-order-command]");
      sel = (form ? 'form[data-order-command="' + CSS.escape(form.dataset.orderCommand) + '"] ' : "") + '[name="' + CSS.escape(el.name) + '"]';
    }
    return {
      unit: scope === board ? null : scope.dataset.unit,
      sel: sel,
      nth: Array.prototype.indexOf.call(scope.querySelectorAll(FOCUSABLE), el),
      nthSame: sel ? Array.prototype.indexOf.call(scope.querySelectorAll(sel), el) : -1,
      top: el.getBoundingClientRect().top,
      el: el,
    };
  }

  function markScope(mark) {
    return mark.unit ? board.querySelector('[data-unit="' + CSS.escape(mark.unit) + '"]') : board;
  }

  function restoreFocus(mark, movedFocus) {
    if (!mark) return;
    var scope = markScope(mark);
    if (!scope) return;
    var el = mark.sel ? scope.querySelectorAll(mark.sel)[Math.max(mark.nthSame, 0)] : null;
    if (!el || el.disabled) el = scope.querySelectorAll(FOCUSABLE)[mark.nth];
    if (el && el.disabled) el = el.parentNode.querySelector("button:not([disabled]), .scale[tabindex]");
    if (el) {
      if (movedFocus) movedFocus(mark.el, el);
      mark.el = el;
      el.focus({ preventScroll: true });
    }
  }

  // What stays put on the screen: the focused control, else the first unit card in view.
  function scrollAnchor(mark) {
    if (mark) return { mark: mark };
    var cards = board.querySelectorAll("details[data-unit]");
    for (var i = 0; i < cards.length; i++) {
      var r = cards[i].getBoundingClientRect();
      if (r.bottom > 0) return { unit: cards[i].dataset.unit, top: r.top, y: window.scrollY };
    }
    return { y: window.scrollY };
  }

  function keepScroll(anchor) {
    var el = null;
    var top = null;
    if (anchor.mark && anchor.mark.el && document.contains(anchor.mark.el)) {
      el = anchor.mark.el;
      top = anchor.mark.top;
    } else if (anchor.unit) {
      el = board.querySelector('details[data-unit="' + CSS.escape(anchor.unit) + '"]');
      top = anchor.top;
    }
    if (el) window.scrollBy(0, el.getBoundingClientRect().top - top);
    else if (anchor.y !== undefined) window.scrollTo(0, anchor.y);
  }

  function typedValues() {
    var kept = [];
    board.querySelectorAll("form[data-order-command]").forEach(function (f) {
      var values = {};
      Array.prototype.forEach.call(f.elements, function (el, i) {
        if (el.name) values[el.name + "|" + i] = el.type === "checkbox" ? el.checked : el.value;
      });
      kept.push({ command: f.dataset.orderCommand, label: f.getAttribute("aria-label") || "", values: values,
                  error: f.querySelector(".form-error") });
    });
    return kept;
  }

  // Typed values go back only into the same form: same command and same question (the next unit's form of the
  // same command is another form), and a choice only if the new form still offers it.
  function restoreTyped(kept) {
    kept.forEach(function (k) {
      var f = Array.prototype.find.call(board.querySelectorAll('form[data-order-command="' + CSS.escape(k.command) + '"]'),
        function (form) { return (form.getAttribute("aria-label") || "") === k.label; });
      if (!f) return;
      Array.prototype.forEach.call(f.elements, function (el, i) {
        var v = k.values[el.name + "|" + i];
        if (v === undefined) return;
        if (el.type === "checkbox") el.checked = v;
        else if (el.tagName === "SELECT" && !Array.prototype.some.call(el.options, function (o) { return o.value === v; })) return;
        else el.value = v;
      });
      if (k.error) f.insertBefore(k.error, f.firstChild.nextSibling);
    });
  }

  function openKeys(selector, key) {
    return Array.prototype.map.call(board.querySelectorAll(selector), key);
  }

  // Replaces the board's content by `html`. `movedFocus(before, after)`: the focused control was drawn anew.
  function replace(target, html, movedFocus) {
    board = target;
    var openDetails = openKeys("details[open][data-unit]", function (d) { return d.dataset.unit; });
    var editing = openKeys("details.unit.editing", function (d) { return d.dataset.unit; });
    var openBoxes = openKeys("details.unit details[open]", function (d) {
      return d.closest("details.unit").dataset.unit + "|" + (d.className || "");
    });
    var focus = focusMark(document.activeElement);
    var anchor = scrollAnchor(focus);
    var typed = typedValues();
    board.innerHTML = html;
    openDetails.forEach(function (key) {
      var d = board.querySelector('details[data-unit="' + key + '"]');
      if (d) d.open = true;
    });
    editing.forEach(function (key) {
      var d = board.querySelector('details[data-unit="' + key + '"]');
      if (!d) return;
      d.classList.add("editing");
      var t = d.querySelector("[data-edit-toggle]");
      if (t) t.checked = true;
    });
    openBoxes.forEach(function (id) {
      var parts = id.split("|");
      var d = board.querySelector('details[data-unit="' + parts[0] + '"] details.' + (parts[1] || "x").split(" ")[0]);
      if (d) d.open = true;
    });
    restoreTyped(typed);
    restoreFocus(focus, movedFocus);
    keepScroll(anchor);
  }

  window.ArmlistRedraw = { replace: replace };
})();
