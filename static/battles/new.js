// Starting a battle: "the book's rules" or "house rules". Opening the house rules chooses them; choosing the book
// folds them away again (the server reads the settings only for house rules).
(function () {
  "use strict";
  var fold = document.querySelector("details.house-rules");
  if (!fold) return;
  var radios = document.querySelectorAll('input[name="rules"]');
  Array.prototype.forEach.call(radios, function (radio) {
    radio.addEventListener("change", function () {
      fold.open = radio.value === "house" && radio.checked;
    });
  });
  fold.addEventListener("toggle", function () {
    if (!fold.open) return;
    var house = document.querySelector('input[name="rules"][value="house"]');
    if (house) house.checked = true;
  });
})();
