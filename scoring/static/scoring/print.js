// The score sheet's Print button (a script file, not an inline handler: the Content-Security-Policy
// allows scripts from the site's own files only).
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("[data-print]")) {
    window.print();
  }
});
