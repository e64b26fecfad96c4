// The scheme chosen last, set before the page is drawn (a file of its own, loaded
// in the page's head: the Content-Security-Policy refuses inline scripts).
try {
  var chosen = localStorage.getItem("companion-scheme");
  if (chosen === "dark" || chosen === "light") { document.documentElement.dataset.scheme = chosen; }
} catch (e) { /* storage refused: the system's scheme */ }
