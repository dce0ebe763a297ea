// Installs the service worker (static/pwa/sw.js, served at /sw.js) so the app works from the home screen.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
}
