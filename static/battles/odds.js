// The odds at the moment of the roll (issue #31): a command's form marked data-odds shows, as the player fills it,
// the exact chances of its roll for this battle's units, state and settings (POST …/commands/<name>/odds, answered
// by the system's own odds; battles/odds.py). While an input is missing or refused the form shows no odds and says
// why. "Compare the choices" ranks the values of a field (targets, weapons) by the headline chance. After the roll,
// the result box says where the outcome fell in the distribution the form showed ("a 12 % result"). A system's
// sheet outside the board (a <dialog> in #battle) takes part the same way while it is open.
(function () {
  "use strict";
  var root = document.getElementById("battle");
  if (!root || root.dataset.canWrite !== "true") return;
  var apiUrl = root.dataset.apiUrl;
  var board = document.getElementById("board");
  var lang = document.documentElement.lang || undefined;
  var DEBOUNCE_MS = 120;
  var timers = {};
  var asked = {}; // form → the number of the last request, so an older answer never overwrites a newer one
  var shown = {}; // form → the odds the form shows now: {command, inputs, answer}
  var tapped = {}; // command → what its form showed when it was sent: the roll is placed in these odds

  // A form by its command and its question: two units acting at one initiative have a form each, of one command.
  function keyOf(form) {
    return form.dataset.orderCommand + "|" + (form.getAttribute("aria-label") || "");
  }
  function formOf(key) {
    return Array.prototype.find.call(root.querySelectorAll("form[data-order-command][data-odds]"), function (f) {
      return keyOf(f) === key;
    });
  }

  function cookie(name) {
    var m = document.cookie.match("(^|;)\\s*" + name + "=([^;]*)");
    return m ? decodeURIComponent(m[2]) : "";
  }
  function percent(p) {
    var digits = p > 0 && p < 0.01 ? 2 : 1;
    return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(p * 100) + " %";
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The dice typed in from the table ("dice" boxes of a prompt, "die" boxes of static/battles/dice_boxes.js) are the
  // roll itself, not a question of the odds.
  function isDie(field) {
    return field.name === "dice" || field.name === "die";
  }

  // A system's own sheet (outside the board, e.g. «Бронепехота»'s action sheet) builds its command's inputs
  // itself: `form.oddsInputs(comparing)` answers them (`comparing`: the field a "which …?" view varies, if any).
  function inputsOf(form, comparing) {
    if (typeof form.oddsInputs === "function") return form.oddsInputs(comparing);
    var inputs = {};
    Array.prototype.forEach.call(form.elements, function (e) {
      if (!e.name || e.value === "" || isDie(e)) return;
      if ((e.type === "checkbox" || e.type === "radio") && !e.checked) return;
      inputs[e.name] = e.type === "number" ? Number(e.value) : e.value;
    });
    return inputs;
  }

  function ask(form, body) {
    var name = form.dataset.orderCommand;
    return fetch(apiUrl + "commands/" + encodeURIComponent(name) + "/odds", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": cookie("csrftoken") },
      body: JSON.stringify(body),
    }).then(function (r) {
      return r.json().then(function (payload) {
        return { ok: r.ok, status: r.status, payload: payload };
      });
    });
  }

  function label(answer, key) {
    return (answer.result_labels || {})[key] || key.replace(/^p_/, "").replace(/_/g, " ");
  }
  function valueLabel(answer, key, value) {
    if (value && typeof value === "object") {
      // A joint outcome ({"removed": 2, "markers": 1}): each part named as a result of its own.
      return Object.keys(value).map(function (k) {
        return label(answer, k) + ": " + valueLabel(answer, k, value[k] === null ? "null" : value[k]);
      }).join("; ");
    }
    var names = (answer.value_labels || {})[key] || {};
    return names[value] !== undefined ? names[value] : String(value);
  }

  // A distribution of more than two outcomes as bars; a chance as one line.
  function draw(box, answer) {
    box.innerHTML = "";
    box.className = "odds-live";
    drawOdds(box, answer, answer.odds || {}, false);
  }

  function drawOdds(box, answer, odds, nested) {
    if (answer.headline && !nested) {
      var head = el("p", "odds-headline");
      head.appendChild(el("strong", "", percent(answer.headline.p)));
      head.appendChild(document.createTextNode(" " + (answer.headline.label || label(answer, answer.headline.key))));
      box.appendChild(head);
    }
    Object.keys(odds).forEach(function (key) {
      if (answer.headline && key === answer.headline.key) return;
      var v = odds[key];
      if (v && typeof v === "object" && "p" in v && "exact" in v) {
        box.appendChild(el("p", "odds-line", label(answer, key) + ": " + percent(v.p)));
      } else if (Array.isArray(v) && v.length && v[0] && v[0].p !== undefined) {
        box.appendChild(bars(label(answer, key), v.map(function (x) {
          return { name: valueLabel(answer, key, x.value), p: x.p };
        })));
      } else if (v && typeof v === "object" && Object.keys(v).length && Object.keys(v).every(function (k) {
        return v[k] && typeof v[k] === "object" && "p" in v[k];
      })) {
        box.appendChild(bars(label(answer, key), Object.keys(v).map(function (k) {
          return { name: valueLabel(answer, key, k), p: v[k].p };
        })));
      } else if (!nested && v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length && Object.keys(v).every(function (k) {
        return v[k] && typeof v[k] === "object" && !Array.isArray(v[k]) && !("p" in v[k]);
      })) {
        // Odds per case (each unit of a melee): the case's own odds, under its name.
        Object.keys(v).forEach(function (k) {
          var part = el("div", "odds-case");
          part.appendChild(el("p", "odds-title", valueLabel(answer, key, k)));
          drawOdds(part, answer, v[k], true);
          box.appendChild(part);
        });
      }
    });
  }

  function bars(title, items) {
    var wrap = el("div", "odds-dist");
    wrap.appendChild(el("p", "odds-title", title));
    if (items.length <= 2) {
      wrap.appendChild(el("p", "odds-line", items.map(function (i) { return i.name + ": " + percent(i.p); }).join(" · ")));
      return wrap;
    }
    var list = el("ul", "odds-bars plain");
    items.forEach(function (i) {
      var row = el("li");
      row.appendChild(el("span", "odds-name", i.name));
      var bar = el("span", "odds-bar");
      var fill = el("span", "odds-fill");
      fill.style.width = Math.max(1, Math.round(i.p * 100)) + "%";
      bar.appendChild(fill);
      row.appendChild(bar);
      row.appendChild(el("span", "odds-p", percent(i.p)));
      list.appendChild(row);
    });
    wrap.appendChild(list);
    return wrap;
  }

  function refusal(box, payload) {
    box.innerHTML = "";
    box.className = "odds-live odds-missing";
    var errors = payload && payload.errors ? Object.keys(payload.errors).map(function (k) { return String(payload.errors[k]); }) : [];
    box.appendChild(el("p", "", errors[0] || (payload && payload.detail) || gettext("No odds for these inputs.")));
  }

  function update(form) {
    var key = keyOf(form);
    var box = form.querySelector(".odds-live");
    if (!box) return;
    var inputs = inputsOf(form);
    var n = (asked[key] || 0) + 1;
    asked[key] = n;
    ask(form, inputs).then(function (res) {
      if (asked[key] !== n) return;
      var again = formOf(key);
      var now = (again && again.querySelector(".odds-live")) || box;
      if (res.ok) {
        shown[key] = { command: form.dataset.orderCommand, inputs: inputs, answer: res.payload };
        draw(now, res.payload);
      } else {
        delete shown[key];
        refusal(now, res.payload);
      }
    }).catch(function () {
      box.className = "odds-live odds-missing";
      box.textContent = gettext("No connection: the odds will show when it returns.");
    });
  }

  function later(form) {
    var key = keyOf(form);
    window.clearTimeout(timers[key]);
    timers[key] = window.setTimeout(function () { update(form); }, DEBOUNCE_MS);
  }

  function oddsForm(target) {
    var form = target && target.closest && target.closest("form[data-order-command]");
    return form && form.dataset.odds !== undefined ? form : null;
  }

  root.addEventListener("input", function (ev) {
    var form = oddsForm(ev.target);
    if (form && !isDie(ev.target)) later(form);
  });
  root.addEventListener("change", function (ev) {
    var form = oddsForm(ev.target);
    if (form && !isDie(ev.target)) later(form);
  });

  // "Which target?" / "which weapon?": every choice of the field, ranked by the headline chance.
  root.addEventListener("click", function (ev) {
    var btn = ev.target.closest("button[data-compare]");
    var form = btn && oddsForm(btn);
    if (!form) return;
    var field = btn.dataset.compare;
    var select = form.querySelector('[name="' + CSS.escape(field) + '"]');
    var out = form.querySelector(".odds-compare");
    if (!select || !out) return;
    var values = Array.prototype.map.call(select.options || [], function (o) { return o.value; }).filter(Boolean);
    var names = {};
    Array.prototype.forEach.call(select.options || [], function (o) { names[o.value] = o.textContent; });
    var body = inputsOf(form, field);
    body.compare = { field: field, values: values };
    out.hidden = false;
    out.textContent = gettext("Counting…");
    ask(form, body).then(function (res) {
      out.innerHTML = "";
      if (!res.ok) {
        refusal(out, res.payload);
        return;
      }
      var head = res.payload.headline;
      out.appendChild(el("p", "odds-title", head ? interpolate(gettext("By the chance: %s"), [head.label || label(res.payload, head.key)]) : gettext("By the chance")));
      var list = el("ol", "odds-ranking");
      (res.payload.ranking || []).forEach(function (row) {
        var item = el("li");
        var pick = el("button", "secondary small", names[row.value] || String(row.value));
        pick.type = "button";
        pick.dataset.pick = field;
        pick.dataset.value = row.value;
        item.appendChild(pick);
        item.appendChild(el("span", row.p === null ? "muted" : "odds-p", row.p === null ? " " + (row.why || "") : " " + percent(row.p)));
        list.appendChild(item);
      });
      out.appendChild(list);
    });
  });
  // Choosing from the ranking fills the field, and the odds follow.
  root.addEventListener("click", function (ev) {
    var btn = ev.target.closest("button[data-pick]");
    var form = btn && oddsForm(btn);
    if (!form) return;
    var select = form.querySelector('[name="' + CSS.escape(btn.dataset.pick) + '"]');
    if (!select) return;
    select.value = btn.dataset.value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // A redrawn board has new forms: show their odds again. Only a form the player can see asks (a board may hold a
  // form per card, folded away); one in a closed fold or card asks when it is opened.
  function showOdds(within) {
    within.querySelectorAll("form[data-order-command][data-odds]").forEach(function (form) {
      if (!form.closest("details:not([open])") && !form.closest("dialog:not([open])")) update(form);
    });
  }
  document.addEventListener("battle:updated", function () { showOdds(root); }); // the board and an open sheet
  board.addEventListener("toggle", function (ev) {
    if (ev.target.open) showOdds(ev.target);
  }, true); // "toggle" does not bubble
  showOdds(root);

  // The odds a form shows when it is sent are kept, and the roll is placed in them: the form may ask again before
  // the roll's answer comes back (a field changed, a redraw), and that answer, on the battle after the roll, is a
  // refusal ("this unit has acted"). Kept only if they are the odds of what the form sends (no question of newer
  // inputs on its way). Capture: a system's own submit handler may stop the event (static/battles/dice_boxes.js).
  document.addEventListener("submit", function (ev) {
    var form = oddsForm(ev.target);
    if (!form) return;
    var now = shown[keyOf(form)];
    var current = now && JSON.stringify(now.inputs) === JSON.stringify(inputsOf(form));
    tapped[form.dataset.orderCommand] = current ? now : null;
  }, true);

  // After the roll: where the outcome fell in the distribution the form showed before the dice.
  document.addEventListener("battle:result", function (ev) {
    var detail = ev.detail || {};
    var match = /^commands\/([^/]+)\/$/.exec(detail.path || "");
    if (!match) return;
    var before = tapped[match[1]];
    delete tapped[match[1]];
    var outcome = (detail.payload || {}).outcome || {};
    if (!before || !before.answer.place || !outcome.result) return;
    var dist = (before.answer.odds || {})[before.answer.place[0]];
    var value = outcome.result[before.answer.place[1]];
    if (!Array.isArray(dist) || typeof value !== "number") return;
    var atMost = 0;
    dist.forEach(function (x) { if (typeof x.value === "number" && x.value <= value) atMost += x.p; });
    var box = document.getElementById("result");
    if (!box) return;
    var p = percent(atMost);
    var line = el("p", "odds-percentile", interpolate(gettext("A %s result: %s of rolls fall this low or lower."), [p, p]));
    line.dataset.testid = "percentile";
    var body = box.querySelector(".result-body") || box;
    body.appendChild(line);
  });
})();
