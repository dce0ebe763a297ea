// Armlist's service worker: the battle board opens without a connection. Pages (and the translations catalogue
// /jsi18n/) are fetched from the network first and kept; without a network the last copy is shown (the board script then queues every change until the
// connection returns). Static files are served from the cache first: their addresses carry their version, so a new
// version of Armlist is fetched anew. Writes and the API are never cached.
"use strict";
var CACHE = "armlist"; // one name from now on: a new worker keeps the pages and files its predecessor kept
// The static files' version (config/pwa.py writes it in as the worker is served; it is in every static address,
// config/static.py). A new version of Armlist is a new worker, whose activation drops the static files of the others.
var VERSION = "armlist-static-version";

self.addEventListener("install", function () {
  self.skipWaiting();
});

function ofAnotherVersion(request) {
  var url = new URL(request.url);
  return url.pathname.indexOf("/static/") === 0 && url.searchParams.get("v") !== VERSION;
}

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
    }).then(function () {
      return caches.open(CACHE);
    }).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.filter(ofAnotherVersion).map(function (r) { return cache.delete(r); }));
      });
    }).then(function () { return self.clients.claim(); })
  );
});

// Without a connection and without a kept copy: said in the phone's language (Russian first), as the site speaks.
function offlinePage() {
  var ru = !/^en/i.test((self.navigator && self.navigator.language) || "ru");
  var lang = ru ? "ru" : "en";
  var title = ru ? "Нет связи" : "Offline";
  var text = ru ? "Откройте эту страницу один раз при связи: тогда она откроется и без неё." :
    "Open this page once with a connection first.";
  return '<!doctype html><html lang="' + lang + '"><meta charset="utf-8"><meta name="viewport" ' +
    'content="width=device-width, initial-scale=1"><title>' + title + "</title><h1>" + title + "</h1><p>" + text + "</p>";
}

function fromNetworkKeeping(request) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) return;
  if (url.pathname.indexOf("/static/") === 0) {
    // Offline, a page kept before an upgrade asks for its scripts' older version: the current one stands in.
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fromNetworkKeeping(request).catch(function () {
        return caches.match(request, { ignoreSearch: true }).then(function (near) { return near || Response.error(); });
      });
    }));
    return;
  }
  if (request.mode === "navigate" || url.pathname.indexOf("/jsi18n/") === 0) {
    event.respondWith(fromNetworkKeeping(request).catch(function () {
      return caches.match(request).then(function (hit) {
        return hit || new Response(offlinePage(), { headers: { "Content-Type": "text/html; charset=utf-8" }, status: 503 });
      });
    }));
  }
});
