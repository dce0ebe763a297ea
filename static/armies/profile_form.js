// New-unit JSON box: switching the kind fills the values box with that kind's starting values (only while it is
// unedited). The starting values of every kind come with the page (the system's editor layout).
(function () {
  "use strict";
  const form = document.getElementById("profile-form");
  const source = document.getElementById("unit-templates");
  if (!form || !source) return;
  const templates = JSON.parse(source.textContent);
  const kind = form.querySelector('[name="kind"]');
  const data = form.querySelector('[name="data"]');
  let pristine = true;
  data.addEventListener("input", () => { pristine = false; });
  kind.addEventListener("change", () => {
    if (pristine && templates[kind.value]) data.value = JSON.stringify(templates[kind.value], null, 1);
  });
})();
