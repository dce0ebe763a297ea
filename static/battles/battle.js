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
  var resultHooks = [];

  function command(name, inputs) {
    return send("commands/" + name + "/", inputs);
  }

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
          resultHooks.forEach(function (hook) {
            hook(path, body, p);
          });
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
  // A widget button carries data-command and data-inputs (rules/contract/board.py); data-confirm asks first.
  // Anything else (data-act…) belongs to the system's own board script, which listens for "battle:act".
  board.addEventListener("click", function (ev) {
    var btn = ev.target.closest("button");
    if (!btn || !canWrite) return;
    if (btn.dataset.undo) {
      send("undo", { seq: parseInt(btn.dataset.undo, 10) });
    } else if (btn.dataset.command) {
      if (btn.dataset.confirm && !window.confirm(btn.dataset.confirm)) return;
      command(btn.dataset.command, JSON.parse(btn.dataset.inputs || "{}"));
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
    command(f.dataset.orderCommand, inputs);
  });

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) refresh();
  });
  // What a system's board script may use (rules/systems/<package>/static/<package>/board.js).
  window.ArmlistBattle = {
    command: command,
    data: data,
    canWrite: canWrite,
    onResult: function (hook) {
      resultHooks.push(hook);
    },
  };
  setStatus("In sync · v" + root.dataset.version, "ok");
  window.setTimeout(poll, POLL_MS);
})();
