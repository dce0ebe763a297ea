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
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.ok) {
        hideError();
      } else {
        let message = "The change was not saved (" + response.status + ").";
        try {
          const data = await response.json();
          message = data.detail || message;
          if (data.errors) message += " " + Object.entries(data.errors).map(([k, v]) => k + ": " + v).join("; ");
        } catch (e) { /* not JSON */ }
        showError(message);
      }
      await refresh();
    } catch (e) {
      showError("Network problem: the change may not be saved. Reload the page to see the roster as stored.");
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
      enqueue("POST", api + "entries/", { profile: button.dataset.profile });
    } else if (action === "inc" || action === "dec") {
      const count = parseInt(entry.dataset.count, 10) + (action === "inc" ? 1 : -1);
      if (count >= 1) enqueue("PATCH", entryUrl(entry), { count: count });
    } else if (action === "duplicate") {
      enqueue("POST", entryUrl(entry) + "duplicate/");
    } else if (action === "remove") {
      const name = entry.querySelector(".entry-title strong").textContent;
      if (window.confirm("Remove " + name + " from the roster?")) enqueue("DELETE", entryUrl(entry));
    }
  });

  root.addEventListener("change", (event) => {
    const field = event.target.dataset.field;
    if (event.target.id === "against") {
      const url = new URL(window.location.href);
      if (event.target.value) url.searchParams.set("against", event.target.value); else url.searchParams.delete("against");
      window.history.replaceState(null, "", url);
      queue = queue.then(refresh);
      return;
    }
    if (!field) return;
    const entry = entryOf(event.target);
    if (field === "weapon") {
      const weapons = Array.from(entry.querySelectorAll('input[data-field="weapon"]:checked')).map((i) => i.value);
      const variant = entry.querySelector('select[data-field="variant"]');
      const loadout = { weapons: weapons };
      if (variant) loadout.variant = variant.value;
      enqueue("PATCH", entryUrl(entry), { loadout: loadout });
    } else if (field === "variant") {
      enqueue("PATCH", entryUrl(entry), { loadout: { variant: event.target.value } });
    } else if (field === "pilot") {
      const pilots = Array.from(entry.querySelectorAll('select[data-field="pilot"]'))
        .map((s) => s.value)
        .filter(Boolean)
        .map((value) => {
          const parts = value.split(":");
          return { entry: parts[0], copy: parseInt(parts[1], 10), soldier: parseInt(parts[2], 10) };
        });
      enqueue("PATCH", entryUrl(entry), { pilot: pilots });
    }
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
