// New roster: the faction list follows the chosen pack. Only the pack's own factions are offered; a pack with one
// faction (every army of «Энфорсеры» or «Отряды» is the same side) hides the choice, and the server gives it.
(function () {
  "use strict";
  var pack = document.getElementById("id_pack");
  var faction = document.getElementById("id_faction");
  if (!pack || !faction) return;
  var field = faction.closest("div") || faction.parentNode;
  var all = Array.prototype.slice.call(faction.options).filter(function (o) { return o.value; });
  function follow() {
    var chosen = pack.value;
    var mine = all.filter(function (o) { return (o.dataset.packs || "").split(" ").indexOf(chosen) >= 0; });
    var keep = mine.some(function (o) { return o.value === faction.value; }) ? faction.value : "";
    faction.replaceChildren.apply(faction, mine);
    faction.value = keep || (mine[0] ? mine[0].value : "");
    field.hidden = mine.length <= 1;
  }
  pack.addEventListener("change", follow);
  follow();
})();
