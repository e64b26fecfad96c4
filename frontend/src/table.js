// The table's page behaviour that used to sit in the page template as inline
// scripts (the game pages' Content-Security-Policy refuses inline scripts):
// number keyboards and left cells, freeing the kernel when the page goes away,
// the heartbeat, names for screen readers, the scheme toggle and the running
// clock.
(function () {
  "use strict";
  var config = {};
  try {
    config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
  } catch (e) { /* the page has no kernel */ }
  var base = config.baseUrl || "/";
  var kernel = config.kernelId;

  // Number cells bring up the number keyboard; cells that were left show their problems.
  function mark(root) {
    root.querySelectorAll(".num input:not([inputmode])").forEach(function (input) {
      input.setAttribute("inputmode", "numeric");
      input.setAttribute("autocomplete", "off");
    });
    root.querySelectorAll(".cell input, .cell select").forEach(function (input) {
      if (!input.dataset.companion) {
        input.dataset.companion = "1";
        input.addEventListener("blur", function () {
          var cell = input.closest(".cell");
          if (cell) { cell.classList.add("left"); }
        });
      }
    });
  }
  // Widgets get their classes after they are attached: look again after every change.
  var queued = false;
  new MutationObserver(function () {
    if (queued) { return; }
    queued = true;
    requestAnimationFrame(function () { queued = false; mark(document); });
  }).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["class"]
  });
  mark(document);

  // Free the kernel as soon as the page goes away (phones fire pagehide, not beforeunload).
  var freed = false;
  function free() {
    if (freed || !kernel) { return; }
    freed = true;
    var form = new FormData();
    var xsrf = document.cookie.match("\\b_xsrf=([^;]*)\\b");
    form.append("_xsrf", (xsrf && xsrf[1]) || "");
    navigator.sendBeacon(base + "voila/api/shutdown/" + kernel, form);
  }
  window.addEventListener("pagehide", free);
  // Every reload first keeps what this device typed and the kernel has not
  // confirmed (kept.js listens: it sends it in a beacon and keeps it in this
  // browser's storage, shown on the page that comes if it did not arrive).
  function reload() {
    window.dispatchEvent(new Event("companion-before-reload"));
    window.location.reload();
  }
  // A page brought back from the browser's back-forward cache lost its kernel
  // when it was hidden: load it again (the game in progress comes back).
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { reload(); }
  });

  // Heartbeat: a page whose kernel was culled (a sleeping tablet) reloads itself;
  // the game in progress is kept in the history database and comes back.
  if (kernel) {
    setInterval(function () {
      if (document.visibilityState !== "visible" || freed) { return; }
      fetch(base + "api/kernels/" + kernel, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
        if (r.status === 404) { reload(); }
      }).catch(function () {});
    }, 15000);
  }
})();

(function () {
  "use strict";
  // The table's page: names for screen readers, focus on the result after Save,
  // the scheme toggle and the running clock.
  var root = document.documentElement;
  var toggle = document.querySelector(".companion-scheme");
  function dark() {
    var chosen = root.dataset.scheme;
    if (chosen) { return chosen === "dark"; }
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function showScheme() {
    if (!toggle) { return; }
    var on = dark();
    toggle.textContent = on ? "Light" : "Dark";
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.setAttribute("aria-label", on ? "Use the light scheme" : "Use the dark scheme");
  }
  if (toggle) {
    toggle.addEventListener("click", function () {
      var next = dark() ? "light" : "dark";
      root.dataset.scheme = next;
      try { localStorage.setItem("companion-scheme", next); } catch (e) { /* not remembered */ }
      showScheme();
    });
  }
  if (window.matchMedia) {
    var query = window.matchMedia("(prefers-color-scheme: dark)");
    if (query.addEventListener) { query.addEventListener("change", showScheme); }
  }
  showScheme();

  // A widget's tooltip is its control's name (title alone is not read everywhere).
  function name(rootNode) {
    // (A number box puts its tooltip on its hidden description label, or on its box.)
    rootNode.querySelectorAll(".companion input, .companion select, .companion button, .companion textarea")
      .forEach(function (control) {
        var parent = control.parentElement;
        var inline = parent && parent.classList.contains("widget-inline-hbox");
        var label = inline && parent.querySelector(":scope > label.widget-label[title]");
        var title = control.getAttribute("title") ||
          (label && label.getAttribute("title")) ||
          (inline && parent.getAttribute("title")) || "";
        if (title && control.getAttribute("aria-label") !== title) {
          control.setAttribute("aria-label", title);
        }
      });
    var saved = rootNode.querySelector(".companion .result-focus:not([data-focused])");
    if (saved) {
      saved.dataset.focused = "1";
      saved.focus();
    }
  }
  var pending = false;
  new MutationObserver(function () {
    if (pending) { return; }
    pending = true;
    requestAnimationFrame(function () { pending = false; name(document); });
  }).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["title", "class"]
  });
  name(document);

  // The clock: the kernel says when the running stretch began, the page counts.
  function clockText(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }
  setInterval(function () {
    document.querySelectorAll(".clock-time[data-since]").forEach(function (shown) {
      var since = Number(shown.dataset.since), base = Number(shown.dataset.base);
      var now = base + Math.max(0, Math.floor((Date.now() - since) / 1000));
      var text = clockText(now);
      if (shown.textContent !== text) { shown.textContent = text; }
    });
  }, 1000);

  // The screen is kept on by awake.js (the Wake Lock API, or a muted video).
})();
