// A value typed is a value kept: what this device typed reaches the kernel,
// and when it really cannot, the device says so.
//
// - When the page is hidden (a phone locked, another app) or closed, the last
//   keys typed are sent at once: a box sends each change only once the
//   kernel has handled the one before, and a closing page would lose the rest.
//   They go on the websocket and, as the websocket of a closing page may never
//   send them, in a beacon too (companion/widgets/last_keys.py).
// - What the kernel has not confirmed when the page must go (it is closed
//   while the connection is down, the kernel or the server is gone) is kept
//   in this browser's storage and shown on this game's page next time:
//   "typed on this device and not kept".

const KEY = "companion-unsent";
const MAX_VALUES = 40;
const MAX_TEXT = 200;

function storageKey() {
  return `${KEY}:${window.location.pathname}`;
}

function shortText(value) {
  return String(value).replace(/\s+/g, " ").slice(0, MAX_TEXT);
}

/** Keeps what was not confirmed, for the next visit of this page. */
export function stash(kernelId, unconfirmed) {
  const values = unconfirmed.slice(0, MAX_VALUES).map(({ label, state }) => ({
    label: shortText(label),
    value: shortText(state.value),
  }));
  try {
    if (values.length) {
      window.localStorage.setItem(storageKey(), JSON.stringify({ kernelId, at: Date.now(), values }));
    } else {
      window.localStorage.removeItem(storageKey());
    }
  } catch (error) {
    /* storage refused: nothing to show next time */
  }
}

/**
 * What an earlier visit of this page could not send, as lines to show (and forgotten).
 * A value the kernel now holds is not listed: it was kept after all.
 */
export function takeStashed(manager) {
  let stored = null;
  try {
    stored = JSON.parse(window.localStorage.getItem(storageKey()) || "null");
    window.localStorage.removeItem(storageKey());
  } catch (error) {
    return [];
  }
  if (!stored || !Array.isArray(stored.values)) {
    return [];
  }
  const held = new Set();
  for (const model of manager.live.values()) {
    const value = model.get("value");
    if (typeof value === "string" || typeof value === "number") {
      held.add(`${shortText(model.get("tooltip") || model.get("description") || model.get("placeholder") || "")}\u0000${shortText(value)}`);
    }
  }
  return stored.values
    .filter((v) => v && typeof v.label === "string" && typeof v.value === "string")
    .filter((v) => !held.has(`${v.label}\u0000${v.value}`))
    .map((v) => (v.label ? `${v.label}: ${v.value}` : v.value));
}

/**
 * Sends what the kernel has not confirmed in a beacon, which the browser
 * delivers after the page is gone (a closing page's websocket is torn down
 * with it, often before its last message left). The server passes each change
 * to the kernel as the same message (its id): one that arrives both ways is
 * applied once. Returns false when the browser refused the beacon.
 */
export function beacon(kernel, base, kernelId) {
  const changes = kernel.takeForBeacon();
  if (!changes.length || !navigator.sendBeacon) {
    return !changes.length;
  }
  const body = new Blob([JSON.stringify({ changes: changes.slice(0, MAX_VALUES) })], { type: "text/plain" });
  try {
    return navigator.sendBeacon(`${base}companion/kept/${encodeURIComponent(kernelId)}`, body);
  } catch (error) {
    return false;
  }
}

/** Sends the last keys when the page is hidden or closed; keeps what cannot be sent. */
export function keepOnLeaving(kernel, manager, kernelId, base = "/") {
  const leave = (closing) => {
    const active = document.activeElement;
    if (active && active.matches && active.matches(".widget-text input, .widget-textarea textarea")) {
      // A box that sends its value when it is left sends it now (one that sends
      // every key ignores this).
      active.dispatchEvent(new Event("change", { bubbles: true }));
    }
    manager.sendWaiting();
    const sent = beacon(kernel, base, kernelId);
    if (closing || !sent || !kernel.connected()) {
      // Shown on this game's page next time, unless the kernel holds it by then.
      stash(kernelId, manager.unconfirmed());
    }
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      leave(false);
    }
  });
  window.addEventListener("pagehide", () => leave(true));
  // table.js is about to reload the page (its kernel is gone, or it came back
  // from the back-forward cache): what was not confirmed is kept first.
  window.addEventListener("companion-before-reload", () => leave(true));
}
