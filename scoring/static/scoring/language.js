// The language switch posts as soon as a language is chosen; without the script, its button does it.
document.querySelectorAll("form.language select").forEach((select) => {
  select.addEventListener("change", () => select.form.submit());
  const button = select.form.querySelector("button");
  if (button) button.hidden = true;
});
