// «Энфорсеры» on the board: dice rolled at the table typed into the board's own forms (a shot, a blow, a
// counter-attack, a reaction shot, medical aid, a prayer, a fall). How many dice a test uses depends on what is
// chosen (each blessing and curse is a d6, a hit with a trait asks for a TN test), so the boxes follow the form:
// the generic dice boxes (static/battles/dice_boxes.js) ask the server's dry run which dice, one labelled box each;
// a counter-attack, answered by the dice alone, gets its send button there. The words come from the board's data
// (client_data), so this file holds no text of its own.
(function () {
  "use strict";
  if (window.ArmlistDiceBoxes) window.ArmlistDiceBoxes.start("data-enf-dice");
})();
