// Roster builder: every change goes to the JSON API (with the CSRF token and the roster version it was based on),
// then the live fragment (totals, issues, entries) is fetched again. Changes are queued so none overtakes another.
(function () {
  "use strict";
  const root = document.getElementById("builder");
  if (!root) return;
  const api = root.dataset.api;
  const liveUrl = root.dataset.live;
  const errorBox = document.getElementById("live-error");
  let queue = Promise.resolve();

  function csrfToken() {
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }
  function live() { return document.getElementById("roster-live"); }
  function opponentQuery() {
    const select = document.getElementById("against");
    return select && select.value ? "?against=" + encodeURIComponent(select.value) : "";
  }
  function showError(message) { errorBox.textContent = message; errorBox.hidden = false; }
  function hideError() { errorBox.hidden = true; errorBox.textContent = ""; }

  async function refresh() {
    if (!liveUrl) return;
    const response = await fetch(liveUrl + opponentQuery(), { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (response.ok) live().outerHTML = await response.text();
  }

  async function send(method, url, body) {
    root.classList.add("busy");
    try {
      const response = await fetch(url, {
        method: method,
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": csrfToken(),
          "If-Match": '"' + live().dataset.version + '"',
        },
        body: body === undefined ? undefined : JSON.stringify(typeof body === "function" ? body() : body),
      });
      if (response.ok) {
        hideError();
      } else {
        let message = interpolate(gettext("The change was not saved (%s)."), [response.status]);
        try {
          const data = await response.json();
          message = data.detail || message;
          // Each message names its field in words; its key ("options.stats.BS") is not shown, nor a message twice.
          if (data.errors) {
            Object.values(data.errors).map(String).forEach((v) => { if (message.indexOf(v) < 0) message += " " + v; });
          }
        } catch (e) { /* not JSON */ }
        showError(message);
      }
      await refresh();
    } catch (e) {
      showError(gettext("Network problem: the change may not be saved. Reload the page to see the roster as stored."));
    } finally {
      root.classList.remove("busy");
    }
  }

  function enqueue(method, url, body) {
    queue = queue.then(() => send(method, url, body));
    return queue;
  }

  function entryOf(el) { return el.closest(".entry"); }
  function entryUrl(entry) { return api + "entries/" + encodeURIComponent(entry.dataset.key) + "/"; }

  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || !root.contains(button)) return;
    const action = button.dataset.action;
    const entry = entryOf(button);
    if (action === "add") {
      const body = { profile: button.dataset.profile };
      if (button.dataset.pack) body.pack = parseInt(button.dataset.pack, 10);  // a unit of an extra custom pack
      enqueue("POST", api + "entries/", body);
    } else if (action === "inc" || action === "dec") {
      const count = parseInt(entry.dataset.count, 10) + (action === "inc" ? 1 : -1);
      if (count >= 1) enqueue("PATCH", entryUrl(entry), { count: count });
    } else if (action === "duplicate") {
      enqueue("POST", entryUrl(entry) + "duplicate/");
    } else if (action === "remove") {
      const name = entry.querySelector(".entry-title strong").textContent;
      if (window.confirm(interpolate(gettext("Remove %s from the roster?"), [name]))) enqueue("DELETE", entryUrl(entry));
    }
  });

  // A control of an entry view writes one key of the entry's options (rules/contract/army.py ENTRY_VIEW_DOC); the
  // whole options object goes to the API. Every control value is JSON. The change is read now and laid over the
  // entry's options when it is sent, so that quick changes queued one after another all keep.
  function parsed(value) {
    try { return JSON.parse(value); } catch (e) { return null; }
  }
  function changeOf(entry, control) {
    const key = control.dataset.option;
    const same = '[data-option="' + CSS.escape(key) + '"]';
    const kind = control.dataset.control;
    let value;
    let resets = [];
    if (kind === "checks") {
      const samePath = control.dataset.path ? '[data-path="' + CSS.escape(control.dataset.path) + '"]' : ":not([data-path])";
      value = Array.from(entry.querySelectorAll("input" + same + samePath + ":checked")).map((i) => parsed(i.value));
    } else if (kind === "slots") {
      value = Array.from(entry.querySelectorAll("select" + same)).filter((s) => s.value).map((s) => parsed(s.value));
    } else if (kind === "choice") {
      value = parsed(control.value);
      resets = (control.dataset.resets || "").split(" ").filter(Boolean);
    } else if (kind === "json") {
      if (control.value.trim() === "") value = null;
      else {
        try { value = JSON.parse(control.value); } catch (e) { return null; }
      }
    } else if (kind === "counts") {
      // Every item with its number under data-key; items left empty or at 0 are dropped (ENTRY_VIEW_DOC "counts").
      value = [];
      entry.querySelectorAll("input" + same + '[data-control="counts"]').forEach((input) => {
        const text = input.value.trim();
        if (text === "" || Number(text) === 0) return;
        const item = Object.assign({}, parsed(input.dataset.item));
        item[input.dataset.key || "count"] = Number.isFinite(Number(text)) ? Number(text) : text;
        value.push(item);
      });
    } else if (kind === "number") {
      const text = control.value.trim();
      value = text === "" ? null : (Number.isFinite(Number(text)) ? Number(text) : text);
    } else {
      value = control.value.trim() === "" ? null : control.value.trim();
    }
    return { key: key, value: value, resets: resets, path: control.dataset.path ? control.dataset.path.split(".") : null };
  }
  // `value` set at the dotted `path` inside `root` (a copy); objects are made as needed, and a null value drops the
  // key there and every object it leaves empty. A number in the path steps into a list the option already holds
  // ("0.damage": the first weapon's damage); a list's items are never dropped. Answers null when nothing is left.
  function setAt(root, path, value) {
    const top = root && typeof root === "object" ? JSON.parse(JSON.stringify(root)) : {};
    const parents = [];
    let node = top;
    path.slice(0, -1).forEach((k) => {
      if (!node[k] || typeof node[k] !== "object" || (Array.isArray(node[k]) && !/^\d+$/.test(path[parents.length + 1]))) node[k] = {};
      parents.push([node, k]);
      node = node[k];
    });
    const last = path[path.length - 1];
    if (value === null || value === undefined) delete node[last];
    else node[last] = value;
    parents.reverse().forEach(([parent, k]) => {
      if (!Array.isArray(parent) && !Array.isArray(parent[k]) && Object.keys(parent[k]).length === 0) delete parent[k];
    });
    return Object.keys(top).length ? top : null;
  }
  function optionsWith(entryKey, change) {
    const entry = live().querySelector('.entry[data-key="' + CSS.escape(entryKey) + '"]');
    let options = {};
    try { options = JSON.parse((entry && entry.dataset.options) || "{}"); } catch (e) { options = {}; }
    change.resets.forEach((k) => { delete options[k]; });
    if (change.path) change.value = setAt(options[change.key], change.path, change.value);
    if (change.value === null || change.value === undefined) delete options[change.key];
    else options[change.key] = change.value;
    return { options: options };
  }

  root.addEventListener("change", (event) => {
    if (event.target.id === "against") {
      const url = new URL(window.location.href);
      if (event.target.value) url.searchParams.set("against", event.target.value); else url.searchParams.delete("against");
      window.history.replaceState(null, "", url);
      queue = queue.then(refresh);
      return;
    }
    const control = event.target.closest("[data-option]");
    if (!control || !root.contains(control)) return;
    const entry = entryOf(control);
    const change = changeOf(entry, control);
    if (change === null) { showError(control.dataset.option + ": not valid JSON; nothing was saved."); return; }
    enqueue("PATCH", entryUrl(entry), () => optionsWith(entry.dataset.key, change));
  });

  const filter = document.getElementById("unit-filter");
  if (filter) {
    filter.addEventListener("input", () => {
      const needle = filter.value.trim().toLowerCase();
      document.querySelectorAll(".catalogue li").forEach((li) => {
        li.hidden = needle !== "" && !li.dataset.name.includes(needle);
      });
    });
  }
})();
