// The table pages' service worker (issue 27, docs/offline.md): it keeps the table page and its assets so
// that a page opened once opens again without a network. Pages and assets are fetched from the network
// first (a page is always the server's latest when there is one) and kept; when the network fails, the
// kept copy answers. The API and the writes are never answered from here: the page's own queue
// (offline.js, in IndexedDB) holds the moves that wait, and sends them itself.
"use strict";
var CACHE = "segnapunti-table-v1";
var ASSETS = {{ assets|safe }};
var NETWORK_MS = 4000;  // a network that does not answer in this long counts as gone

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("segnapunti-table-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true });
  });
}

// The network's answer, kept for next time; when it fails, the copy kept. When it is slow (more than
// NETWORK_MS) and there is a copy, the copy; without a copy, the network is waited for however long.
// The worker is held alive (waitUntil) until the copy is written: the browser may stop a worker once
// its answer is given, and a copy not yet written would be lost with it.
function keptOrNetwork(event) {
  var request = event.request;
  var written = Promise.resolve();
  var network = fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      written = caches.open(CACHE).then(function (cache) { return cache.put(request.url, copy); });
    }
    return response;
  });
  event.waitUntil(network.then(function () { return written; }).catch(function () { /* the copy kept stays */ }));
  var slow = new Promise(function (resolve) { setTimeout(resolve, NETWORK_MS); }).then(function () {
    return kept(request.url).then(function (hit) { return hit || network; });
  });
  var failed = network.catch(function (error) {
    return kept(request.url).then(function (hit) {
      if (hit) { return hit; }
      throw error;
    });
  });
  return Promise.race([failed, slow]);
}

// The table page of a hand and the static files; nothing else (the API, the version poll, the writes).
var TABLE = /^\/matches\/\d+\/hands\/\d+\/$/;

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (TABLE.test(url.pathname) || ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(keptOrNetwork(event));
  }
});
