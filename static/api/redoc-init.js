// Starts Redoc on /api/docs/ (templates/api/redoc.html): its styles get the page's nonce, so the
// Content-Security-Policy needs no 'unsafe-inline' for them.
(function () {
  "use strict";
  var box = document.getElementById("redoc");
  if (!box || !window.Redoc) return;
  window.Redoc.init(box.getAttribute("data-spec-url"), { nonce: box.getAttribute("data-style-nonce") }, box);
})();
