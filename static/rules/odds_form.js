// The odds page of a system without a page of its own: a form drawn from each action's JSON Schema, sent to the
// odds API. Objects become fieldsets, enums selects, booleans checkboxes, numbers and text inputs; lists are typed
// as JSON.
(function () {
  "use strict";
  var app = document.getElementById("odds-app");
  if (!app) return;
  var actions = JSON.parse(document.getElementById("odds-schema").textContent);
  var picker = document.getElementById("odds-action");
  var form = document.getElementById("odds-form");
  var result = document.getElementById("odds-result");

  function field(name, schema, path, required) {
    var id = "f-" + path.join("-");
    var wrap = document.createElement("div");
    wrap.className = "field";
    if (schema.type === "object" && schema.properties) {
      var set = document.createElement("fieldset");
      var legend = document.createElement("legend");
      legend.textContent = schema.title || name;
      set.appendChild(legend);
      Object.keys(schema.properties).forEach(function (key) {
        set.appendChild(field(key, schema.properties[key], path.concat(key), (schema.required || []).indexOf(key) >= 0));
      });
      return set;
    }
    var label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = (schema.title || name) + (required ? "" : " " + gettext("(optional)"));
    var input;
    if (schema.enum) {
      input = document.createElement("select");
      if (!required) input.appendChild(new Option("—", ""));
      var names = schema["x-labels"] || {}; // a system may name an enum's values (as in the jobs form)
      schema.enum.forEach(function (v) { input.appendChild(new Option(names[v] || String(v), JSON.stringify(v))); });
      input.dataset.kind = "enum";
    } else if (schema.type === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.dataset.kind = "boolean";
    } else if (schema.type === "integer" || schema.type === "number") {
      input = document.createElement("input");
      input.type = "number";
      input.inputMode = "decimal";
      if (schema.minimum !== undefined) input.min = schema.minimum;
      if (schema.maximum !== undefined) input.max = schema.maximum;
      input.dataset.kind = "number";
    } else if (schema.type === "string") {
      input = document.createElement("input");
      input.dataset.kind = "string";
    } else {
      input = document.createElement("textarea");
      input.rows = 2;
      input.placeholder = "JSON";
      input.dataset.kind = "json";
    }
    if (schema.default !== undefined && input.type !== "checkbox") input.value = schema.enum ? JSON.stringify(schema.default) : schema.default;
    // A JSON field's default (a list of names) as JSON: typed in as plain text it would be sent back as a string.
    if (input.dataset.kind === "json" && schema.default !== undefined && schema.default !== null) input.value = JSON.stringify(schema.default);
    if (schema.default === true && input.type === "checkbox") input.checked = true;
    input.id = id;
    input.dataset.path = JSON.stringify(path);
    wrap.appendChild(label);
    wrap.appendChild(input);
    if (schema.description) {
      var help = document.createElement("div");
      help.className = "helptext";
      help.textContent = schema.description;
      wrap.appendChild(help);
    }
    return wrap;
  }

  function current() {
    return actions.filter(function (a) { return a.key === picker.value; })[0];
  }

  function draw() {
    var action = current();
    form.innerHTML = "";
    result.hidden = true;
    if (!action) return;
    document.getElementById("odds-help").textContent = action.description || "";
    var schema = action.input_schema || {};
    Object.keys(schema.properties || {}).forEach(function (key) {
      form.appendChild(field(key, schema.properties[key], [key], (schema.required || []).indexOf(key) >= 0));
    });
  }

  function inputs() {
    var out = {};
    form.querySelectorAll("[data-path]").forEach(function (el) {
      var path = JSON.parse(el.dataset.path);
      var value;
      if (el.dataset.kind === "boolean") value = el.checked;
      else if (el.value === "") return;
      else if (el.dataset.kind === "number") value = Number(el.value);
      else if (el.dataset.kind === "enum") value = JSON.parse(el.value);
      else if (el.dataset.kind === "json") {
        try { value = JSON.parse(el.value); } catch (e) { value = el.value; }
      } else value = el.value;
      var node = out;
      path.slice(0, -1).forEach(function (p) { node = node[p] = node[p] || {}; });
      node[path[path.length - 1]] = value;
    });
    return out;
  }

  function show(lines, kind) {
    result.hidden = false;
    result.className = "card " + (kind || "");
    result.innerHTML = "";
    lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      result.appendChild(p);
    });
  }

  // Probabilities as the page's language writes them («12,50 %» in Russian).
  var lang = document.documentElement.lang || undefined;
  function percent(p, digits) {
    return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(p * 100) + " %";
  }
  function decimal(x, digits) {
    return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
  }

  // A result key in words: the action's declared label (translated by the server), else "p_hit" → "hit".
  function label(key) {
    var labels = (current() || {}).result_labels || {};
    return labels[key] || key.replace(/^p_/, "").replace(/_/g, " ");
  }

  // A value of a distribution in words ("seriously_wounded" → «Тяжелоранен»), when the action names its codes.
  function valueLabel(key, value) {
    if (value && typeof value === "object") {
      // A joint outcome ({"removed": 2, "markers": 1}): each part named as a result of its own.
      return "(" + Object.keys(value).map(function (k) { return label(k) + ": " + valueLabel(k, value[k]); }).join("; ") + ")";
    }
    var labels = ((current() || {}).value_labels || {})[key] || {};
    return labels[value] !== undefined ? labels[value] : value;
  }

  function describe(odds, nested) {
    var lines = [];
    Object.keys(odds).forEach(function (key) {
      var v = odds[key];
      if (v && typeof v === "object" && "p" in v) lines.push(label(key) + ": " + percent(v.p, 2) + " (" + v.exact + ")");
      else if (v && typeof v === "object" && "value" in v && "exact" in v) lines.push(label(key) + ": " + decimal(v.value, 3));
      else if (Array.isArray(v) && v.length && v[0].p !== undefined) {
        lines.push(label(key) + ": " + v.map(function (x) { return valueLabel(key, x.value) + " → " + percent(x.p, 1); }).join(", "));
      } else if (v && typeof v === "object" && Object.keys(v).length && Object.keys(v).every(function (k) {
        return v[k] && typeof v[k] === "object" && "p" in v[k];
      })) {
        // A chance per case (a player, a role, a damage result): each case named, as the action names its codes.
        lines.push(label(key) + ": " + Object.keys(v).map(function (k) { return valueLabel(key, k) + " → " + percent(v[k].p, 1); }).join(", "));
      } else if (!nested && v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length && Object.keys(v).every(function (k) {
        return v[k] && typeof v[k] === "object" && !Array.isArray(v[k]);
      })) {
        // Odds per case (each unit of a melee): the case's own lines, under its name.
        Object.keys(v).forEach(function (k) {
          describe(v[k], true).forEach(function (line) { lines.push(valueLabel(key, k) + " — " + line); });
        });
      }
    });
    return lines.length || nested ? lines : [JSON.stringify(odds)];
  }

  var asked = 0;  // the answer drawn is the last question's: an earlier one arriving late is dropped
  document.getElementById("odds-go").addEventListener("click", function () {
    var action = current();
    var question = ++asked;
    fetch(app.dataset.api + action.key + "/odds/", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "" },
      credentials: "same-origin",
      body: JSON.stringify({ inputs: inputs() }),
    })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        if (question !== asked) return;
        if (res.ok) show(describe(res.body.odds || res.body), "ok");
        else show([res.body.detail || gettext("Refused")].concat(Object.keys(res.body.errors || {}).map(function (k) {
          return k + ": " + res.body.errors[k];
        })), "error");
      })
      .catch(function () { if (question === asked) show([gettext("No connection: try again.")], "warn"); });
  });
  picker.addEventListener("change", draw);
  draw();
})();
