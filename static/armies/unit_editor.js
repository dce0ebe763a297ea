// Unit editor: add and remove rows (soldiers, speed sectors, weapons) in place. Without JS the same buttons post the
// form and the server re-renders it with the row added or removed; saving and all checks stay on the server.
(function () {
  "use strict";
  const form = document.getElementById("unit-editor");
  if (!form) return;

  function renumber(section) {
    const label = section.dataset.label;
    section.querySelectorAll(".ed-rows > .ed-row").forEach((row, i) => {
      row.querySelector(".ed-row-title").textContent = label + " " + (i + 1);
      row.querySelector("[data-remove]").setAttribute("aria-label", "Remove " + label.toLowerCase() + " " + (i + 1));
    });
  }

  form.addEventListener("click", (event) => {
    const add = event.target.closest("[data-add]");
    const remove = event.target.closest("[data-remove]");
    if (!add && !remove) return;
    event.preventDefault();
    const section = event.target.closest(".ed-section");
    if (remove) {
      remove.closest(".ed-row").remove();
    } else {
      const rows = section.querySelector(".ed-rows");
      const used = Array.from(rows.children).map((r) => Number(r.dataset.row));
      const next = used.length ? Math.max(...used) + 1 : 0;
      const html = section.querySelector("template.ed-template").innerHTML.replaceAll("__row__", String(next));
      rows.insertAdjacentHTML("beforeend", html);
      const first = rows.lastElementChild.querySelector("input:not([type=hidden])");
      if (first) first.focus();
    }
    renumber(section);
  });
})();
