// Sharing on the roster page: Copy buttons for share links, and a warning, before saving, that moving the roster
// off "Shared by link" stops its live links (templates/armies/_share.html, the settings form's #visibility-warning).
(function () {
  "use strict";
  const t = (text) => (window.gettext ? window.gettext(text) : text);

  async function copy(input) {
    try {
      await navigator.clipboard.writeText(input.value);
      return true;
    } catch (e) {  // no clipboard API (plain http on the LAN): select the text and use the old command
      input.focus();
      input.select();
      try { return document.execCommand("copy"); } catch (e2) { return false; }
    }
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const input = document.getElementById(button.dataset.copy);
    if (!input) return;
    const label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    button.textContent = (await copy(input)) ? t("Copied") : t("Select and copy");
    setTimeout(() => { button.textContent = label; }, 2000);
  });

  const warning = document.getElementById("visibility-warning");
  const select = document.getElementById("id_visibility");
  if (warning && select) {
    const update = () => { warning.hidden = select.value === "link"; };
    select.addEventListener("change", update);
    update();
  }
})();
