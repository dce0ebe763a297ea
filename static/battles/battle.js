// The battle board on a phone: polls the server-rendered board with ETag (304 while nothing changed), sends
// every write with the version it was based on (If-Match) and an idempotency key, and shows each die rolled.
(function () {
  "use strict";
  var root = document.getElementById("battle");
  if (!root) return;
  var boardUrl = root.dataset.boardUrl;
  var streamUrl = root.dataset.streamUrl;
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
    statusLine.dataset.state = kind || "";  // for tests and styles: ok, warn, error
  }

  function swapBoard(html, newEtag) {
    document.dispatchEvent(new CustomEvent("battle:redrawing")); // static/battles/controls.js lets go of a pressed scale
    window.ArmlistRedraw.replace(board, html, function (before, after) {
      if (returnFocus === before) returnFocus = after;
    });
    etag = newEtag;
    root.dataset.etag = etag;
    root.dataset.version = (etag || "").replace(/[^0-9]/g, "");
    rememberBoard(html, etag);
    generation += 1;
    showPending();
    document.dispatchEvent(new CustomEvent("battle:updated"));
  }

  // An invitation goes from the page once a player has taken its side: the board says which sides are still open.
  function dropTakenInvitations() {
    var open = board.querySelector("[data-open-sides]");
    if (!open) return;
    var sides = open.dataset.openSides.trim().split(/\s+/);
    root.querySelectorAll("[data-invite-side]").forEach(function (invitation) {
      if (sides.indexOf(invitation.dataset.inviteSide) < 0) invitation.remove();
    });
  }
  document.addEventListener("battle:updated", dropTakenInvitations);

  // A tap is a press and a release on one button. A board drawn between the two takes the button away: a mouse's
  // click is then lost, and a finger's lands on whatever the new board has at that spot. A board that comes while a
  // finger (or the mouse) is down on the board is drawn once the tap is over (after its click), or after
  // HOLD_BOARD_MS if the finger stays. Meanwhile the phone keeps the version the player sees: a write from the tap
  // is based on it (If-Match), and the server rebases it or refuses it with 412.
  var HOLD_BOARD_MS = 3000;
  var CLICK_AFTER_RELEASE_MS = 300; // a touch's click comes from the browser's tap gesture, after the release
  var fingerDown = false;
  var heldBoard = null; // {html, etag, timer}

  function drawBoard(html, newEtag) {
    if (!fingerDown && !heldBoard) return swapBoard(html, newEtag);
    if (heldBoard) {
      if (versionOf(newEtag) < versionOf(heldBoard.etag)) return;
      heldBoard.html = html;
      heldBoard.etag = newEtag;
      return;
    }
    heldBoard = { html: html, etag: newEtag, timer: window.setTimeout(drawHeldBoard, HOLD_BOARD_MS) };
  }

  function drawHeldBoard() {
    if (!heldBoard) return;
    var held = heldBoard;
    heldBoard = null;
    window.clearTimeout(held.timer);
    if (versionOf(held.etag) < versionOf(etag)) return; // a write of ours brought a newer one meanwhile
    swapBoard(held.html, held.etag);
    setStatus(gettext("Updated") + " · v" + root.dataset.version, "ok");
  }

  function tapOver() {
    if (!fingerDown) return;
    fingerDown = false;
    window.setTimeout(drawHeldBoard, CLICK_AFTER_RELEASE_MS);
  }

  board.addEventListener("pointerdown", function () {
    fingerDown = true;
  }, true);
  document.addEventListener("pointerup", tapOver, true);
  document.addEventListener("pointercancel", tapOver, true);
  document.addEventListener("click", function () {
    if (!fingerDown) window.setTimeout(drawHeldBoard, 0); // after this click's own handlers
  }, true);

  // The board this phone last knew, kept for a reload without a connection: the page the service worker kept
  // may be older than the last board fetched (13/16 on the page, 11/16 on the board).
  var BOARD_KEY = "armlist-board:" + apiUrl;
  var generation = Date.now(); // each drawing of the board; a waiting change is shown once per drawing

  function versionOf(tag) {
    return parseInt((tag || "").replace(/[^0-9]/g, ""), 10) || 0;
  }

  function rememberBoard(html, tag) {
    try {
      window.localStorage.setItem(BOARD_KEY, JSON.stringify({ etag: tag, html: html }));
    } catch (e) {
      /* private mode or full: the page's own board is used */
    }
  }

  function knownBoard() {
    try {
      return JSON.parse(window.localStorage.getItem(BOARD_KEY) || "null");
    } catch (e) {
      return null;
    }
  }

  // `wait`: seconds the server may hold an unchanged board (long polling); 0 for an immediate answer.
  function refresh(wait, whole) {
    var url = wait ? boardUrl + "?wait=" + wait + "&notify=1" : boardUrl;
    var asked = etag;
    // `whole`: the board as the server has it even if the version is the one shown (a refused change drawn
    // as waiting is taken off it).
    var headers = whole ? {} : { "If-None-Match": asked };
    return fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.status === 204) {
          // The long poll says the battle changed (no board in it): fetch the board only if this phone lacks that
          // version; the phone that wrote it already has it from its own write.
          if (r.headers.get("ETag") !== etag) {
            return refresh(0).then(function (ok) {
              if (!ok) throw new Error("board");
            });
          }
          if (outbox.length && !flushing) return flush();
          setStatus(gettext("In sync") + " · v" + root.dataset.version, "ok");
          return;
        }
        if (r.status === 304) {
          if (outbox.length) return flush();
          setStatus(gettext("In sync") + " · v" + root.dataset.version, "ok");
          return;
        }
        if (!r.ok) throw new Error("HTTP " + r.status);
        var tag = r.headers.get("ETag");
        if (!whole && asked !== etag && tag === etag) return; // a write of ours already brought this version
        // Answers on two connections may come back out of order: an older board never replaces a newer one
        // (the version only grows: an undo is an event too), and a board is not drawn twice for one version.
        if (versionOf(tag) < versionOf(etag) || (!whole && versionOf(tag) === versionOf(etag))) return;
        return r.text().then(function (html) {
          drawBoard(html, tag);
          if (!heldBoard) setStatus(gettext("Updated") + " · v" + root.dataset.version, "ok");
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

  // How the phone learns of the other phone's changes, while the page is shown:
  // - server-sent events (battles/views.py battle_stream): the server says each new version on one open
  //   connection, and the board is fetched only when this phone lacks it;
  // - while the stream is down (no connection, a proxy that buffers), plain ETag polling every POLL_MS;
  // - without EventSource, long polling: the next request leaves as soon as one answers.
  var stream = null;
  var streamOpen = false;

  function heldVersion() {
    var shown = parseInt(root.dataset.version, 10) || 0;
    return heldBoard ? Math.max(shown, versionOf(heldBoard.etag)) : shown;
  }

  function listen() {
    if (stream || document.hidden) return;
    stream = new EventSource(streamUrl);
    stream.onopen = function () {
      streamOpen = true;
      if (outbox.length && !flushing) flush();
    };
    stream.addEventListener("version", function (ev) {
      streamOpen = true;
      var version = parseInt(ev.data, 10);
      if (busy) return; // the write on its way refreshes the board when it is answered
      if (version > heldVersion()) fetchVersion(version);
      else if (outbox.length && !flushing) flush();
      else setStatus(gettext("In sync") + " · v" + root.dataset.version, "ok");
    });
    stream.onerror = function () {
      streamOpen = false; // EventSource opens it again by itself; meanwhile poll() polls
      if (outbox.length) showWaiting();
      else setStatus(gettext("Offline: retrying…"), "warn");
    };
  }

  // One board fetch at a time for the stream's news: versions announced while one is on its way are fetched once
  // it is answered, if it did not already bring them (each redraw may land under a player's tap).
  var fetching = null;
  var wanted = 0;
  function fetchVersion(version) {
    wanted = Math.max(wanted, version);
    if (fetching) return;
    var asking = wanted;
    fetching = refresh(0).then(function (ok) {
      fetching = null;
      if (ok && wanted > asking && wanted > heldVersion() && !busy) fetchVersion(wanted);
    });
  }

  function unlisten() {
    if (stream) stream.close();
    stream = null;
    streamOpen = false;
  }

  function poll() {
    if (document.hidden || busy) {
      window.setTimeout(poll, POLL_MS);
      return;
    }
    if (streamUrl && window.EventSource) {
      listen();
      if (streamOpen) {
        window.setTimeout(poll, POLL_MS);
        return;
      }
      refresh(0).then(function () {
        window.setTimeout(poll, POLL_MS);
      });
      return;
    }
    refresh(LONG_POLL_S).then(function (ok) {
      window.setTimeout(poll, ok ? 0 : POLL_MS);
    });
  }

  function showResult(title, lines, dice, kind) {
    if (!resultBox) return;
    if (document.activeElement && document.activeElement !== document.body && !resultBox.contains(document.activeElement)) {
      returnFocus = document.activeElement;
    }
    resultBox.hidden = false;
    resultBox.className = "result card " + (kind || "");
    resultBox.innerHTML = "";
    var h = document.createElement("strong");
    h.textContent = title;
    resultBox.appendChild(h);
    // The lines scroll inside the box; OK stays in view on a 360 × 740 phone however long the result.
    var body = document.createElement("div");
    body.className = "result-body";
    resultBox.appendChild(body);
    if (dice && dice.length) {
      var row = document.createElement("div");
      row.className = "dice";
      dice.forEach(function (d) {
        var s = document.createElement("span");
        s.className = "die";
        // The die as the table says it («Д12 инициатива: Синие», battles/selectors.event_die_label), never its raw
        // purpose ("initiative: 0").
        s.textContent = (d.name || d.kind) + ": " + d.value;
        s.title = d.label || "";
        var p = document.createElement("small");
        p.textContent = d.label || "";
        s.appendChild(p);
        row.appendChild(s);
      });
      body.appendChild(row);
    }
    (lines || []).forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      body.appendChild(p);
    });
    var actions = document.createElement("div");
    actions.className = "result-actions";
    var close = document.createElement("button");
    close.type = "button";
    close.className = "secondary result-ok";
    close.textContent = gettext("OK");
    close.addEventListener("click", function () {
      var back = resultBox.contains(document.activeElement) ? returnFocus : null;
      resultBox.hidden = true;
      if (back && document.contains(back)) back.focus({ preventScroll: true });
    });
    actions.appendChild(close);
    resultBox.appendChild(actions);
  }
  var returnFocus = null; // where the player was when a result box opened: OK brings the focus back there

  // Writes ------------------------------------------------------------------------------------------------
  var resultHooks = [];

  // A write's answer goes to whoever waits for it: `command()` answers a promise of {ok, status, payload} (or
  // {queued: true} without a connection). With {ownErrors: true} the caller (a sheet, a form) shows a refusal
  // itself, next to what the player typed, instead of the result box.
  var waiters = {};
  var ownErrors = {};

  function command(name, inputs, label, opts) {
    return send("commands/" + name + "/", inputs, label, opts);
  }

  function answer(key, value) {
    var waiter = waiters[key];
    delete waiters[key];
    delete ownErrors[key];
    if (waiter) waiter(value);
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
      window.localStorage.setItem(REFUSED_KEY, JSON.stringify(refusedWrites));
    } catch (e) {
      /* private mode: the outbox lives as long as the page */
    }
    showWaiting();
    showPending();
  }

  // What waits, shown at once on this phone: each change in a list under the title, a slider at the value it was
  // set to, its card marked (templates/battles/widgets/slider.html). A change the server refused stays in the list,
  // with «Send again» and «Forget», until the player chooses: it is never dropped.
  var REFUSED_KEY = "armlist-refused:" + apiUrl;
  var refusedWrites = loadRefused();

  function loadRefused() {
    try {
      return JSON.parse(window.localStorage.getItem(REFUSED_KEY) || "[]");
    } catch (e) {
      return [];
    }
  }

  function pendingPanel() {
    var panel = document.getElementById("pending");
    if (!panel) {
      panel = document.createElement("section");
      panel.id = "pending";
      panel.className = "pending-panel card";
      panel.setAttribute("aria-live", "polite");
      var head = root.querySelector(".battle-head");
      root.insertBefore(panel, head ? head.nextSibling : root.firstChild);
    }
    return panel;
  }

  function markCard(unit) {
    var card = unit ? board.querySelector('details.unit[data-unit="' + CSS.escape(unit) + '"]') : null;
    if (!card || card.classList.contains("pending")) return card;
    card.classList.add("pending");
    var flag = document.createElement("span");
    flag.className = "flag warn pending-flag";
    flag.textContent = gettext("waiting to be sent");
    var summary = card.querySelector("summary");
    if (summary) summary.appendChild(flag);
    return card;
  }

  function showView(view) {
    var card = markCard(view && view.unit);
    if (!card || view.slider === undefined || view.slider === null) return;
    var slider = card.querySelectorAll(".slider")[view.slider];
    var shown = slider && slider.querySelector("[data-value]");
    if (!shown) return;
    var parts = shown.textContent.split("/");
    var now = parseInt(parts[0], 10);
    var max = parts.length > 1 ? parseInt(parts[1], 10) : null;
    var scale = slider.querySelector(".scale");
    var min = scale && scale.getAttribute("aria-valuemin") !== null ? parseInt(scale.getAttribute("aria-valuemin"), 10) : 0;
    var value = typeof view.value === "number" ? view.value : now + (view.delta || 0);
    if (isNaN(value)) return;
    value = Math.max(min, max === null || isNaN(max) ? value : Math.min(max, value));
    shown.textContent = value + (parts.length > 1 ? "/" + parts[1] : "");
    slider.classList.add("pending");
    if (!slider.querySelector(".pending-note")) {
      var note = document.createElement("small");
      note.className = "pending-note";
      note.textContent = gettext("waiting to be sent");
      shown.parentNode.insertBefore(note, shown.nextSibling);
    }
    if (scale) {
      scale.setAttribute("aria-valuenow", value);
      scale.querySelectorAll(".cell[data-n]").forEach(function (c) {
        var n = parseInt(c.dataset.n, 10);
        c.classList.toggle("on", n === value);
        c.classList.toggle("lost", n > value);
      });
    }
  }

  function showPending() {
    outbox.forEach(function (w) {
      if (w.shownIn === generation) return;
      w.shownIn = generation;
      showView(w.view);
    });
    var panel = document.getElementById("pending");
    if (!outbox.length && !refusedWrites.length) {
      if (panel) panel.remove();
      return;
    }
    panel = pendingPanel();
    panel.innerHTML = "";
    var list = document.createElement("ul");
    list.className = "plain";
    outbox.forEach(function (w) {
      var li = document.createElement("li");
      li.className = "waiting";
      li.textContent = w.label + " · " + gettext("waiting to be sent");
      list.appendChild(li);
    });
    refusedWrites.forEach(function (w, i) {
      var li = document.createElement("li");
      li.className = "refused";
      var text = document.createElement("span");
      text.textContent = interpolate(gettext("Not recorded: %s"), [w.label]) + (w.why ? " (" + w.why + ")" : "");
      li.appendChild(text);
      var again = document.createElement("button");
      again.type = "button";
      again.className = "small";
      again.dataset.resend = String(i);
      again.textContent = gettext("Send again");
      var forget = document.createElement("button");
      forget.type = "button";
      forget.className = "small secondary";
      forget.dataset.forget = String(i);
      forget.textContent = gettext("Forget");
      li.appendChild(again);
      li.appendChild(forget);
      list.appendChild(li);
    });
    panel.appendChild(list);
  }

  function resend(writes, base) {
    writes.forEach(function (w) {
      outbox.push({ path: w.path, body: w.body, key: newKey(), base: base, label: w.label, view: w.view });
    });
    saveOutbox();
    flush();
  }

  root.addEventListener("click", function (ev) {
    var btn = ev.target.closest("#pending button");
    if (!btn) return;
    var i = parseInt(btn.dataset.resend || btn.dataset.forget, 10);
    var w = refusedWrites.splice(i, 1)[0];
    if (!w) return;
    if (btn.dataset.resend !== undefined) resend([w], w.base || null);
    else saveOutbox();
  });

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
    // For the scripts beside this one (static/battles/odds.js: where the roll fell in its odds).
    document.dispatchEvent(new CustomEvent("battle:result", { detail: { path: write.path, body: write.body, payload: p } }));
  }

  function refused(res, writes) {
    var p = res.payload || {};
    if (writes.length === 1 && ownErrors[writes[0].key] && res.status !== 412) return;
    var title = res.status === 412 ? gettext("The battle changed on another phone") : p.detail || gettext("Refused");
    var lines = [];
    if (res.status === 412) lines.push(gettext("Nothing of this was recorded. The board now shows the battle as it is:"));
    else if (p.errors) {
      Object.keys(p.errors).forEach(function (k) {
        lines.push(String(p.errors[k])); // the message names the field in words; its key ("inputs.unit") is not shown
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
    again.textContent = writes.length > 1 ? gettext("Send them again") : gettext("Send again");
    // Sent again on the battle as the refusal found it (its version is in the 412), not on the board this phone
    // shows, which may still be on its way.
    var base = res.status === 412 && p.version ? '"v' + p.version + '"' : null;
    writes.forEach(function (w) {
      refusedWrites.push({ path: w.path, body: w.body, label: w.label, view: w.view, base: base, why: title });
    });
    saveOutbox();
    again.addEventListener("click", function () {
      resultBox.hidden = true;
      refusedWrites = refusedWrites.filter(function (r) {
        return writes.every(function (w) {
          return w.label !== r.label || JSON.stringify(w.body) !== JSON.stringify(r.body);
        });
      });
      resend(writes, base);
    });
    resultBox.querySelector(".result-actions").appendChild(again);
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
            answer(write.key, { ok: true, status: res.status, payload: res.payload || {} });
            return next();
          }
          var writes = outbox.splice(0, outbox.length);
          saveOutbox();
          refused(res, writes);
          writes.forEach(function (w, i) {
            answer(w.key, { ok: false, status: i ? 0 : res.status, payload: i ? {} : res.payload || {} });
          });
          flushing = false;
          busy = false;
          // The whole board again only if a refused change was drawn on it (a slider, a marked card): a form's
          // refusal drew nothing, and a board swapped under a player who is correcting the form could eat a
          // keystroke.
          return refresh(0, writes.some(function (w) { return !!w.view; }));
        },
        function () {
          flushing = false;
          busy = false;
          showWaiting(); // no connection: kept, sent when it returns
          outbox.forEach(function (w) {
            answer(w.key, { ok: false, queued: true });
          });
        }
      );
    }
    return next();
  }

  function send(path, body, label, opts) {
    if (!canWrite) return Promise.resolve({ ok: false, status: 403 });
    var key = newKey();
    var view = (opts && opts.view) || null; // what the change shows at once: {unit, slider, delta | value}
    outbox.push({ path: path, body: body, key: key, base: etag, label: label || path.replace(/^commands\/|\/$/g, ""), view: view });
    saveOutbox();
    var answered = new Promise(function (resolve) {
      waiters[key] = resolve;
    });
    if (opts && opts.ownErrors) ownErrors[key] = true;
    flush();
    return answered;
  }

  // A refusal shown in the form that sent it: the form stays open with what was typed, the fields named in
  // the answer are marked.
  function formError(form, res) {
    clearFormError(form);
    if (!res || res.ok || res.queued) return;
    var p = res.payload || {};
    var box = document.createElement("div");
    box.className = "form-error error";
    box.setAttribute("role", "alert");
    var head = document.createElement("p");
    head.textContent = p.detail || gettext("Refused");
    box.appendChild(head);
    Object.keys(p.errors || {}).forEach(function (k) {
      var line = document.createElement("p");
      line.textContent = p.errors[k];
      box.appendChild(line);
      var field = form.querySelector('[name="' + CSS.escape(k.split(".").pop()) + '"]');
      if (field) field.setAttribute("aria-invalid", "true");
    });
    var title = form.querySelector("h2, h3, strong");
    form.insertBefore(box, title ? title.nextSibling : form.firstChild);
  }

  function clearFormError(form) {
    var old = form.querySelector(".form-error");
    if (old) old.remove();
    form.querySelectorAll("[aria-invalid]").forEach(function (el) {
      el.removeAttribute("aria-invalid");
    });
  }

  window.addEventListener("online", function () {
    flush();
  });

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) unlisten(); // a hidden page holds no connection; poll() listens again when it is shown
    else refresh();
  });
  // What a system's board script may use (rules/systems/<package>/static/<package>/board.js).
  // (`send`, `setStatus`: for the board's own controls, static/battles/controls.js; `diceBoxes` is added by
  // static/battles/dice_boxes.js.)
  window.ArmlistBattle = {
    command: command,
    send: send,
    setStatus: setStatus,
    data: data,
    canWrite: canWrite,
    formError: formError,
    clearFormError: clearFormError,
    onResult: function (hook) {
      resultHooks.push(hook);
    },
  };
  setStatus(gettext("In sync") + " · v" + root.dataset.version, "ok");
  var known = knownBoard();
  if (known && known.html && versionOf(known.etag) > versionOf(etag)) swapBoard(known.html, known.etag);
  else rememberBoard(board.innerHTML, etag);
  showWaiting();
  showPending();
  if (outbox.length) flush(); // changes left waiting when the page was closed
  window.setTimeout(poll, POLL_MS);
})();
