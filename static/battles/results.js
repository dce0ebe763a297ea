// The result panel on the board (templates/results/_panel.html) is part of the board fragment, which is drawn once
// for every viewer of a side and swapped in as the battle changes, so it carries no CSRF token of its own: each of
// its forms takes the token from this browser's cookie as it is sent.
(function () {
  "use strict";
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;)\s*csrftoken=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-result-form]")) return;
    var field = form.querySelector('input[name="csrfmiddlewaretoken"]');
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "csrfmiddlewaretoken";
      form.appendChild(field);
    }
    field.value = csrfToken();
  }, true);
})();
