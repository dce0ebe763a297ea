// Dice rolled at the table typed into the board's own forms, for a system whose tests use as many dice as what is
// chosen asks for (a system's board script calls ArmlistDiceBoxes.start). The boxes follow the form: the server's dry
// run (POST …/commands/<name>/dice) says which dice, in order, one labelled box each. Boxes left empty: the server
// rolls. The generic board script (battle.js) sends the command; the words come from the board's data
// (client_data: dice_commands, dice_legend, dice_note and, for a question answered by the dice alone, submits), so
// this file holds no text of its own and knows no game. The boxes themselves (diceBoxes) also serve a system's own
// sheet, as ArmlistBattle.diceBoxes.
(function () {
  "use strict";
  var root = document.getElementById("battle");
  var apiUrl = root ? root.dataset.apiUrl : "";

  function cookie(name) {
    var m = document.cookie.match("(^|;)\\s*" + name + "=([^;]*)");
    return m ? decodeURIComponent(m[2]) : "";
  }

  // Dice typed in from the table: one labelled box per die («Д12 дальность», «Д20 мощь 1 из 3»), in the order the
  // test uses them, asked from the command itself (a dry run on the server: POST …/commands/<name>/dice). The boxes
  // follow the inputs and the dice typed so far (a miss asks for no power dice); typed values stay put. The list says
  // data-state="asking" while a question is on its way and "ready" once the boxes follow what is typed now (tests
  // type the next die only then). `restore`: the values typed before the board was drawn again, for a form that is
  // new after each update (below, start); a box outside the board keeps its own.
  function diceBoxes(box, restore) {
    var timer = null;
    var asked = 0;
    var list = box.querySelector(".boxes") || box;

    function typed() {
      var values = [];
      var inputs = list.querySelectorAll("input");
      for (var i = 0; i < inputs.length; i++) {
        if (inputs[i].value.trim() === "") break;
        values.push(parseInt(inputs[i].value, 10));
      }
      return values;
    }

    function values() {
      return Array.prototype.map.call(list.querySelectorAll("input"), function (el) {
        return { key: el.dataset.key, value: el.value };
      });
    }

    function draw(dice) {
      var old = list.querySelector("input") ? values() : (restore && restore()) || [];
      var focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.index : null;
      list.innerHTML = "";
      dice.forEach(function (d, i) {
        var label = document.createElement("label");
        label.className = "die-box";
        var input = document.createElement("input");
        input.type = "number";
        input.inputMode = "numeric";
        input.min = "1";
        input.max = String(d.faces);
        input.name = "die";
        input.dataset.index = String(i);
        input.dataset.key = d.faces + "|" + d.purpose;
        if (old[i] && old[i].key === input.dataset.key) input.value = old[i].value;
        label.appendChild(document.createTextNode(d.label + " "));
        label.appendChild(input);
        list.appendChild(label);
        if (focused === String(i)) input.focus({ preventScroll: true });
      });
      box.hidden = !dice.length;
    }

    function update(name, inputs) {
      window.clearTimeout(timer);
      var n = ++asked; // now, not when the request leaves: an answer to an older question is stale
      list.dataset.state = "asking";
      timer = window.setTimeout(function () {
        var body = Object.assign({}, inputs, { dice: typed() });
        fetch(apiUrl + "commands/" + name + "/dice", {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") },
          body: JSON.stringify(body),
        })
          .then(function (r) {
            return r.ok ? r.json() : null;
          })
          .then(function (p) {
            if (n !== asked) return;
            if (p && document.contains(box)) draw(p.dice || []);
            list.dataset.state = "ready";
          })
          .catch(function () {
            if (n === asked) list.dataset.state = "ready"; // offline: the boxes stay; the server rolls if none is typed
          });
      }, 150);
    }

    return {
      update: update,
      typed: typed,
      values: values,
      clear: function () {
        list.innerHTML = "";
        box.hidden = true;
      },
      onInput: function (hook) {
        list.addEventListener("input", hook);
      },
    };
  }

  // marker: the data attribute that marks a form's dice box (e.g. "data-squads-dice"), so a system's tests can find it.
  function start(marker) {
    var api = window.ArmlistBattle;
    var root = document.getElementById("battle");
    var board = document.getElementById("board");
    if (!api || !api.canWrite || !root || !board) return;
    var selector = "[" + marker + "]";
    var kept = {}; // command -> [{key, value}]: the dice typed so far survive a board update from the other phone

    function words() {
      var d = api.data() || {};
      return { commands: d.dice_commands || [], legend: d.dice_legend || "", note: d.dice_note || "", submits: d.submits || {} };
    }

    function inputsOf(form) {
      var inputs = {};
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.name === "die" || el.value === "") return;
        inputs[el.name] = el.type === "number" ? Number(el.value) : el.value;
      });
      return inputs;
    }

    function attach(form, text) {
      var name = form.dataset.orderCommand;
      if (form.querySelector(selector)) return;
      form.noValidate = true; // a die out of range is said by the server, in the player's words, not the browser's
      var box = document.createElement("fieldset");
      box.className = "field dice-entry";
      box.setAttribute(marker, "");
      box.hidden = true;
      var legend = document.createElement("legend");
      legend.textContent = text.legend;
      var note = document.createElement("p");
      note.className = "muted";
      note.textContent = text.note;
      var list = document.createElement("div");
      list.className = "boxes";
      box.appendChild(legend);
      box.appendChild(note);
      box.appendChild(list);
      form.insertBefore(box, form.querySelector(".controls"));
      // A question answered by the dice alone (e.g. a counter-attack: strike back with these dice, or let it go) has
      // no field, so the board draws no send button: add it, worded by the board's data.
      if (!form.querySelector("[type=submit]") && text.submits[name] && form.querySelector(".controls")) {
        var go = document.createElement("button");
        go.type = "submit";
        go.textContent = text.submits[name];
        form.querySelector(".controls").appendChild(go);
      }
      // The dice typed so far are kept here, by command, because the form is drawn anew with every update of the
      // board.
      var boxes = diceBoxes(box, function () {
        return kept[name];
      });
      function ask() {
        boxes.update(name, inputsOf(form));
      }
      form.addEventListener("input", function (ev) {
        if (ev.target.name === "die") kept[name] = boxes.values();
        ask();
      });
      form.addEventListener("change", ask);
      ask();
    }

    function attachAll() {
      var text = words();
      board.querySelectorAll("form[data-order-command]").forEach(function (form) {
        if (text.commands.indexOf(form.dataset.orderCommand) >= 0) attach(form, text);
      });
    }

    // Sent here, not by the generic form handler, so that the typed dice go with the inputs.
    document.addEventListener(
      "submit",
      function (ev) {
        var form = ev.target;
        if (!form.matches || !form.matches("form[data-order-command]") || !board.contains(form)) return;
        if (!form.querySelector(selector)) return;
        ev.preventDefault();
        ev.stopPropagation();
        var name = form.dataset.orderCommand;
        var inputs = inputsOf(form);
        var dice = [];
        var boxes = form.querySelectorAll(selector + ' input[name="die"]');
        for (var i = 0; i < boxes.length && boxes[i].value.trim() !== ""; i++) dice.push(parseInt(boxes[i].value, 10));
        if (dice.length) inputs.dice = dice;
        var go = form.querySelector("[type=submit]");
        if (go) go.disabled = true;
        api.clearFormError(form);
        api.command(name, inputs, form.getAttribute("aria-label") || name, { ownErrors: true }).then(function (res) {
          if (res && res.ok) delete kept[name];
          var now = board.querySelector('form[data-order-command="' + CSS.escape(name) + '"]');
          if (!now) return;
          var again = now.querySelector("[type=submit]");
          if (again) again.disabled = false;
          api.formError(now, res);
        });
      },
      true
    );

    document.addEventListener("battle:updated", attachAll);
    attachAll();
  }

  window.ArmlistDiceBoxes = { start: start };
  // For a system's board script that draws dice boxes in a sheet of its own (e.g. «Бронепехота»'s).
  if (window.ArmlistBattle) window.ArmlistBattle.diceBoxes = diceBoxes;
})();
