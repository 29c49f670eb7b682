// The table page without a network (issue 27, docs/offline.md).
//
// Every tap on a move goes first into a queue in IndexedDB (the move, its idempotency key), is shown at
// once on the felt as not yet sent, and is then sent through the API, in the order of the taps: the
// whole queue in one request (POST .../moves/queue/), which the server records move by move. A move's expected version is the version the server will be at
// when it arrives: the version the queue was built on (`base`) plus the move's position in the queue.
// `base` moves on only with the server's own answers: a move accepted (201, or 200 for a resend the
// server had already recorded) makes the answer's version the new base. A move sent without an answer
// (the network dropped on the way back) is sent again with the same key and the same expected version,
// so the server recognises it and answers with what it recorded: never twice.
//
// A refusal stops the queue at that move (the moves after it wait), shown against it with the server's
// words: 409 (another device recorded that turn: the log is never overwritten) or 422 (an impossible
// keying). The scorer undoes it (it leaves the queue), changes it (the next card tapped takes its place)
// or sends it again; after a 409, what he chooses is built on the version the server gave, which he now
// sees on the felt. Nothing is dropped without his tap.
//
// Sending starts by itself: on each tap, when the browser says the network is back, and every few
// seconds while anything waits (no Background Sync, which Safari and Firefox lack). Two tabs on the
// same hand send one at a time (Web Locks, where the browser has them).
//
// While moves wait, the page offers the next moves itself, from the hand's last state (kept in IndexedDB
// with the queue): with the deal recorded, each seat's cards left (a tapped card names its seat); without
// it, the cards nobody has seen yet for the seat whose turn it is within a trick, and, at a trick's end,
// a question: who leads the next one? The verdicts come from the server when the moves are sent.
(function () {
  "use strict";
  var SYNC_MS = 3000;
  var CACHE = "segnapunti-table-v1";  // the service worker's (templates/scoring/sw.js)
  var DB_NAME = "segnapunti-offline";

  var words = {};
  var page = null;        // the hand as the page was rendered (its data attribute)
  var record = null;      // the hand as kept in IndexedDB: {hand, api, seats, cards, snap, base, baseSnap}
  var list = [];          // the queue of this hand, in order
  var changing = null;    // the id of a refused move whose replacement is the next card tapped
  var leader = null;      // without the deal: the seat the scorer said leads the next trick
  var sending = false;
  var again = false;
  var trouble = "";       // what the last attempt to send met: "", "offline", "signin", "stopped"

  function root() { return document.getElementById("table-root"); }

  // ---- IndexedDB --------------------------------------------------------------------------------
  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = function () {
          var moves = request.result.createObjectStore("moves", { keyPath: "id", autoIncrement: true });
          moves.createIndex("hand", "hand");
          request.result.createObjectStore("hands", { keyPath: "hand" });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }

  function store(name, mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var tx = base.transaction(name, mode);
        var result;
        var request = work(tx.objectStore(name));
        if (request) { request.onsuccess = function () { result = request.result; }; }
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function load(hand) {
    return store("moves", "readonly", function (s) { return s.index("hand").getAll(hand); })
      .then(function (rows) { return (rows || []).sort(function (a, b) { return a.id - b.id; }); });
  }
  function save(entry) { return store("moves", "readwrite", function (s) { return s.put(entry); }); }
  function drop(id) { return store("moves", "readwrite", function (s) { return s.delete(id); }); }
  function keep() { return store("hands", "readwrite", function (s) { return s.put(record); }); }
  function kept(hand) { return store("hands", "readonly", function (s) { return s.get(hand); }); }

  function newKey() {
    if (window.crypto && crypto.randomUUID) { return "tap-" + crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return "tap-" + Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // ---- the hand's state -------------------------------------------------------------------------
  // The engine's state as the API gives it (selectors.hand_state), reduced to what the page needs: the
  // same shape as scoring/pages/offline.py writes into the page.
  function compact(hs) {
    var st = hs.state || {};
    var legal = st.legal_moves || [];
    var plays = legal.filter(function (m) { return m.type === "play"; });
    return {
      version: hs.version,
      state: {
        phase: st.phase, over: !!st.over, deal_known: !!st.deal_known, hands: st.hands || null,
        hand_counts: st.hand_counts || null, to_act: st.to_act || [], trick: st.trick || null,
        last_trick: st.last_trick || null, plays: plays,
        complete: plays.length === (st.legal_move_count === undefined ? legal.length : st.legal_move_count),
      },
    };
  }

  function trickSize(st) {
    if (st.last_trick && st.last_trick.plays && st.last_trick.plays.length) { return st.last_trick.plays.length; }
    var inTrick = (st.trick && st.trick.plays || []).map(function (p) { return p[0]; });
    return (st.hand_counts || []).filter(function (n, seat) { return n > 0 || inTrick.indexOf(seat) >= 0; }).length;
  }

  // The hand after the queued moves, worked out from the state the queue was built on.
  function project(snap, moves) {
    var st = snap.state;
    var n = record.seats.length;
    var out = {
      hands: st.deal_known && st.hands ? st.hands.map(function (h) { return h.slice(); }) : null,
      unseen: null,
      trick: st.trick && st.trick.plays ? st.trick.plays.map(function (p) { return p.slice(); }) : [],
      toAct: st.to_act.length === 1 ? st.to_act[0] : null,
      playing: st.phase === "play" && !st.over && (st.deal_known || st.complete),
      over: !!st.over,
    };
    if (!out.hands) {
      out.unseen = [];
      st.plays.forEach(function (m) { if (out.unseen.indexOf(m.card) < 0) { out.unseen.push(m.card); } });
    }
    var size = trickSize(st);
    moves.forEach(function (entry) {
      var move = entry.move;
      if (move.type !== "play") { out.playing = false; return; }
      var from = out.hands ? out.hands[move.seat] : out.unseen;
      var at = from ? from.indexOf(move.card) : -1;
      if (at >= 0) { from.splice(at, 1); }
      out.trick.push([move.seat, move.card]);
      if (out.trick.length >= size) {
        out.trick = [];
        out.toAct = null;
      } else {
        out.toAct = (move.seat + 1) % n;
      }
    });
    if (out.playing) {
      var left = out.hands ? out.hands.reduce(function (t, h) { return t + h.length; }, 0) : null;
      if (left === 0 && out.trick.length === 0) { out.playing = false; out.done = true; }
    }
    return out;
  }

  // ---- what the screen says ----------------------------------------------------------------------
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }
  function seatName(seat) { return record.seats[seat] || String(seat + 1); }
  function cardName(code) { return record.cards[code] || code; }
  function say(key, values) {
    var text = words[key] || key;
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(values[k]); });
    return text;
  }
  function label(move) {
    if (move.type === "play") { return seatName(move.seat) + ": " + cardName(move.card); }
    return (typeof move.seat === "number" ? seatName(move.seat) + ": " : "") + move.type;
  }

  function cardButton(seat, code) {
    var b = el("button", {
      type: "button", "class": "card suit-" + code.slice(-1),
      "data-move": JSON.stringify({ type: "play", seat: seat, card: code }),
      "aria-label": cardName(code),
    });
    b.appendChild(el("span", { "class": "full" }, cardName(code)));
    b.appendChild(el("small", {}, code));
    return b;
  }

  function cardRow(seat, codes) {
    var row = el("div", { "class": "suit-row", "data-seat": String(seat) });
    codes.forEach(function (code) { row.appendChild(cardButton(seat, code)); });
    return row;
  }

  function showing() {
    return list.length > 0 || (record && page && record.snap.version > page.version);
  }

  function renderPending(here) {
    var felt = here.querySelector(".felt");
    var box = here.querySelector(".pending-moves");
    if (!box) {
      box = el("div", { "class": "pending-moves", "aria-live": "polite" });
      if (felt) { felt.appendChild(box); } else { here.insertBefore(box, here.firstChild); }
    }
    box.textContent = "";
    box.hidden = list.length === 0;
    if (!list.length) { return; }
    box.appendChild(el("p", { "class": "pending-count", role: "status" },
      list.length === 1 ? say("one") : say("many", { n: String(list.length) })));
    var ol = el("ol", { "class": "pending-list" });
    list.forEach(function (entry) {
      var li = el("li", { "class": "pending " + entry.state, "data-key": entry.key });
      li.appendChild(el("span", { "class": "what" }, label(entry.move)));
      if (entry.state === "refused") {
        li.setAttribute("role", "alert");
        li.appendChild(el("span", { "class": "tag refused-tag" }, " " + say("refused") + " "));
        li.appendChild(el("span", { "class": "server-words" }, entry.error ? entry.error.message : ""));
        ["undo", "change", "resend"].forEach(function (act) {
          li.appendChild(el("button", { type: "button", "class": "small", "data-act": act, "data-id": String(entry.id) }, say(act)));
        });
      } else {
        li.appendChild(el("span", { "class": "tag" }, " · " + say("waiting")));
      }
      ol.appendChild(li);
    });
    box.appendChild(ol);
  }

  function renderEntry(here) {
    var section = here.querySelector(".columns > section");
    if (!section) { return; }
    var panel = section.querySelector("#offline-entry");
    var on = showing();
    Array.prototype.forEach.call(section.children, function (child) {
      if (child.id !== "offline-entry") { child.hidden = on; }
    });
    if (!on) { if (panel) { panel.remove(); } return; }
    if (!panel) {
      panel = el("div", { "class": "panel", id: "offline-entry" });
      section.insertBefore(panel, section.firstChild);
    }
    panel.textContent = "";
    panel.appendChild(el("h3", {}, say("next")));
    if (changing !== null) { panel.appendChild(el("p", { "class": "notice" }, say("changing"))); }
    // While a refused move is being changed, the hand as it stood before that move: its replacement
    // is chosen there.
    var before = list;
    if (changing !== null) {
      before = [];
      for (var i = 0; i < list.length && list[i].id !== changing; i++) { before.push(list[i]); }
    }
    var now = project(record.baseSnap || record.snap, before);
    var cards = el("div", { "class": "offline-cards" });
    if (now.done) {
      panel.appendChild(el("p", { "class": "muted" }, say("all_played")));
    } else if (!now.playing) {
      panel.appendChild(el("p", { "class": "muted" }, say(now.over ? "all_played" : "not_play")));
    } else if (now.hands) {
      if (now.toAct !== null) {
        panel.appendChild(el("p", { "class": "turn" }, say("plays", { seat: seatName(now.toAct) })));
        cards.appendChild(cardRow(now.toAct, now.hands[now.toAct]));
        panel.appendChild(cards);
        var others = el("details", { "class": "other-seats" });
        others.appendChild(el("summary", {}, say("other_seat")));
        now.hands.forEach(function (held, seat) {
          if (seat === now.toAct || !held.length) { return; }
          others.appendChild(el("p", { "class": "muted" }, seatName(seat)));
          others.appendChild(cardRow(seat, held));
        });
        panel.appendChild(others);
      } else {
        panel.appendChild(el("p", { "class": "turn" }, say("any_seat")));
        now.hands.forEach(function (held, seat) {
          if (!held.length) { return; }
          cards.appendChild(el("p", { "class": "muted" }, seatName(seat)));
          cards.appendChild(cardRow(seat, held));
        });
        panel.appendChild(cards);
      }
    } else {
      var seat = now.toAct !== null ? now.toAct : leader;
      if (seat === null) {
        panel.appendChild(el("p", { "class": "turn" }, say("lead")));
        var seats = el("div", { "class": "lead-seats" });
        record.seats.forEach(function (name, i) {
          seats.appendChild(el("button", { type: "button", "data-lead": String(i) }, say("leads", { seat: name })));
        });
        panel.appendChild(seats);
      } else {
        panel.appendChild(el("p", { "class": "turn" }, say("plays", { seat: seatName(seat) })));
        cards.appendChild(cardRow(seat, now.unseen));
        panel.appendChild(cards);
      }
    }
  }

  function renderStatus(here) {
    var box = here.querySelector(".offline");
    if (!box) { return; }
    var text = trouble && list.length ? say(trouble) : "";
    box.textContent = text;
    box.hidden = !text;
  }

  function render() {
    var here = root();
    if (!here || !record) { return; }
    here.dataset.pending = String(list.length);
    here.dataset.base = record.base === null || record.base === undefined ? "" : String(record.base);
    renderPending(here);
    renderEntry(here);
    renderStatus(here);
  }

  // ---- taps --------------------------------------------------------------------------------------
  function refreshList() {
    return load(record.hand).then(function (rows) { list = rows; render(); });
  }

  function tap(move) {
    var work;
    if (changing !== null) {
      var entry = list.filter(function (e) { return e.id === changing; })[0];
      changing = null;
      if (!entry) { return; }
      var rebased = rebaseIfConflict(entry);  // reads the refusal before it is cleared
      entry.move = move;
      entry.key = newKey();  // another move: another key (a key names one write)
      entry.state = "waiting";
      entry.error = null;
      work = rebased.then(function () { return save(entry); });
    } else {
      if (!list.length) {
        // The first move of a queue is built on the hand as the scorer sees it now.
        record.base = record.snap.version;
        record.baseSnap = record.snap;
      }
      work = keep().then(function () {
        return save({ hand: record.hand, key: newKey(), move: move, state: "waiting", tapped: Date.now() });
      });
    }
    leader = null;
    return work.then(refreshList).then(sync);
  }

  // After a 409, whatever the scorer chooses is built on the version the server gave (he sees it now).
  function rebaseIfConflict(entry) {
    if (!entry.error || entry.error.status !== 409 || typeof entry.error.current !== "number") {
      return Promise.resolve();
    }
    record.base = entry.error.current;
    if (record.snap.version === entry.error.current) { record.baseSnap = record.snap; }
    return keep();
  }

  function act(kind, id) {
    var entry = list.filter(function (e) { return e.id === id; })[0];
    if (!entry) { return Promise.resolve(); }
    if (kind === "change") { changing = id; render(); return Promise.resolve(); }
    var work = rebaseIfConflict(entry);
    if (kind === "undo") {
      work = work.then(function () { return drop(id); });
    } else if (kind === "resend") {
      entry.state = "waiting";
      entry.error = null;
      work = work.then(function () { return save(entry); });
    }
    return work.then(refreshList).then(sync);
  }

  // ---- sending -----------------------------------------------------------------------------------
  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field && field.value) { record.csrf = field.value; }
    return record.csrf || "";
  }

  function expectedFor(position) { return record.base + position; }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { status: response.status, body: data };
      });
    });
  }

  var QUEUE_MAX = 500;  // the API's limit on one queue (scoring/api/views.py)

  // The moves that can go now: from the head of the queue up to the first refused one.
  function ready(rows) {
    var out = [];
    for (var i = 0; i < rows.length && out.length < QUEUE_MAX; i++) {
      if (rows[i].state === "refused") { break; }
      out.push(rows[i]);
    }
    return out;
  }

  function accepted(version, state) {
    record.base = version;
    if (state) {
      var fresh = compact(state);
      record.baseSnap = fresh;
      if (fresh.version >= record.snap.version) { record.snap = fresh; }
    }
    trouble = "";
  }

  function refuse(entry, status, error, expected) {
    entry.state = "refused";
    entry.error = { status: status, code: error.code || "", message: error.message || String(status),
                    expected: expected, current: error.current_version };
    trouble = "stopped";
    return save(entry).then(function () { return load(record.hand); }).then(function (rows) {
      list = rows;
      if (status === 409) { follow(); }  // show on the felt what the other device recorded
      render();
    });
  }

  function unanswered(status) {
    trouble = status === 401 || status === 403 ? "signin" : "offline";
    render();
  }

  // One move alone (POST .../moves/): where the queue as a whole was refused as malformed, this finds
  // the move at fault and says so against it.
  function sendOne(head, sent) {
    var expected = expectedFor(0);
    return post(record.api, { move: head.move, expected_version: expected, idempotency_key: head.key })
      .then(function (answer) {
        var status = answer.status, body = answer.body || {};
        if (status === 200 || status === 201) {
          accepted(body.version, body.state);
          return keep().then(function () { return drop(head.id); }).then(function () { return step(sent + 1); });
        }
        if (status === 409 || status === 422 || status === 400) {
          return refuse(head, status, body, expected).then(function () { return sent; });
        }
        unanswered(status);
        return sent;
      }, function () { unanswered(0); return sent; });
  }

  // The queue, in one request (POST .../moves/queue/): the move at position i expects base + i; the
  // server records them in order and stops at the first it refuses. Without an answer, the same request
  // goes again: the same keys and versions, which the server recognises.
  function step(sent) {
    return load(record.hand).then(function (rows) {
      list = rows;
      if (!rows.length) { return sent; }
      if (rows[0].state === "refused") { trouble = "stopped"; render(); return sent; }
      if (record.base === null || record.base === undefined) { record.base = record.snap.version; }
      var batch = ready(rows);
      var body = {
        expected_version: expectedFor(0),
        moves: batch.map(function (e) { return { move: e.move, idempotency_key: e.key }; }),
      };
      return post(record.queue, body).then(function (answer) {
        var status = answer.status, data = answer.body || {};
        if (status === 400 || status === 422) { return sendOne(batch[0], sent); }
        if (status !== 200) { unanswered(status); return sent; }
        var done = (data.recorded || []).length;
        accepted(data.version, data.state);
        var work = keep();
        batch.slice(0, done).forEach(function (e) { work = work.then(function () { return drop(e.id); }); });
        return work.then(function () {
          if (data.refused) {
            var entry = batch[data.refused.index];
            return refuse(entry, data.refused.status, data.refused, data.version)
              .then(function () { return sent + done; });
          }
          return step(sent + done);
        });
      }, function () { unanswered(0); return sent; });
    });
  }

  function sync() {
    if (!record) { return Promise.resolve(); }
    if (sending) { again = true; return Promise.resolve(); }
    sending = true;
    var run = function () { return step(0); };
    var locked = navigator.locks && navigator.locks.request
      ? navigator.locks.request("segnapunti-send-" + record.hand, run) : run();
    return locked.then(function (sent) {
      if (sent && !list.length) {
        record.base = null;
        record.baseSnap = null;
        trouble = "";
        return keep().then(follow);
      }
    }, function () { /* IndexedDB or the lock failed: the next round tries again */ })
      .then(function () {
        sending = false;
        render();
        if (again) { again = false; return sync(); }
      });
  }

  // The table as the server has it now, in place (table.js); the page then reads its state again.
  function follow() {
    if (window.segnapuntiTable) { return window.segnapuntiTable.refresh(); }
    return Promise.resolve();
  }

  // ---- the page ----------------------------------------------------------------------------------
  function readPage() {
    var here = root();
    if (!here || !here.dataset.offlineHand) { return null; }
    try {
      words = JSON.parse(here.dataset.offlineWords || "{}");
      return JSON.parse(here.dataset.offlineHand);
    } catch (e) { return null; }
  }

  // A page rendered by the server (at load, or put in place by table.js): its state is the latest known
  // when it is newer than the one kept.
  function adopt() {
    page = readPage();
    if (!page) { return Promise.resolve(); }
    var snap = { version: page.version, state: page.state };
    return kept(page.hand).then(function (old) {
      record = old || { hand: page.hand, base: null, baseSnap: null, snap: snap };
      record.api = page.api;
      record.queue = page.queue;
      record.seats = page.seats;
      record.cards = page.cards;
      if (!record.snap || page.version >= record.snap.version) { record.snap = snap; }
      csrf();
      return keep();
    }).then(refreshList);
  }

  // The page itself, in the worker's cache, so that it opens without a network. The worker keeps each
  // table page it fetches, but a first visit's page came before the worker took over: the page asks for
  // itself once more. That request can fail (the network went in that moment), so it is not tried just
  // once: each round (when the network comes back, every few seconds) looks for the page in the cache
  // and asks again until it is there. Asked once only, a failure left the page out until the worker
  // next fetched it, and a reload offline in between found nothing (the browser's error page).
  var worker = false;     // a service worker is ready for this page
  var pageKept = false;   // the page is in the worker's cache
  var keeping = null;
  function keepPage() {
    if (keeping) { return keeping; }
    if (!worker || pageKept || !navigator.onLine || !window.caches) { return Promise.resolve(); }
    var here = location.pathname + location.search;
    keeping = caches.open(CACHE).then(function (cache) {
      return cache.match(here, { ignoreVary: true }).then(function (hit) { return hit || cache.add(here); });
    }).then(function () { pageKept = true; }, function () { /* no network now: the next round asks again */ })
      .then(function () { keeping = null; });
    return keeping;
  }

  function start() {
    if (!root() || !window.indexedDB) { return; }
    adopt().then(function () { if (list.length) { sync(); } });
    if ("serviceWorker" in navigator && root().dataset.serviceWorker) {
      navigator.serviceWorker.register(root().dataset.serviceWorker, { scope: root().dataset.serviceWorkerScope })
        .then(function () { return navigator.serviceWorker.ready; })
        .then(function () { worker = true; return keepPage(); })
        .catch(function () { /* no worker (a private window, http): the page still works online */ });
    }
    document.addEventListener("click", function (event) {
      var target = event.target instanceof Element ? event.target.closest("button") : null;
      if (!target || !root() || !root().contains(target)) { return; }
      if (target.dataset.move) { event.preventDefault(); tap(JSON.parse(target.dataset.move)); return; }
      if (target.dataset.lead) { event.preventDefault(); leader = Number(target.dataset.lead); render(); return; }
      if (target.dataset.act) { event.preventDefault(); act(target.dataset.act, Number(target.dataset.id)); }
    });
    // A tap on one of the server's move buttons: queued like any other (before table.js sees it).
    document.addEventListener("submit", function (event) {
      var form = event.target;
      var button = event.submitter;
      if (!record || !(form instanceof HTMLFormElement) || !root() || !root().contains(form)) { return; }
      if (!button || button.name !== "move" || !form.classList.contains("moves-buttons")) { return; }
      event.preventDefault();
      event.stopImmediatePropagation();
      try { tap(JSON.parse(button.value)); } catch (e) { /* not a move: nothing to queue */ }
    }, true);
    document.addEventListener("table:swapped", function () { adopt().then(render); });
    window.addEventListener("online", function () { sync(); keepPage(); });
    window.setInterval(function () { if (list.length) { sync(); } keepPage(); }, SYNC_MS);
    window.segnapuntiOffline = {
      pending: function () { return list.length; },
      sending: function () { return sending; },
      sync: sync,
    };
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
