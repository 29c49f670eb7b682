// Signing out on a device that kept table pages for offline use (issue 27, docs/offline.md): the pages
// kept by the service worker are forgotten, so that the next person on a shared phone does not find them
// offline; moves still waiting to be sent are never dropped: the scorer is told how many wait (they stay
// on the device, to be sent when a scorer of that table opens it again) and may stay signed in.
(function () {
  "use strict";
  var DB_NAME = "segnapunti-offline";  // offline.js's queue

  // The number of moves waiting in offline.js's queue; 0 when the device never kept one (the database is
  // not created here: an upgrade of a database that does not exist yet is abandoned).
  function waiting() {
    return new Promise(function (resolve) {
      if (!window.indexedDB) { resolve(0); return; }
      var request = indexedDB.open(DB_NAME);
      request.onupgradeneeded = function () { request.transaction.abort(); };
      request.onerror = function () { resolve(0); };
      request.onsuccess = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains("moves")) { db.close(); resolve(0); return; }
        var count = db.transaction("moves").objectStore("moves").count();
        count.onsuccess = function () { db.close(); resolve(count.result); };
        count.onerror = function () { db.close(); resolve(0); };
      };
    });
  }

  function forgetPages() {
    if (!window.caches) { return Promise.resolve(); }
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf("segnapunti-table-") === 0; })
        .map(function (n) { return caches.delete(n); }));
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("signout") || form.dataset.checked) {
      return;
    }
    event.preventDefault();
    waiting().then(function (count) {
      if (count > 0 && !window.confirm(form.dataset.waiting.replace("{count}", String(count)))) {
        return;
      }
      return forgetPages().catch(function () { /* nothing kept, or not allowed: sign out all the same */ })
        .then(function () { form.dataset.checked = "1"; form.submit(); });
    });
  });
})();
