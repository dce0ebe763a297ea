// «Отряды» on the board: dice rolled at the table typed into the board's own forms (the initiative, an activation,
// a shot, an On Guard reaction, an assault, a melee round, a withdrawal). How many dice a test uses depends on what
// is typed (the range gives the fire dice, the hits give the saves), so the boxes follow the form: the generic dice
// boxes (static/battles/dice_boxes.js) ask the server's dry run which dice, one labelled box each. The words come
// from the board's data (client_data), so this file holds no text of its own.
(function () {
  "use strict";
  if (window.ArmlistDiceBoxes) window.ArmlistDiceBoxes.start("data-squads-dice");
})();
