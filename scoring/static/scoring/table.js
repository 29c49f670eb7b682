// The table entry page without page reloads.
//
// A tap on a card (any form of the page marked "once") is sent in the background; the server answers
// with the table as it now stands (the view sees the X-Requested-With header and renders instead of
// redirecting), which takes the place of the page's own content: the scroll position stays where the
// scorer's thumb is. Each form carries its own idempotency key, so a tap sent twice (a double tap, a
// retry after the Wi-Fi dropped) is recorded once. The page also asks every few seconds for the hand's
// version, and reloads its content in place when another device has recorded a move.
//
// The move buttons themselves are offline.js's: a tap is queued on the device and sent from there (issue
// 27); each time this script puts a fresh table in place it says so ("table:swapped"), and offline.js
// lays what still waits over it.
(function () {
  "use strict";
  var POLL_MS = 3000;
  var busy = false;

  function root() { return document.getElementById("table-root"); }

  function swap(html) {
    var next = new DOMParser().parseFromString(html, "text/html");
    var page = document.querySelector(".page");
    var fresh = next.querySelector(".page");
    if (!page || !fresh) { return false; }
    page.innerHTML = fresh.innerHTML;
    if (next.title) { document.title = next.title; }
    // A keyed card (or a seat's cards) refused: the reason is beside the field; bring both into view,
    // the field focused, ready to correct.
    var refused = document.querySelector(".field-error[role=alert]");
    var field = refused && (document.getElementById(refused.id === "card-error" ? "id_card" : "") ||
                            refused.parentElement.querySelector("input"));
    if (refused) { refused.scrollIntoView({ block: "center" }); }
    if (field) { field.focus(); }
    document.dispatchEvent(new Event("table:swapped"));
    return true;
  }

  function offline(text) {
    var box = root() && root().querySelector(".offline");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = !text;
  }

  function send(form, submitter) {
    var body = new FormData(form);
    if (submitter && submitter.name) { body.append(submitter.name, submitter.value); }
    busy = true;
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    return fetch(form.action, {
      method: "POST",
      body: body,
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
    }).then(function (response) {
      if (response.redirected) {  // a new hand, the sheet: another page, loaded as one
        window.location.assign(response.url);
        return;
      }
      return response.text().then(function (html) {
        if (!swap(html)) { window.location.reload(); }
      });
    }).catch(function () {
      // Nothing came back: the move may or may not have reached the server. The same tap again
      // carries the same key, so it cannot be recorded twice.
      form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
      offline(root().dataset.offline);
    }).finally(function () { busy = false; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("once") || !root()) { return; }
    if (!root().contains(form) || !window.fetch) { return; }
    event.preventDefault();
    if (busy) { return; }
    send(form, event.submitter);
  });

  function refresh() {
    var here = root();
    if (!here) { return Promise.resolve(); }
    return fetch(here.dataset.tableUrl, {
      headers: { "X-Requested-With": "fetch" }, credentials: "same-origin", cache: "no-store",
    }).then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html && !busy) { swap(html); } })
      .catch(function () { /* no network: the next poll tries again */ });
  }

  function follow() {
    var here = root();
    if (!here || busy || document.hidden) { return; }
    // While offline.js sends its queue, the version moves with each of its moves: it puts the table in
    // place itself once the queue is sent.
    if (window.segnapuntiOffline && window.segnapuntiOffline.sending()) { return; }
    fetch(here.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || busy || String(data.version) === root().dataset.version) { return; }
        return refresh();
      })
      .catch(function () { /* the next poll tries again */ });
  }

  window.segnapuntiTable = { refresh: refresh };
  window.setInterval(follow, POLL_MS);
})();
