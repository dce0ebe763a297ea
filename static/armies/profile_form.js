// New-unit form: switching the kind fills the values box with that kind's template (only while it is unedited).
(function () {
  "use strict";
  const form = document.getElementById("profile-form");
  if (!form) return;
  const kind = form.querySelector('[name="kind"]');
  const data = form.querySelector('[name="data"]');
  const base = form.dataset.templates.replace(/squad\/$/, "");
  let pristine = true;
  data.addEventListener("input", () => { pristine = false; });
  kind.addEventListener("change", async () => {
    if (!pristine) return;
    const response = await fetch(base + encodeURIComponent(kind.value) + "/", { credentials: "same-origin" });
    if (response.ok) data.value = JSON.stringify(await response.json(), null, 1);
  });
})();
