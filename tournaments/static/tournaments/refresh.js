// Keeps a part of a page up to date by itself: every few seconds it asks the server for that part again
// and puts the answer in its place (the round's progress for a director watching the room, the live
// board on the club's screen). A region says where to ask and how often:
//   <div data-refresh-url="/…/progress/" data-refresh-seconds="15">…</div>
// Nothing is asked while the page is hidden, and at once when it shows again; if the server does not
// answer, the region is marked stale and the last answer stays. Without JavaScript, the page's own
// <noscript> meta refresh reloads the whole page instead.
(function () {
  "use strict";
  function follow(region) {
    var url = region.getAttribute("data-refresh-url");
    var seconds = parseInt(region.getAttribute("data-refresh-seconds") || "15", 10);
    var busy = false;
    var count = 0;
    function refresh() {
      if (busy || document.hidden) return;
      busy = true;
      fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          // A redirect is the sign-in page (the session ended): not a part to put in place.
          if (!response.ok || response.redirected) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(function (html) {
          region.innerHTML = html;
          count += 1;
          region.setAttribute("data-refresh-count", String(count));
          region.classList.remove("stale");
        })
        .catch(function () { region.classList.add("stale"); })
        .finally(function () { busy = false; });
    }
    setInterval(refresh, Math.max(seconds, 1) * 1000);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  }
  document.querySelectorAll("[data-refresh-url]").forEach(follow);
})();
