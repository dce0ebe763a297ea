// The battle board on a phone: polls the server-rendered board with ETag (304 while nothing changed), sends
// every write with the version it was based on (If-Match) and an idempotency key, and shows each die rolled.
(function () {
  "use strict";
  var root = document.getElementById("battle");
  if (!root) return;
  var boardUrl = root.dataset.boardUrl;
  var apiUrl = root.dataset.apiUrl;
  var canWrite = root.dataset.canWrite === "true";
  var etag = root.dataset.etag;
  var board = document.getElementById("board");
  var statusLine = document.getElementById("sync-status");
  var resultBox = document.getElementById("result");
  var POLL_MS = 1000;
  var busy = false;
  var pending = null; // a write waiting for an answer: {url, body, key}

  function data() {
    var node = document.getElementById("battle-data");
    return node ? JSON.parse(node.textContent) : { units: [] };
  }

  function cookie(name) {
    var m = document.cookie.match("(^|;)\\s*" + name + "=([^;]*)");
    return m ? decodeURIComponent(m[2]) : "";
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  function setStatus(text, kind) {
    if (!statusLine) return;
    statusLine.textContent = text;
    statusLine.className = "sync " + (kind || "");
  }

  function swapBoard(html, newEtag) {
    var openDetails = Array.prototype.map.call(board.querySelectorAll("details[open][data-unit]"), function (d) {
      return d.dataset.unit;
    });
    var editing = Array.prototype.map.call(board.querySelectorAll("details.unit.editing"), function (d) {
      return d.dataset.unit;
    });
    var openBoxes = Array.prototype.map.call(board.querySelectorAll("details.unit details[open]"), function (d) {
      return d.closest("details.unit").dataset.unit + "|" + (d.className || "");
    });
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
    etag = newEtag;
    root.dataset.etag = etag;
    root.dataset.version = (etag || "").replace(/[^0-9]/g, "");
    document.dispatchEvent(new CustomEvent("battle:updated"));
  }

  function refresh() {
    return fetch(boardUrl, { headers: { "If-None-Match": etag }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.status === 304) {
          setStatus("In sync · v" + root.dataset.version, "ok");
          return;
        }
        if (!r.ok) throw new Error("HTTP " + r.status);
        var tag = r.headers.get("ETag");
        return r.text().then(function (html) {
          swapBoard(html, tag);
          setStatus("Updated · v" + root.dataset.version, "ok");
        });
      })
      .catch(function () {
        setStatus("Offline: retrying…", "warn");
      });
  }

  function poll() {
    if (!document.hidden && !busy) refresh();
    window.setTimeout(poll, POLL_MS);
  }

  function showResult(title, lines, dice, kind) {
    if (!resultBox) return;
    resultBox.hidden = false;
    resultBox.className = "result card " + (kind || "");
    resultBox.innerHTML = "";
    var h = document.createElement("strong");
    h.textContent = title;
    resultBox.appendChild(h);
    if (dice && dice.length) {
      var row = document.createElement("div");
      row.className = "dice";
      dice.forEach(function (d) {
        var s = document.createElement("span");
        s.className = "die";
        s.textContent = d.kind + ": " + d.value;
        s.title = d.purpose;
        var p = document.createElement("small");
        p.textContent = d.purpose;
        s.appendChild(p);
        row.appendChild(s);
      });
      resultBox.appendChild(row);
    }
    (lines || []).forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      resultBox.appendChild(p);
    });
    var close = document.createElement("button");
    close.type = "button";
    close.className = "small secondary";
    close.textContent = "OK";
    close.addEventListener("click", function () {
      resultBox.hidden = true;
    });
    resultBox.appendChild(close);
  }

  // Writes ------------------------------------------------------------------------------------------------
  function send(path, body) {
    if (!canWrite) return Promise.resolve();
    var write = pending && pending.path === path && JSON.stringify(pending.body) === JSON.stringify(body)
      ? pending
      : { path: path, body: body, key: newKey() };
    pending = write;
    busy = true;
    setStatus("Saving…", "");
    return fetch(apiUrl + path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": cookie("csrftoken"),
        "If-Match": etag,
        "Idempotency-Key": write.key,
      },
      body: JSON.stringify(body),
    })
      .then(function (r) {
        return r.json().then(function (payload) {
          return { status: r.status, payload: payload };
        });
      })
      .then(function (res) {
        pending = null;
        busy = false;
        var p = res.payload || {};
        if (res.status === 201) {
          var outcome = p.outcome || {};
          var lines = (p.events || []).map(function (e) {
            return e.text;
          });
          if (outcome.steps) lines = outcome.steps.concat(lines.slice(1));
          if (p.notices && p.notices.length) lines = lines.concat(p.notices);
          var head = (p.events && p.events[0]) || {};
          showResult(outcome.summary || head.text || "Done", lines, head.dice || [], "ok");
          if (body.action === "grenade" && outcome.result && outcome.result.burst_steps && !body.inputs.burst_steps) {
            openBurst(head.seq, outcome.result.burst_steps);
          }
        } else if (res.status === 412) {
          showResult("The battle changed on another phone", [p.detail || "Nothing was recorded. Check the board and try again."], [], "warn");
        } else {
          var errs = p.errors ? Object.keys(p.errors).map(function (k) { return k + ": " + p.errors[k]; }) : [];
          showResult(p.detail || "Refused", errs, [], "error");
        }
        return refresh();
      })
      .catch(function () {
        busy = false;
        setStatus("Not sent: no connection. Tap again to retry (it will not be recorded twice).", "warn");
      });
  }

  board.addEventListener("change", function (ev) {
    if (ev.target.matches("[data-edit-toggle]")) {
      ev.target.closest("details.unit").classList.toggle("editing", ev.target.checked);
    }
  });

  // Board buttons (event delegation: the board is replaced on every update) ------------------------------
  board.addEventListener("click", function (ev) {
    var btn = ev.target.closest("button");
    if (!btn || !canWrite) return;
    if (btn.dataset.undo) {
      send("undo", { seq: parseInt(btn.dataset.undo, 10) });
    } else if (btn.dataset.done) {
      send("done", { unit: btn.dataset.done });
    } else if (btn.dataset.adjust) {
      var change = JSON.parse(btn.dataset.adjust);
      send("adjust", { unit: btn.dataset.unit, changes: change });
    } else if (btn.dataset.command === "initiative") {
      send("initiative", {});
    } else if (btn.dataset.command === "round") {
      send("round", {});
    } else if (btn.dataset.command === "order") {
      var order = JSON.parse(btn.dataset.order);
      send("order", { order: order });
    } else if (btn.dataset.command === "mission") {
      if (window.confirm("Declare that " + btn.dataset.name + " completed the mission? The game ends.")) {
        send("mission", { side: parseInt(btn.dataset.side, 10) });
      }
    } else if (btn.dataset.act) {
      openAction(btn.dataset.act, btn.dataset.unit);
    }
  });

  // The action sheet: shot, melee, grenade, repair, capture --------------------------------------------------
  var sheet = document.getElementById("action-sheet");
  var form = document.getElementById("action-form");

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

  function refreshSheet() {
    var action = form.elements.action.value;
    var spec = (data().actions || {})[action] || {};
    var actor = unitByKey(form.elements.unit.value);
    var target = unitByKey(form.elements.target.value);
    var mode = data().mode;
    form.querySelectorAll("[data-for]").forEach(function (el) {
      var fors = el.dataset.for.split(" ");
      var hidden = fors.indexOf(action) < 0;
      if ("virtual" in el.dataset && mode !== "virtual") hidden = true;
      if ("real" in el.dataset && mode !== "real") hidden = true;
      if ("crew" in el.dataset && !(actor && actor.kind === "gun")) hidden = true;
      if ("aimed" in el.dataset && !(spec.aimed && actor && actor.kind === "squad")) hidden = true;
      el.hidden = hidden;
    });
    if (actor && actor.kind === "gun") fill(form.elements.crew, crewItems(), true);
    var actorSoldiers = soldierItems(actor, "alive");
    fill(form.elements.soldier, actorSoldiers, true);
    form.elements.soldier.closest(".field").hidden = !actorSoldiers.length || !spec.actor_soldier;
    var weapons = [];
    if (actor && actor.weapons) {
      var soldierNum = form.elements.soldier.value;
      weapons = actor.weapons
        .filter(function (w) { return !w.soldier || String(w.soldier) === soldierNum; })
        .map(function (w) { return { value: w.key, label: w.label }; });
    }
    fill(form.elements.weapon, weapons, true);
    var targetSoldiers = soldierItems(target, "alive");
    fill(form.elements.target_soldier, targetSoldiers, true);
    form.elements.target_soldier.closest(".field").hidden = !targetSoldiers.length || !spec.target_soldier;
  }

  function openAction(action, unitKey) {
    if (!sheet) return;
    var d = data();
    var mine = d.units.filter(function (u) { return u.mine && u.alive; });
    var others = d.units.filter(function (u) { return u.alive; });
    fill(form.elements.unit, mine.map(function (u) { return { value: u.key, label: u.label }; }));
    fill(form.elements.target, others.map(function (u) { return { value: u.key, label: u.label }; }));
    var actions = Object.keys(d.actions || {});
    fill(form.elements.action, actions.map(function (k) { return { value: k, label: d.actions[k].label }; }));
    if (action && actions.indexOf(action) >= 0) form.elements.action.value = action;
    if (unitKey) form.elements.unit.value = unitKey;
    var firstEnemy = others.filter(function (u) { return !u.mine; })[0];
    if (firstEnemy) form.elements.target.value = firstEnemy.key;
    form.elements.dice.value = "";
    refreshSheet();
    if (sheet.showModal) sheet.showModal();
    else sheet.setAttribute("open", "");
  }

  if (form) {
    form.addEventListener("change", function (ev) {
      if (["action", "unit", "target", "soldier"].indexOf(ev.target.name) >= 0) refreshSheet();
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (ev.submitter && ev.submitter.value === "cancel") {
        sheet.close();
        return;
      }
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
      var typed = f.dice.value.trim();
      var body = { action: action, inputs: inputs };
      if (typed) {
        body.dice = typed.split(/[\s,;]+/).filter(Boolean).map(function (x) { return parseInt(x, 10); });
      }
      sheet.close();
      send("actions", body);
    });
  }

  // The grenade's burst: the players say who is within 1 step of it, then the server rolls 1Д20 each.
  var burstSheet = document.getElementById("burst-sheet");
  var burstForm = document.getElementById("burst-form");

  function openBurst(seq, steps) {
    if (!burstSheet) return;
    burstForm.dataset.throw = seq;
    document.getElementById("burst-text").textContent =
      "The grenade burst " + steps + " step(s) from the thrower. Tick everything within 1 step of it (the thrower too).";
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
    burstForm.elements.dice.value = "";
    if (burstSheet.showModal) burstSheet.showModal();
    else burstSheet.setAttribute("open", "");
  }

  if (burstForm) {
    burstForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var victims = Array.prototype.map.call(burstForm.querySelectorAll("input[type=checkbox]:checked"), function (cb) {
        var parts = cb.value.split("|");
        return parts[1] ? { unit: parts[0], soldier: parseInt(parts[1], 10) } : { unit: parts[0] };
      });
      var body = { action: "grenade_burst", inputs: { throw: parseInt(burstForm.dataset.throw, 10), victims: victims } };
      var typed = burstForm.elements.dice.value.trim();
      if (typed) body.dice = typed.split(/[\s,;]+/).filter(Boolean).map(function (x) { return parseInt(x, 10); });
      burstSheet.close();
      send("actions", body);
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) refresh();
  });
  setStatus("In sync · v" + root.dataset.version, "ok");
  window.setTimeout(poll, POLL_MS);
})();
