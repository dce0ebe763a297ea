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
  var LONG_POLL_S = 15;
  var busy = false;

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

  // `wait`: seconds the server may hold an unchanged board (long polling); 0 for an immediate answer.
  function refresh(wait) {
    var url = wait ? boardUrl + "?wait=" + wait : boardUrl;
    var asked = etag;
    return fetch(url, { headers: { "If-None-Match": asked }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.status === 304) {
          if (outbox.length) return flush();
          setStatus(gettext("In sync") + " · v" + root.dataset.version, "ok");
          return;
        }
        if (!r.ok) throw new Error("HTTP " + r.status);
        var tag = r.headers.get("ETag");
        if (asked !== etag && tag === etag) return; // a write of ours already brought this version
        return r.text().then(function (html) {
          swapBoard(html, tag);
          setStatus("Updated · v" + root.dataset.version, "ok");
          if (outbox.length && !flushing) return flush();
        });
      })
      .then(function () {
        return true;
      })
      .catch(function () {
        if (outbox.length) showWaiting();
        else setStatus(gettext("Offline: retrying…"), "warn");
        return false;
      });
  }

  // Long polling while the page is shown: the next request leaves as soon as one answers; after an error, or
  // while a write is on its way, plain ETag polling every POLL_MS.
  function poll() {
    if (document.hidden || busy) {
      window.setTimeout(poll, POLL_MS);
      return;
    }
    refresh(LONG_POLL_S).then(function (ok) {
      window.setTimeout(poll, ok ? 0 : POLL_MS);
    });
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
    close.textContent = gettext("OK");
    close.addEventListener("click", function () {
      resultBox.hidden = true;
    });
    resultBox.appendChild(close);
  }

  // Writes ------------------------------------------------------------------------------------------------
  var resultHooks = [];

  function command(name, inputs, label) {
    return send("commands/" + name + "/", inputs, label);
  }

  // The outbox: every write goes through it, so a change made without a connection waits on this phone (with its
  // idempotency key) and is sent, in order, when the connection returns. A write the server refuses (412: the
  // battle changed on another phone; or a rule error) is shown with the board as it is now, never dropped.
  var OUTBOX_KEY = "armlist-outbox:" + apiUrl;
  var outbox = loadOutbox();
  var flushing = false;

  function loadOutbox() {
    try {
      return JSON.parse(window.localStorage.getItem(OUTBOX_KEY) || "[]");
    } catch (e) {
      return [];
    }
  }

  function saveOutbox() {
    try {
      window.localStorage.setItem(OUTBOX_KEY, JSON.stringify(outbox));
    } catch (e) {
      /* private mode: the outbox lives as long as the page */
    }
    showWaiting();
  }

  function showWaiting() {
    if (!outbox.length) return;
    var n = outbox.length;
    var waiting = interpolate(ngettext("%s change waiting", "%s changes waiting", n), [n]);
    setStatus((navigator.onLine ? gettext("Sending") + " " : gettext("Offline") + " · ") + waiting, "warn");
  }

  function post(write, ifMatch) {
    return fetch(apiUrl + write.path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": cookie("csrftoken"),
        "If-Match": ifMatch,
        "Idempotency-Key": write.key,
      },
      body: JSON.stringify(write.body),
    }).then(function (r) {
      return r.json().then(function (payload) {
        return { status: r.status, payload: payload, etag: r.headers.get("ETag") };
      });
    });
  }

  function shown(write, p) {
    var outcome = p.outcome || {};
    // A step of a slider or a flag by hand shows itself on the board: no sheet to close between taps.
    if (!p.outcome && !(p.notices && p.notices.length) && write.path === "commands/adjust/") {
      setStatus(gettext("Saved"), "ok");
      return;
    }
    var lines = (p.events || []).map(function (e) {
      return e.text;
    });
    if (outcome.steps) lines = outcome.steps.concat(lines.slice(1));
    if (p.notices && p.notices.length) lines = lines.concat(p.notices);
    var head = (p.events && p.events[0]) || {};
    showResult(outcome.summary || head.text || gettext("Done"), lines, head.dice || [], "ok");
    resultHooks.forEach(function (hook) {
      hook(write.path, write.body, p);
    });
  }

  function refused(res, writes) {
    var p = res.payload || {};
    var title = res.status === 412 ? gettext("The battle changed on another phone") : p.detail || gettext("Refused");
    var lines = [];
    if (res.status === 412) lines.push(gettext("Nothing of this was recorded. The board now shows the battle as it is:"));
    else if (p.errors) {
      Object.keys(p.errors).forEach(function (k) {
        lines.push(k + ": " + p.errors[k]);
      });
    }
    if (writes.length > 1 || res.status === 412) {
      writes.forEach(function (w) {
        lines.push(interpolate(gettext("Not recorded: %s"), [w.label]));
      });
    }
    showResult(title, lines, [], res.status === 412 ? "warn" : "error");
    if (!resultBox) return;
    var again = document.createElement("button");
    again.type = "button";
    again.className = "small";
    again.textContent = writes.length > 1 ? gettext("Send them again") : gettext("Send again");
    again.addEventListener("click", function () {
      resultBox.hidden = true;
      writes.forEach(function (w) {
        outbox.push({ path: w.path, body: w.body, key: newKey(), base: null, label: w.label });
      });
      saveOutbox();
      flush();
    });
    resultBox.appendChild(again);
  }

  function flush() {
    if (flushing || !outbox.length) return Promise.resolve();
    flushing = true;
    busy = true;
    showWaiting();
    var chain = null; // the ETag our own last write produced
    function done() {
      flushing = false;
      busy = false;
      return refresh();
    }
    function next() {
      if (!outbox.length) return done();
      var write = outbox[0];
      return post(write, chain || write.base || etag).then(
        function (res) {
          if (res.status === 201) {
            outbox.shift();
            saveOutbox();
            chain = res.etag;
            shown(write, res.payload || {});
            return next();
          }
          var writes = outbox.splice(0, outbox.length);
          saveOutbox();
          refused(res, writes);
          return done();
        },
        function () {
          flushing = false;
          busy = false;
          showWaiting(); // no connection: kept, sent when it returns
        }
      );
    }
    return next();
  }

  function send(path, body, label) {
    if (!canWrite) return Promise.resolve();
    outbox.push({ path: path, body: body, key: newKey(), base: etag, label: label || path.replace(/^commands\/|\/$/g, "") });
    saveOutbox();
    return flush();
  }

  window.addEventListener("online", function () {
    flush();
  });

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
      send("undo", { seq: parseInt(btn.dataset.undo, 10) }, "Undo of #" + btn.dataset.undo);
    } else if (btn.dataset.command) {
      if (btn.dataset.confirm && !window.confirm(btn.dataset.confirm)) return;
      var card = btn.closest("details.unit");
      var name = card ? card.querySelector(".name").textContent + ": " : "";
      command(btn.dataset.command, JSON.parse(btn.dataset.inputs || "{}"), name + btn.textContent.trim());
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
  setStatus(gettext("In sync") + " · v" + root.dataset.version, "ok");
  if (outbox.length) flush(); // changes left waiting when the page was closed
  window.setTimeout(poll, POLL_MS);
})();
