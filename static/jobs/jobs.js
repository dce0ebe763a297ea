// Balance job page: live progress (polls the JSON status endpoint), cancel, and the result charts (inline SVG).
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";

  function svgEl(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function text(parent, x, y, value, attrs) {
    var t = svgEl("text", Object.assign({ x: x, y: y }, attrs || {}), parent);
    t.textContent = value;
    return t;
  }
  // Numbers as the reader's language writes them («31,5 %» in Russian).
  var LANG = document.documentElement.lang || undefined;
  function num(x, digits) { return Number(x).toLocaleString(LANG, { minimumFractionDigits: digits, maximumFractionDigits: digits }); }
  function pct(p) { return num(100 * p, 1) + " %"; }
  function csrfToken() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function duration(seconds) {
    if (seconds === null || seconds === undefined) return "estimating time left…";
    if (seconds < 1) return gettext("almost done");
    var s = Math.round(seconds);
    if (s < 60) return interpolate(gettext("about %s s left"), [s]);
    var m = Math.floor(s / 60);
    if (m < 60) return interpolate(gettext("about %(m)s min %(s)s s left"), { m: m, s: s % 60 }, true);
    return interpolate(gettext("about %(h)s h %(m)s min left"), { h: Math.floor(m / 60), m: m % 60 }, true);
  }

  // Progress -------------------------------------------------------------------------------------------------
  var card = document.getElementById("progress-card");
  if (card) {
    var statusUrl = card.dataset.statusUrl;
    var cancelUrl = card.dataset.cancelUrl;
    var fill = card.querySelector(".bar-fill");
    var bar = card.querySelector(".bar");
    var badge = document.getElementById("status-badge");
    var count = document.getElementById("progress-count");
    var eta = document.getElementById("progress-eta");
    var errorBox = document.getElementById("progress-error");
    var cancelButton = document.getElementById("cancel-job");
    var finished = card.dataset.finished === "1";
    var delay = 1000;

    var show = function (p) {
      var percent = Math.round(1000 * p.progress) / 10;
      fill.style.width = percent + "%";
      bar.setAttribute("aria-valuenow", String(Math.round(percent)));
      badge.textContent = p.status.charAt(0).toUpperCase() + p.status.slice(1);
      badge.className = "badge status-" + p.status;
      count.textContent = p.battles_done + " of " + p.total_battles + " battles · " + p.chunks_done + "/" + p.chunk_count + " chunks";
      eta.textContent = p.finished ? "" : " · " + duration(p.eta_seconds);
      if (p.finished && cancelButton) cancelButton.hidden = true;
    };
    var poll = function () {
      fetch(statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error(interpolate(gettext("The server answered %s."), [r.status]));
          return r.json();
        })
        .then(function (p) {
          errorBox.hidden = true;
          delay = 1000;
          show(p);
          if (p.finished) { window.location.reload(); return; }
          window.setTimeout(poll, delay);
        })
        .catch(function (e) {
          errorBox.textContent = interpolate(gettext("Could not read the progress (%s); retrying."), [e.message]);
          errorBox.hidden = false;
          delay = Math.min(delay * 2, 15000);
          window.setTimeout(poll, delay);
        });
    };
    if (!finished) {
      eta.textContent = " · " + duration(null);
      window.setTimeout(poll, 500);
    }
    if (cancelButton) {
      cancelButton.addEventListener("click", function () {
        if (!window.confirm(gettext("Cancel this job? Chunks not yet done are dropped."))) return;
        cancelButton.disabled = true;
        fetch(cancelUrl, {
          method: "POST",
          headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
          credentials: "same-origin",
        })
          .then(function (r) {
            return r.json().then(function (body) { return { ok: r.ok, body: body }; });
          })
          .then(function (res) {
            if (!res.ok) throw new Error(res.body.detail || gettext("The job could not be cancelled."));
            show(res.body);
            window.location.reload();
          })
          .catch(function (e) {
            errorBox.textContent = e.message;
            errorBox.hidden = false;
            cancelButton.disabled = false;
          });
      });
    }
  }

  // Charts ---------------------------------------------------------------------------------------------------
  var dataNode = document.getElementById("chart-data");
  if (!dataNode) return;
  var data = JSON.parse(dataNode.textContent);
  if (!data.result) return;

  function outcomes(node, r, sides) {
    var rows = [
      [gettext("A wins") + (sides[0] ? " · " + sides[0] : ""), r.win_a, "bar-a"],
      [gettext("Draw"), r.draw, "bar-draw"],
      [gettext("B wins") + (sides[1] ? " · " + sides[1] : ""), r.win_b, "bar-b"],
    ];
    var W = 360, rowH = 34, left = 4, width = W - 70;
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + (rows.length * rowH + 6), role: "img",
      "aria-label": gettext("Chances of each outcome with 95 % intervals") }, node);
    rows.forEach(function (row, i) {
      var y = 4 + i * rowH, p = row[1];
      text(svg, left, y + 10, row[0], { class: "muted-text" });
      svgEl("rect", { x: left, y: y + 14, width: Math.max(1, width * p.p), height: 12, class: row[2] }, svg);
      svgEl("line", { x1: left + width * p.low, x2: left + width * p.high, y1: y + 20, y2: y + 20, class: "whisker" }, svg);
      text(svg, left + width + 6, y + 24, pct(p.p));
    });
  }

  function bars(node, series, labels, label) {
    // series: [{values: [...], cls: "bar-a", name: "A"}]; grouped vertical bars with a label per group.
    var n = labels.length, groups = series.length;
    var W = 360, H = 150, bottom = 26, top = 14, left = 4;
    var max = 1;
    series.forEach(function (s) { s.values.forEach(function (v) { max = Math.max(max, v); }); });
    var slot = (W - left) / n, bw = Math.max(2, (slot - 4) / groups);
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": label }, node);
    svgEl("line", { x1: left, x2: W, y1: H - bottom, y2: H - bottom, class: "axis" }, svg);
    labels.forEach(function (lab, i) {
      var x0 = left + i * slot + 2;
      series.forEach(function (s, g) {
        var v = s.values[i] || 0, h = (H - bottom - top) * v / max;
        var rect = svgEl("rect", { x: x0 + g * bw, y: H - bottom - h, width: bw - 1, height: Math.max(0, h), class: s.cls }, svg);
        var title = svgEl("title", {}, rect);
        title.textContent = (s.name ? s.name + ", " : "") + lab + ": " + v;
      });
      if (n <= 12 || i % Math.ceil(n / 12) === 0) text(svg, x0 + slot / 2 - 2, H - bottom + 14, lab, { "text-anchor": "middle" });
    });
    if (groups > 1) {
      series.forEach(function (s, g) {
        svgEl("rect", { x: W - 120 + g * 60, y: 2, width: 10, height: 10, class: s.cls }, svg);
        text(svg, W - 106 + g * 60, 11, s.name);
      });
    }
  }

  function rosters(r, sides) {
    outcomes(document.getElementById("chart-outcomes"), r, sides);
    var rounds = r.rounds_hist.map(function (_, i) { return String(i + 1); });
    bars(document.getElementById("chart-rounds"), [{ values: r.rounds_hist, cls: "bar-draw", name: "" }], rounds,
      gettext("Number of battles ending in each round"));
    var bins = r.surviving.a.hist.map(function (_, i) { return i * 10 + "%"; });
    bars(document.getElementById("chart-surviving"), [
      { values: r.surviving.a.hist, cls: "bar-a", name: "A" },
      { values: r.surviving.b.hist, cls: "bar-b", name: "B" },
    ], bins, gettext("Battles by the share of each army's cost that survived"));
  }

  function shortName(name, n) { return name.length > n ? name.slice(0, n - 1) + "…" : name; }
  function heat(score) {
    if (score === null || score === undefined) return "#888";
    return "hsl(" + Math.round(120 * score) + ", 55%, 45%)";
  }

  function heatmap(node, result) {
    var units = result.units, m = result.matrix, n = units.length;
    var cell = 16, label = 150, top = 8;
    var W = label + n * cell + 4, H = top + n * cell + label;
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
      "aria-label": gettext("Heat map of duel scores") }, node);
    node.style.overflowX = "auto";
    var info = document.getElementById("heatmap-cell");
    units.forEach(function (u, i) {
      text(svg, label - 4, top + i * cell + cell * 0.7, shortName(u.name, 21), { "text-anchor": "end" });
      var t = text(svg, 0, 0, shortName(u.name, 21), { "text-anchor": "end" });
      var cx = label + i * cell + cell * 0.7, cy = top + n * cell + 4;
      t.setAttribute("transform", "translate(" + cx + "," + cy + ") rotate(-90)");
      for (var j = 0; j < n; j++) {
        var s = m[i][j];
        var rect = svgEl("rect", { x: label + j * cell, y: top + i * cell, width: cell, height: cell, fill: heat(s),
          class: "cell", tabindex: "0" }, svg);
        var desc = interpolate(gettext("%(a)s against %(b)s"), { a: units[i].name, b: units[j].name }, true) + ": " + (s === null ? gettext("no duels") : num(s, 3));
        svgEl("title", {}, rect).textContent = desc;
        rect.addEventListener("click", (function (d) { return function () { info.textContent = d; }; })(desc));
        rect.addEventListener("focus", (function (d) { return function () { info.textContent = d; }; })(desc));
      }
    });
  }

  function costs(node, result) {
    var units = result.units.slice().sort(function (a, b) { return b.fitted_cost - a.fitted_cost; });
    var W = 360, rowH = 26, label = 132, width = W - label - 64;
    var max = 1;
    units.forEach(function (u) { max = Math.max(max, u.cost, u.fitted_cost); });
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + (units.length * rowH + 20), role: "img",
      "aria-label": gettext("Printed and fitted points of each unit") }, node);
    svgEl("rect", { x: label, y: 2, width: 10, height: 8, class: "bar-draw" }, svg);
    text(svg, label + 14, 10, gettext("printed"));
    svgEl("rect", { x: label + 70, y: 2, width: 10, height: 8, class: "bar-a" }, svg);
    text(svg, label + 84, 10, gettext("fitted"));
    units.forEach(function (u, i) {
      var y = 16 + i * rowH;
      text(svg, label - 4, y + 14, shortName(u.name, 17), { "text-anchor": "end" });
      svgEl("rect", { x: label, y: y + 2, width: Math.max(1, width * u.cost / max), height: 9, class: "bar-draw" }, svg);
      svgEl("rect", { x: label, y: y + 12, width: Math.max(1, width * u.fitted_cost / max), height: 9, class: "bar-a" }, svg);
      text(svg, label + width * Math.max(u.cost, u.fitted_cost) / max + 4, y + 18, Math.round(u.fitted_cost) + " / " + u.cost);
    });
  }

  if (data.kind === "rosters") {
    rosters(data.result, data.sides || []);
  } else {
    heatmap(document.getElementById("chart-heatmap"), data.result);
    costs(document.getElementById("chart-costs"), data.result);
  }
})();
