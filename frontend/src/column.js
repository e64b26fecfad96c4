// "My column": on a phone, a player picks their seat once and the score pad
// shows only their column, with the field names beside it; everyone's totals
// and who is still filling in are listed below. "Everyone" is the full grid.
// A player is still filling in while their column is not valid: the kernel
// marks each column's heading "column-open" or "column-done" (an empty box
// that means zero, as in Shimoda's or Shogun's pads, is valid).
// The choice belongs to this device alone (kept in its localStorage), never
// to the game that every device shares.

import { setDevicePlayer } from "./kernel.js";

const KEY = `companion-my-column:${window.location.pathname}`;

function stored() {
  try {
    const value = window.localStorage.getItem(KEY);
    return value === null || value === "" ? null : Number(value);
  } catch (error) {
    return null;
  }
}

function store(seat) {
  try {
    window.localStorage.setItem(KEY, seat === null ? "" : String(seat));
  } catch (error) {
    // a private window may refuse: the choice lasts as long as the page
  }
}

function text(element) {
  return element ? element.textContent.trim() : "";
}

// Builds the bar above one pad's grid and keeps the pad as the seat says.
function column(pad) {
  const grid = pad.querySelector(".grid");
  const scroller = pad.querySelector(".padscroll");
  if (!grid || !scroller || pad.querySelector(".my-column")) {
    return;
  }
  const bar = document.createElement("div");
  bar.className = "my-column";
  const label = document.createElement("label");
  label.textContent = "My column ";
  const select = document.createElement("select");
  select.setAttribute("aria-label", "My column");
  label.appendChild(select);
  bar.appendChild(label);
  const summary = document.createElement("p");
  summary.className = "my-summary";
  summary.setAttribute("role", "status");
  scroller.before(bar);
  scroller.after(summary);
  let seat = stored();

  function heads() {
    return Array.from(grid.children).filter((child) => child.classList.contains("head"));
  }

  function apply() {
    const names = heads().map(text);
    const players = names.length;
    if (!players) {
      return;
    }
    if (seat !== null && seat >= players) {
      seat = null;
    }
    const options = ["Everyone (full grid)", ...names];
    if (select.options.length !== options.length || Array.from(select.options).some((o, i) => o.text !== options[i])) {
      select.replaceChildren(...options.map((name, i) => new Option(name, i === 0 ? "" : String(i - 1))));
    }
    select.value = seat === null ? "" : String(seat);
    // The player this device belongs to names it to the other devices ("Aki's
    // device changed it"): the kernel reads it as the messages' user name.
    setDevicePlayer(seat === null ? "" : names[seat]);
    const children = Array.from(grid.children);
    children.forEach((child, index) => {
      const at = index % (players + 1);
      child.classList.toggle("other-column", seat !== null && at !== 0 && at !== seat + 1);
    });
    grid.classList.toggle("one-column", seat !== null);
    if (seat === null) {
      summary.textContent = "";
      return;
    }
    const totals = children.filter((child) => child.classList.contains("total")).slice(0, players);
    const columns = heads();
    const scores = names.map((name, i) => `${name} ${text(totals[i]) || "–"}`).join(" · ");
    const filling = names.filter((_, i) => columns[i].classList.contains("column-open"));
    summary.textContent = `Totals: ${scores}. ` + (filling.length ? `Still filling in: ${filling.join(", ")}.` : "Every column is filled in.");
  }

  select.addEventListener("change", () => {
    seat = select.value === "" ? null : Number(select.value);
    store(seat);
    apply();
  });
  let queued = false;
  new MutationObserver(() => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        apply();
      });
    }
  }).observe(grid, { childList: true, subtree: true, characterData: true });
  grid.addEventListener("input", apply);
  setInterval(apply, 1000); // values typed on other devices
  apply();
}

// Every pad on the page, now and after a rebuild (another player count).
export function myColumn(root) {
  root.querySelectorAll(".scorepad").forEach(column);
  new MutationObserver(() => root.querySelectorAll(".scorepad").forEach(column)).observe(root, {
    childList: true,
    subtree: true,
  });
  const style = document.createElement("style");
  style.textContent =
    ".grid.one-column > .other-column { display: none !important; }" +
    // The field names as narrow as in the full grid (the page's phone width, or the
    // game's own), so that a column's boxes keep their row (Shogun's four per region).
    ".grid.one-column { grid-template-columns: minmax(6em, var(--companion-label, max-content)) minmax(9em, 1fr) !important; }" +
    ".my-column select { min-height: 44px; font: inherit; }";
  document.head.appendChild(style);
}
