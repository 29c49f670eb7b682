// The language switch posts as soon as a language is chosen (its button is for pages without scripts).
// Listening on the document keeps it working after the table page puts a fresh copy of the page in place.
document.documentElement.classList.add("js");
document.addEventListener("change", (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.form && select.form.classList.contains("language")) {
    select.form.submit();
  }
});
