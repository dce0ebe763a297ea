// The board's own controls, for the generic board (static/battles/battle.js sends what they ask and draws the
// boards): the widgets' buttons (rules/contract/board.py), the order forms and prompts, the sliders' scales, and a
// card's edit switch. A system's board script handles its own buttons (data-act) through "battle:act".
(function () {
  "use strict";
  var api = window.ArmlistBattle;
  var board = document.getElementById("board");
  if (!api || !board) return;
  var canWrite = api.canWrite;
  var command = api.command;
  var send = api.send;
  var setStatus = api.setStatus;
  var formError = api.formError;
  var clearFormError = api.clearFormError;

  board.addEventListener("change", function (ev) {
    if (ev.target.matches("[data-edit-toggle]")) {
      ev.target.closest("details.unit").classList.toggle("editing", ev.target.checked);
    }
  });

  // Board buttons (event delegation: the board is replaced on every update) ------------------------------
  // A widget button carries data-command and data-inputs (rules/contract/board.py); data-confirm asks first.
  // Anything else (data-act…) belongs to the system's own board script, which listens for "battle:act".
  board.addEventListener("click", function (ev) {
    var btn = ev.target.closest("button");
    if (!btn || !canWrite) return;
    if (btn.dataset.undo) {
      var row = btn.closest("li");
      var what = row && row.querySelector(".text") ? row.querySelector(".text").textContent : "#" + btn.dataset.undo;
      // A two-player undo (battles/undo.py) names its step (undo/propose, undo/confirm, undo/decline) and body.
      var body = btn.dataset.undoBody ? JSON.parse(btn.dataset.undoBody) : { seq: parseInt(btn.dataset.undo, 10) };
      send(btn.dataset.undoPath || "undo", body, btn.textContent.trim() + ": " + what);
    } else if (btn.dataset.command) {
      if (btn.dataset.confirm && !window.confirm(btn.dataset.confirm)) return;
      var card = btn.closest("details.unit");
      var name = card ? card.querySelector(".name").textContent + ": " : "";
      var label = btn.getAttribute("aria-label") || btn.textContent.trim();
      command(btn.dataset.command, JSON.parse(btn.dataset.inputs || "{}"), name + label, { view: viewOf(btn, card) });
    } else if (btn.dataset.act) {
      document.dispatchEvent(new CustomEvent("battle:act", { detail: { act: btn.dataset.act, unit: btn.dataset.unit } }));
    }
  });

  // Order forms and prompts: every named field is an input; "dice" boxes are the dice typed in.
  board.addEventListener("submit", function (ev) {
    var f = ev.target.closest("form[data-order-command]");
    if (!f) return;
    ev.preventDefault();
    var inputs = {};
    var dice = [];
    Array.prototype.forEach.call(f.elements, function (el) {
      if (!el.name || el.value === "") return;
      if (el.name === "dice") dice.push(parseInt(el.value, 10));
      else inputs[el.name] = el.type === "number" ? Number(el.value) : el.value;
    });
    if (dice.length) inputs.dice = dice;
    var name = f.dataset.orderCommand;
    var submit = f.querySelector("[type=submit]");
    if (submit) submit.disabled = true;
    clearFormError(f);
    command(name, inputs, f.getAttribute("aria-label") || (f.querySelector("h3") || {}).textContent, { ownErrors: true }).then(
      function (res) {
        var now = board.querySelector('form[data-order-command="' + CSS.escape(name) + '"]');
        if (!now) return;
        var go = now.querySelector("[type=submit]");
        if (go) go.disabled = false;
        formError(now, res);
      }
    );
  });

  // Sliders (templates/battles/widgets/slider.html): a long press on a number of the scale, or a drag along it,
  // sets that value; a short tap only says how; the arrow keys step like − and +, Home and End set the ends.
  var HOLD_MS = 450;
  var press = null;

  function cellAt(x, y, scale) {
    var el = document.elementFromPoint(x, y);
    var cell = el && el.closest(".cell[data-n]");
    return cell && scale.contains(cell) ? cell : null;
  }

  function aim(scale, cell) {
    scale.querySelectorAll(".cell").forEach(function (c) {
      c.classList.toggle("aim", c === cell);
    });
  }

  // A tap's change as this phone can show it before the server answers: its card, and for − and + of a slider
  // (the first and the last of its steps) or a value set on its scale, the slider's new value.
  function viewOf(el, card, value) {
    if (!card) return null;
    var view = { unit: card.dataset.unit };
    var slider = el.closest(".slider");
    if (slider) {
      view.slider = Array.prototype.indexOf.call(card.querySelectorAll(".slider"), slider);
      if (typeof value === "number") view.value = value;
      else {
        var steps = slider.querySelectorAll(".steps button");
        if (steps.length > 1 && el === steps[0]) view.delta = -1;
        else if (steps.length > 1 && el === steps[steps.length - 1]) view.delta = 1;
        else delete view.slider;
      }
    }
    return view;
  }

  function setSlider(scale, value) {
    var spec = JSON.parse(scale.dataset.set);
    var inputs = JSON.parse(JSON.stringify(spec.inputs || {}));
    var path = spec.field.split(".");
    var node = inputs;
    for (var i = 0; i < path.length - 1; i++) {
      node[path[i]] = node[path[i]] || {};
      node = node[path[i]];
    }
    node[path[path.length - 1]] = value;
    scale.setAttribute("aria-valuenow", value);
    var card = scale.closest("details.unit");
    var name = card ? card.querySelector(".name").textContent + ": " : "";
    command(spec.command, inputs, name + scale.getAttribute("aria-label") + " → " + value, { view: viewOf(scale, card, value) });
  }

  board.addEventListener("pointerdown", function (ev) {
    var scale = ev.target.closest(".scale.settable");
    var cell = ev.target.closest(".cell[data-n]");
    if (!scale || !cell || !canWrite || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    scale.focus({ preventScroll: true });
    press = { scale: scale, cell: cell, dragged: false, done: false };
    press.timer = window.setTimeout(function () {
      if (!press || press.dragged) return;
      press.done = true;
      aim(press.scale, null);
      setSlider(press.scale, parseInt(press.cell.dataset.n, 10));
    }, HOLD_MS);
    aim(scale, cell);
    try {
      scale.setPointerCapture(ev.pointerId);
    } catch (e) {
      /* capture is a nicety: moves are found by position anyway */
    }
  });

  board.addEventListener("pointermove", function (ev) {
    if (!press) return;
    var cell = cellAt(ev.clientX, ev.clientY, press.scale);
    if (cell && cell !== press.cell) {
      press.cell = cell;
      press.dragged = true;
      window.clearTimeout(press.timer);
      aim(press.scale, cell);
    }
  });

  function endPress(cancelled) {
    if (!press) return;
    var p = press;
    press = null;
    window.clearTimeout(p.timer);
    aim(p.scale, null);
    if (cancelled || p.done || !document.contains(p.scale)) return;
    if (p.dragged) setSlider(p.scale, parseInt(p.cell.dataset.n, 10));
    else setStatus(gettext("Hold a number or drag along the scale to set it; + and − step by one."), "");
  }

  board.addEventListener("pointerup", function () {
    endPress(false);
  });
  board.addEventListener("pointercancel", function () {
    endPress(true);
  });
  board.addEventListener("contextmenu", function (ev) {
    if (ev.target.closest(".scale.settable")) ev.preventDefault(); // a long press is ours, not the menu's
  });

  board.addEventListener("keydown", function (ev) {
    var scale = ev.target.closest && ev.target.closest(".scale.settable");
    if (!scale) return;
    var steps = scale.closest(".slider").querySelectorAll(".steps button");
    var minus = steps[0];
    var plus = steps[steps.length - 1];
    if (ev.key === "ArrowDown" || ev.key === "ArrowLeft") {
      if (minus && !minus.disabled) minus.click();
    } else if (ev.key === "ArrowUp" || ev.key === "ArrowRight") {
      if (plus && !plus.disabled) plus.click();
    } else if (ev.key === "Home") {
      setSlider(scale, parseInt(scale.getAttribute("aria-valuemin"), 10));
    } else if (ev.key === "End") {
      setSlider(scale, parseInt(scale.getAttribute("aria-valuemax"), 10));
    } else {
      return;
    }
    ev.preventDefault();
  });

  document.addEventListener("battle:redrawing", function () {
    if (!press) return;
    window.clearTimeout(press.timer); // the scale being pressed is about to be replaced
    press = null;
  });
})();
