// Small behaviours every page may use, declared in the markup instead of inline handlers (onclick=…), which the
// Content-Security-Policy refuses (script-src 'self', issue #18):
//   <select data-autosubmit>      sends its form when the choice changes
//   <input data-select-all>       selects its whole text when tapped (links to copy)
//   <button data-print>           prints the page
//   <div data-percent="40">       sets the width of a bar (CSSOM, which the policy allows; a style="" would not be)
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });
  document.addEventListener("click", function (event) {
    var el = event.target;
    if (!el.closest) return;
    if (el.matches("input[data-select-all]")) el.select();
    if (el.closest("[data-print]")) window.print();
  });
  function widths(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-percent]"), function (bar) {
      var value = parseFloat(bar.getAttribute("data-percent"));
      if (!isNaN(value)) bar.style.width = Math.max(0, Math.min(100, value)) + "%";
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { widths(document); });
  } else {
    widths(document);
  }
})();
