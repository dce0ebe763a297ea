// «Бронепехота»'s sheets on the board: a test (shot, melee, grenade, move, jump, repair, capture, towing, the single
// tests of a soldier or a vehicle, the dispute roll) and a grenade's burst.
// The generic board script (static/battles/battle.js) sends the commands; this file only builds their inputs.
(function () {
  "use strict";
  var api = window.ArmlistBattle;
  if (!api || !api.canWrite) return;
  var data = api.data;

  // Sends a test; the sheet stays open until the server answers, and after a refusal it shows why, with every
  // field and die as typed (issue 19).
  function send(body, sheetEl, formEl) {
    var inputs = Object.assign({}, body.inputs);
    if (body.dice && body.dice.length) inputs.dice = body.dice;
    var go = formEl.querySelector("button[value=go]");
    if (go) go.disabled = true;
    api.clearFormError(formEl);
    api.command(body.action, inputs, body.label, { ownErrors: true }).then(function (res) {
      if (go) go.disabled = false;
      if (res.ok || res.queued) sheetEl.close();
      else api.formError(formEl, res);
    });
  }

  // The action sheet: shot, melee, grenade, repair, capture --------------------------------------------------
  var sheet = document.getElementById("action-sheet");
  var form = document.getElementById("action-form");
  var dice = form ? api.diceBoxes(form.querySelector("[data-dice-boxes]")) : null;

  function option(value, label) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    return o;
  }

  function fill(select, items, keep) {
    var old = keep ? select.value : null;
    select.innerHTML = "";
    items.forEach(function (it) {
      select.appendChild(option(it.value, it.label));
    });
    if (old && items.some(function (it) { return it.value === old; })) select.value = old;
  }

  function unitByKey(key) {
    return data().units.filter(function (u) { return u.key === key; })[0];
  }

  function soldierItems(unit, which) {
    if (!unit || !unit.soldiers) return [];
    return unit.soldiers
      .filter(function (s) { return (which === "any" || s.alive) && !s.pilot; })
      .map(function (s) { return { value: String(s.num), label: s.label }; });
  }

  function crewItems() {
    var items = [];
    data().units.forEach(function (u) {
      if (!u.mine || u.kind !== "squad") return;
      u.soldiers.forEach(function (s) {
        if (s.alive && !s.pilot) items.push({ value: u.key + "|" + s.num, label: u.label.split(" · ")[0] + " " + s.label });
      });
    });
    return items;
  }

  // Whose test it is: your own units, or (a survival test, an armour test, a landing, a panic) any unit.
  function unitItems(spec) {
    return data().units
      .filter(function (u) { return u.alive && (spec.any_unit || u.mine); })
      .map(function (u) { return { value: u.key, label: u.label }; });
  }

  function targetItems(action, actorKey) {
    return data().units
      .filter(function (u) {
        if (!u.alive) return false;
        if (action === "tow") return u.kind !== "squad" && u.key !== actorKey; // vehicles and mobile guns (p.49)
        if (action === "shoot" || action === "melee") return !u.mine; // the enemy's units, ranked by the odds
        return true;
      })
      .map(function (u) { return { value: u.key, label: u.label }; });
  }

  function fillSides() {
    var box = document.getElementById("f-sides");
    if (!box) return;
    box.innerHTML = "";
    (data().sides || []).forEach(function (s) {
      var label = document.createElement("label");
      label.className = "check";
      var cb = document.createElement("input");
      cb.type = "checkbox";
      cb.name = "side";
      cb.value = String(s.index);
      cb.checked = true;
      label.appendChild(cb);
      label.appendChild(document.createTextNode(" " + s.name + (s.mine ? " " + gettext("(you)") : "")));
      box.appendChild(label);
    });
  }

  function refreshSheet() {
    var action = form.elements.action.value;
    var spec = (data().actions || {})[action] || {};
    fill(form.elements.unit, unitItems(spec), true);
    document.getElementById("f-unit-label").textContent = spec.any_unit ? gettext("Whose test") : gettext("Your unit");
    form.querySelector("[data-unit-field]").hidden = !!spec.no_unit;
    var actor = unitByKey(form.elements.unit.value);
    fill(form.elements.target, targetItems(action, form.elements.unit.value), true);
    document.getElementById("f-target-label").textContent = action === "tow" ? gettext("What to tow") : gettext("Target");
    var target = unitByKey(form.elements.target.value);
    var mode = data().mode;
    form.querySelectorAll("[data-for]").forEach(function (el) {
      var fors = el.dataset.for.split(" ");
      var hidden = fors.indexOf(action) < 0;
      if ("virtual" in el.dataset && mode !== "virtual") hidden = true;
      if ("real" in el.dataset && mode !== "real") hidden = true;
      if ("crew" in el.dataset && !(actor && actor.kind === "gun")) hidden = true;
      if ("aimed" in el.dataset && !(spec.aimed && actor && actor.kind === "squad")) hidden = true;
      if ("infantry" in el.dataset && !(actor && actor.kind === "squad")) hidden = true;
      if ("vehicle" in el.dataset && !(actor && actor.kind === "vehicle")) hidden = true;
      el.hidden = hidden;
    });
    if (actor && actor.kind === "gun") fill(form.elements.crew, crewItems(), true);
    var actorSoldiers = soldierItems(actor, "alive");
    fill(form.elements.soldier, actorSoldiers, true);
    form.elements.soldier.closest(".field").hidden = !actorSoldiers.length || !spec.actor_soldier || !!spec.no_unit;
    var weapons = [];
    if (actor && actor.weapons) {
      var soldierNum = form.elements.soldier.value;
      weapons = actor.weapons
        .filter(function (w) { return (!w.soldier || String(w.soldier) === soldierNum) && w.ranged !== false; })
        .map(function (w) { return { value: w.key, label: w.label }; });
    }
    fill(form.elements.weapon, weapons, true);
    var targetSoldiers = soldierItems(target, "alive");
    fill(form.elements.target_soldier, targetSoldiers, true);
    form.elements.target_soldier.closest(".field").hidden = !targetSoldiers.length || !spec.target_soldier;
    oddsFor(action, spec);
  }

  // The odds of the test as it is filled (static/battles/odds.js asks the server as the inputs change): the form
  // is the command's, its rule one tap away, and the targets or weapons may be ranked by the odds.
  function oddsFor(action, spec) {
    form.dataset.orderCommand = action;
    var rule = action === "shoot" && data().mode === "real" ? "shoot_real" : action;
    document.getElementById("f-rule").setAttribute("href", "rules/" + rule + "/");
    form.querySelectorAll("[data-compare]").forEach(function (btn) {
      var field = btn.dataset.compare;
      var select = form.elements[field];
      var compared = (action === "shoot" && (field === "target" || field === "weapon")) || (action === "melee" && field === "target");
      var shown = compared && select && !select.closest(".field").hidden && select.options.length > 1;
      btn.hidden = !shown;
      btn.style.display = shown ? "" : "none"; // a button's own display would show it despite [hidden]
    });
    if (form.dataset.shownAction !== action) {
      form.dataset.shownAction = action;
      var box = form.querySelector(".odds-compare");
      box.hidden = true;
      box.innerHTML = "";
    }
  }
  if (form) {
    // The inputs the odds are asked for: the very inputs Roll sends. Ranking the targets leaves the soldier out:
    // each squad is ranked by its first soldier who can be attacked (as the sheet picks him).
    form.oddsInputs = function (comparing) {
      var inputs = sheetBody().inputs;
      if (comparing === "target") delete inputs.target_soldier;
      return inputs;
    };
  }

  function showOdds(formEl) {
    var live = formEl.querySelector(".odds-live");
    if (live) {
      live.innerHTML = "";
      live.className = "odds-live";
    }
    formEl.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function openAction(action, unitKey) {
    if (!sheet) return;
    var d = data();
    var actions = Object.keys(d.actions || {});
    fill(form.elements.action, actions.map(function (k) { return { value: k, label: d.actions[k].label }; }));
    if (action && actions.indexOf(action) >= 0) form.elements.action.value = action;
    var spec = d.actions[form.elements.action.value] || {};
    fill(form.elements.unit, unitItems(spec));
    if (unitKey) form.elements.unit.value = unitKey;
    fill(form.elements.target, targetItems(form.elements.action.value, form.elements.unit.value));
    var firstEnemy = d.units.filter(function (u) {
      return u.alive && !u.mine && Array.prototype.some.call(form.elements.target.options, function (o) { return o.value === u.key; });
    })[0];
    if (firstEnemy) form.elements.target.value = firstEnemy.key;
    dice.clear();
    api.clearFormError(form);
    ["steps", "gun_steps", "climb_steps", "obstacles", "forward", "backward", "sideways", "turns", "degrees",
     "length_steps", "rise_steps", "note"].forEach(function (name) {
      if (form.elements[name]) form.elements[name].value = "";
    });
    form.elements.reaches_edge.checked = false;
    fillSides();
    refreshSheet();
    askDice();
    if (sheet.showModal) sheet.showModal();
    else sheet.setAttribute("open", "");
    showOdds(form);
  }

  // The dice boxes follow the test and its inputs (static/battles/dice_boxes.js diceBoxes).
  function askDice() {
    var body = sheetBody();
    dice.update(body.action, body.inputs);
  }

  if (form) {
    form.addEventListener("change", function (ev) {
      if (["action", "unit", "target", "soldier"].indexOf(ev.target.name) >= 0) refreshSheet();
      if (ev.target.name !== "die") askDice();
    });
    form.addEventListener("input", askDice); // a distance typed, a die typed: the boxes follow
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (ev.submitter && ev.submitter.value === "cancel") {
        sheet.close();
        return;
      }
      send(sheetBody(), sheet, form);
    });
  }

  function sheetBody() {
    var f = form.elements;
    var action = f.action.value;
    var spec = (data().actions || {})[action] || {};
    var inputs = { unit: f.unit.value };
    if (spec.actor_soldier && f.soldier.value && !f.soldier.closest(".field").hidden) {
      inputs.soldier = parseInt(f.soldier.value, 10);
    }
    var actorUnit = unitByKey(f.unit.value);
    if (action === "shoot" && actorUnit && actorUnit.kind === "gun" && f.crew.value) {
      inputs.crew_unit = f.crew.value.split("|")[0];
      inputs.crew_soldier = parseInt(f.crew.value.split("|")[1], 10);
    }
    if (spec.target !== false) inputs.target = f.target.value;
    if (spec.target_soldier && f.target_soldier.value && !f.target_soldier.closest(".field").hidden) {
      inputs.target_soldier = parseInt(f.target_soldier.value, 10);
    }
    if (spec.weapon && f.weapon.value) inputs.weapon = f.weapon.value;
    if (spec.distance && !f.distance.closest(".field").hidden) {
      var n = f.distance.value.trim();
      if (n !== "") inputs[f.distance_unit.value === "cm" ? "distance_cm" : "distance_steps"] = Number(n);
    }
    if (spec.cover) inputs.cover = f.cover.value;
    if (spec.surprise) inputs.surprise = f.surprise.checked;
    if (spec.aimed && !f.aimed.closest(".field").hidden && f.aimed.checked) inputs.aimed = true;
    if (spec.charge) inputs.charge = f.charge.value;
    if (spec.hit_result) {
      inputs.hit = f.hit_result.value !== "miss";
      inputs.fell = f.hit_result.value === "fell";
    }
    if (action === "grenade" || action === "ammo_refresh") delete inputs.target;
    if (spec.path) inputs.path = movePath(f, actorUnit);
    if (spec.jump) {
      inputs.length_steps = num(f.length_steps.value);
      if (f.rise_steps.value.trim() !== "") inputs.rise_steps = num(f.rise_steps.value);
    }
    if (action === "tow") inputs.op = "start";
    if (spec.armour_die) inputs.die = parseInt(f.armour_die.value, 10);
    if (spec.reaches_edge) inputs.reaches_edge = f.reaches_edge.checked;
    if (spec.no_unit) delete inputs.unit; // a roll of the players (initiative, a dispute), not of a unit
    if (spec.sides) {
      inputs = { sides: Array.prototype.map.call(form.querySelectorAll("input[name=side]:checked"), function (cb) {
        return parseInt(cb.value, 10);
      }) };
      if (f.note.value.trim()) inputs.note = f.note.value.trim();
    }
    var label = f.action.options[f.action.selectedIndex] ? f.action.options[f.action.selectedIndex].textContent : action;
    return { action: action, inputs: inputs, dice: dice.typed(), label: label };
  }

  function num(text) {
    var n = Number(String(text).trim().replace(",", "."));
    return isNaN(n) ? 0 : n;
  }

  // The move as segments the rules price (Table 1 for infantry, Table 2 for vehicles).
  function movePath(f, actor) {
    var path = [];
    if (actor && actor.kind === "vehicle") {
      if (num(f.backward.value)) path.push({ kind: "backward", steps: num(f.backward.value) });
      if (num(f.sideways.value)) path.push({ kind: "sideways", steps: num(f.sideways.value) });
      if (num(f.turns.value)) {
        var turn = { kind: "turn", count: Math.round(num(f.turns.value)) };
        if (f.degrees.value.trim() !== "") turn.degrees = num(f.degrees.value);
        path.push(turn);
      }
      path.push({ kind: "forward", steps: num(f.forward.value) });
      return path;
    }
    path.push({ kind: "flat", steps: num(f.steps.value) });
    f.obstacles.value.split(/[\s;]+/).filter(Boolean).forEach(function (h) {
      path.push({ kind: "obstacle", height_cm: num(h) });
    });
    if (num(f.climb_steps.value)) path.push({ kind: "climb", steps: num(f.climb_steps.value) });
    if (num(f.gun_steps.value)) path.push({ kind: "with_gun", steps: num(f.gun_steps.value) });
    return path;
  }

  // The grenade's burst: the players say who is within 1 step of it, then the server rolls 1Д20 each.
  var burstSheet = document.getElementById("burst-sheet");
  var burstForm = document.getElementById("burst-form");
  var burstDice = burstForm ? api.diceBoxes(burstForm.querySelector("[data-dice-boxes]")) : null;

  function burstBody() {
    var victims = Array.prototype.map.call(burstForm.querySelectorAll("#burst-victims input[type=checkbox]:checked"), function (cb) {
      var parts = cb.value.split("|");
      return parts[1] ? { unit: parts[0], soldier: parseInt(parts[1], 10) } : { unit: parts[0] };
    });
    return { action: "grenade_burst", inputs: { throw: parseInt(burstForm.dataset.throw, 10), victims: victims },
             dice: burstDice.typed(), label: gettext("Grenade burst") };
  }

  function openBurst(seq, steps) {
    if (!burstSheet) return;
    burstForm.dataset.throw = seq;
    document.getElementById("burst-text").textContent =
      interpolate(gettext("The grenade burst %s step(s) from the thrower. Tick everything within 1 step of it (the thrower too)."), [steps]);
    var box = document.getElementById("burst-victims");
    box.innerHTML = "";
    data().units.forEach(function (u) {
      if (!u.alive) return;
      var items = u.kind === "squad"
        ? u.soldiers.filter(function (s) { return s.alive && !s.pilot; }).map(function (s) {
            return { value: u.key + "|" + s.num, label: u.label + " " + s.label };
          })
        : [{ value: u.key + "|", label: u.label }];
      items.forEach(function (it) {
        var label = document.createElement("label");
        label.className = "check";
        var cb = document.createElement("input");
        cb.type = "checkbox";
        cb.value = it.value;
        label.appendChild(cb);
        label.appendChild(document.createTextNode(" " + it.label));
        box.appendChild(label);
      });
    });
    burstDice.clear();
    api.clearFormError(burstForm);
    if (burstSheet.showModal) burstSheet.showModal();
    else burstSheet.setAttribute("open", "");
    showOdds(burstForm);
  }

  if (burstForm) {
    burstForm.oddsInputs = function () { return burstBody().inputs; };
    burstForm.addEventListener("input", function () {
      var body = burstBody();
      burstDice.update(body.action, body.inputs);
    });
    burstForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      send(burstBody(), burstSheet, burstForm);
    });
  }

  document.addEventListener("battle:act", function (ev) {
    openAction(ev.detail.act, ev.detail.unit);
  });

  api.onResult(function (path, body, payload) {
    var outcome = payload.outcome || {};
    var head = (payload.events && payload.events[0]) || {};
    if (path === "commands/grenade/" && outcome.result && outcome.result.burst_steps && !body.burst_steps) {
      openBurst(head.seq, outcome.result.burst_steps);
    }
  });
})();
