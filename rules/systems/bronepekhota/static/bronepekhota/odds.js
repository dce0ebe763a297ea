// Odds page: reads the forms, asks the odds API, shows the chances and a bar chart. No build step.
(function () {
  "use strict";
  var API = "/api/v1/systems/bronepekhota/actions/";

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function num(form, name) {
    var value = form.elements[name].value.trim();
    return value === "" ? NaN : Number(value);
  }

  function checked(form, name) {
    return form.elements[name].checked;
  }

  // Numbers as the page's language writes them («58,3 %» in Russian).
  function number(x, digits) {
    var lang = document.documentElement.lang || undefined;
    return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
  }

  function percent(p) {
    if (p === 0) return "0 %";
    if (p === 1) return "100 %";
    var v = p * 100;
    var digits = v < 0.1 ? 3 : 1;
    return number(v, digits) + " %";
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function statRow(list, label, prob) {
    if (!prob) return;
    var row = el("div", { "class": "odds-stat" });
    row.appendChild(el("dt", {}, label));
    var dd = el("dd");
    dd.appendChild(el("strong", {}, prob.p !== undefined ? percent(prob.p) : number(prob.value, 2)));
    dd.appendChild(el("span", { "class": "muted exact" }, " " + prob.exact));
    row.appendChild(dd);
    list.appendChild(row);
  }

  function bars(container, title, dist) {
    if (!dist || !dist.length) return;
    var figure = el("figure", { "class": "odds-bars" });
    figure.appendChild(el("figcaption", {}, title));
    var max = Math.max.apply(null, dist.map(function (d) { return d.p; })) || 1;
    dist.forEach(function (d) {
      var row = el("div", { "class": "bar-row" });
      row.appendChild(el("span", { "class": "bar-label" }, String(d.value)));
      var track = el("span", { "class": "bar-track" });
      var bar = el("span", { "class": "bar", "title": d.exact });
      bar.style.width = Math.max(0.5, (d.p / max) * 100) + "%";
      track.appendChild(bar);
      row.appendChild(track);
      row.appendChild(el("span", { "class": "bar-value" }, percent(d.p)));
      figure.appendChild(row);
    });
    container.appendChild(figure);
  }

  function showErrors(container, body) {
    container.textContent = "";
    var box = el("div", { "class": "card odds-error", "role": "alert" });
    box.appendChild(el("strong", {}, gettext("Cannot compute:") + " "));
    box.appendChild(document.createTextNode(body.detail || gettext("the request has errors.")));
    container.appendChild(box);
  }

  function ask(action, inputs, settings, container, render) {
    container.classList.add("busy");
    return fetch(API + action + "/odds/", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), "Accept": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ inputs: inputs, settings: settings }),
    }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (answer) {
      container.classList.remove("busy");
      if (!answer.ok) { showErrors(container, answer.body); return; }
      container.textContent = "";
      render(container, answer.body.odds);
    }).catch(function () {
      container.classList.remove("busy");
      showErrors(container, { detail: gettext("the server could not be reached. Try again.") });
    });
  }

  function statList(container) {
    var list = el("dl", { "class": "odds-stats card" });
    container.appendChild(list);
    return list;
  }

  // Shot ---------------------------------------------------------------------------------------------
  function shotInputs(form) {
    var kind = form.elements.target_kind.value;
    var target = { kind: kind };
    if (kind === "infantry") target.armour = num(form, "armour");
    else target.strength = num(form, "armour");
    if (kind === "vehicle") {
      target.pilot = checked(form, "no_pilot") ? null : { armour: num(form, "pilot_armour") };
      target.flying = checked(form, "flying");
    }
    var shooterKind = form.elements.shooter_kind.value;
    var shooter = { kind: shooterKind };
    if (shooterKind !== "infantry") { shooter.rof = 10; shooter.ammo = null; }
    if (shooterKind === "gun") shooter.crew_rank = 10;
    if (shooterKind === "infantry" && checked(form, "aimed")) shooter.aimed = true;
    return {
      inputs: {
        shooter: shooter,
        weapon: { range: form.elements.range.value, power: form.elements.power.value },
        distance_cm: num(form, "distance_cm"),
        target: target,
        cover: form.elements.cover.value,
      },
      settings: { aimed_fire: checked(form, "aimed"), panic: checked(form, "panic") },
    };
  }

  function renderShot(container, odds) {
    var list = statList(container);
    var infantry = !odds.strength_loss;
    // A line of text, not a dt/dd pair: it goes before the <dl>, where it is valid HTML (axe definition-list).
    container.insertBefore(el("p", { "class": "odds-stat muted" }, interpolate(gettext("Distance %(steps)s steps · armour %(armour)s · ammo %(ammo)s"), { steps: odds.steps, armour: odds.armour, ammo: odds.ammo_cost }, true)), list);
    statRow(list, gettext("Hit"), odds.p_hit);
    statRow(list, gettext("Any damage"), odds.p_damage);
    statRow(list, infantry ? gettext("Target killed") : gettext("Target destroyed"), odds.p_destroyed);
    if (!infantry) statRow(list, gettext("Pilot killed"), odds.p_pilot_killed);
    if (odds.p_panic && odds.p_panic.p > 0) statRow(list, gettext("Panic"), odds.p_panic);
    statRow(list, gettext("Expected damage"), odds.expected_damage);
    bars(container, gettext("Damage from the power dice"), odds.damage);
    if (!infantry) bars(container, gettext("Strength lost (with an emergency landing)"), odds.strength_loss);
  }

  // Melee --------------------------------------------------------------------------------------------
  function meleeInputs(form) {
    var attackerKind = form.elements.attacker_kind.value;
    var attacker = { kind: attackerKind, melee: num(form, "attacker_melee") };
    if (attackerKind === "vehicle") { attacker.strength = num(form, "attacker_strength"); attacker.pilot = { armour: 3 }; }
    var defenderKind = form.elements.defender_kind.value;
    var defender = { kind: defenderKind };
    if (defenderKind === "infantry") defender.armour = num(form, "defender_armour");
    else defender.strength = num(form, "defender_armour");
    if (defenderKind === "vehicle") {
      defender.melee = num(form, "defender_melee");
      defender.pilot = checked(form, "defender_no_pilot") ? null : { armour: num(form, "defender_pilot") };
    }
    return {
      inputs: { attacker: attacker, defender: defender, surprise: checked(form, "surprise") },
      settings: { panic: checked(form, "panic") },
    };
  }

  function renderMelee(container, odds) {
    var list = statList(container);
    statRow(list, gettext("Attacker wins"), odds.p_attacker_wins);
    statRow(list, gettext("Repelled"), odds.p_repelled);
    statRow(list, gettext("Defender destroyed"), odds.p_defender_destroyed);
    if (odds.damage) statRow(list, gettext("Pilot killed"), odds.p_pilot_killed);
    if (odds.p_panic && odds.p_panic.p > 0) statRow(list, gettext("Panic"), odds.p_panic);
    if (odds.expected_damage) statRow(list, gettext("Expected damage"), odds.expected_damage);
    if (odds.damage) bars(container, gettext("Damage (attack − defence)"), odds.damage);
    else bars(container, gettext("Attack − defence"), odds.margin);
  }

  // Survival -----------------------------------------------------------------------------------------
  function survivalInputs(form) {
    return {
      inputs: { subject: { armour: num(form, "armour") }, die: Number(form.elements.die.value) },
      settings: { panic: checked(form, "panic") },
    };
  }

  function renderSurvival(container, odds) {
    var list = statList(container);
    statRow(list, gettext("Survives"), odds.p_survived);
    if (odds.p_panic.p > 0) statRow(list, gettext("…of which panics"), odds.p_panic);
    statRow(list, gettext("Killed"), odds.p_killed);
    bars(container, gettext("Outcome"), odds.outcomes);
  }

  // Wiring -------------------------------------------------------------------------------------------
  function wire(formId, resultId, build, render) {
    var form = document.getElementById(formId);
    var result = document.getElementById(resultId);
    var timer = null;
    function run() {
      var request = build(form);
      ask(form.dataset.action, request.inputs, request.settings, result, render);
    }
    form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
    form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 300); });
    form.addEventListener("change", function () { clearTimeout(timer); timer = setTimeout(run, 150); });
    return run;
  }

  function toggle(selector, show) {
    document.querySelectorAll(selector).forEach(function (node) { node.hidden = !show; });
  }

  function syncShotTarget() {
    var form = document.getElementById("shot-form");
    var kind = form.elements.target_kind.value;
    toggle("#shot-form .vehicle-only", kind === "vehicle");
    document.getElementById("shot-armour-label").textContent = kind === "infantry" ? gettext("Armour (Arm)") : gettext("Strength (Armour)");
    form.elements.aimed.disabled = form.elements.shooter_kind.value !== "infantry";
    if (form.elements.aimed.disabled) form.elements.aimed.checked = false;
  }

  function syncMelee() {
    var form = document.getElementById("melee-form");
    toggle("#melee-form .attacker-vehicle", form.elements.attacker_kind.value === "vehicle");
    var kind = form.elements.defender_kind.value;
    toggle("#melee-form .defender-vehicle", kind === "vehicle");
    document.getElementById("melee-defender-armour-label").textContent = kind === "infantry" ? gettext("Armour (Arm)") : gettext("Strength (Armour)");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var runShot = wire("shot-form", "shot-result", shotInputs, renderShot);
    var runMelee = wire("melee-form", "melee-result", meleeInputs, renderMelee);
    var runSurvival = wire("survival-form", "survival-result", survivalInputs, renderSurvival);
    var shotForm = document.getElementById("shot-form");
    var meleeForm = document.getElementById("melee-form");

    document.getElementById("shot-weapon").addEventListener("change", function (event) {
      var option = event.target.selectedOptions[0];
      if (!option || !option.value) return;
      shotForm.elements.range.value = option.dataset.range;
      shotForm.elements.power.value = option.dataset.power;
      shotForm.elements.shooter_kind.value = option.dataset.shooter;
      syncShotTarget();
    });
    document.getElementById("shot-target-preset").addEventListener("change", function (event) {
      var option = event.target.selectedOptions[0];
      if (!option || !option.value) return;
      shotForm.elements.target_kind.value = option.dataset.kind;
      shotForm.elements.armour.value = option.dataset.kind === "infantry" ? option.dataset.armour : option.dataset.strength;
      syncShotTarget();
    });
    shotForm.elements.target_kind.addEventListener("change", syncShotTarget);
    shotForm.elements.shooter_kind.addEventListener("change", syncShotTarget);
    document.querySelectorAll(".melee-preset").forEach(function (select) {
      select.addEventListener("change", function () {
        var option = select.selectedOptions[0];
        if (!option || !option.value) return;
        var d = option.dataset;
        if (select.dataset.side === "attacker") {
          meleeForm.elements.attacker_kind.value = d.kind;
          meleeForm.elements.attacker_melee.value = d.melee || 0;
          if (d.kind === "vehicle") meleeForm.elements.attacker_strength.value = d.strength;
        } else {
          meleeForm.elements.defender_kind.value = d.kind;
          meleeForm.elements.defender_armour.value = d.kind === "infantry" ? d.armour : d.strength;
          if (d.kind === "vehicle") meleeForm.elements.defender_melee.value = d.melee || 0;
        }
        syncMelee();
      });
    });
    meleeForm.elements.attacker_kind.addEventListener("change", syncMelee);
    meleeForm.elements.defender_kind.addEventListener("change", syncMelee);

    var runners = { shot: runShot, melee: runMelee, survival: runSurvival };
    var shown = { shot: true };
    document.querySelectorAll(".odds-tabs [data-tab]").forEach(function (button) {
      button.addEventListener("click", function () {
        var tab = button.dataset.tab;
        document.querySelectorAll(".odds-tabs [data-tab]").forEach(function (other) {
          var active = other === button;
          other.setAttribute("aria-selected", active ? "true" : "false");
          other.classList.toggle("secondary", !active);
          document.getElementById("tab-" + other.dataset.tab).hidden = !active;
        });
        if (!shown[tab]) { shown[tab] = true; runners[tab](); }
      });
    });
    syncShotTarget();
    syncMelee();
    runShot();
  });
})();
