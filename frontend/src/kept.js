// A value typed is a value kept: what this device typed reaches the kernel,
// and when it really cannot, the device says so.
//
// - When the page is hidden (a phone locked, another app) or closed, the last
//   keys typed are sent at once: a box sends each change only once the
//   kernel has handled the one before, and a closing page would lose the rest.
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

/** Sends the last keys when the page is hidden or closed; keeps what cannot be sent. */
export function keepOnLeaving(kernel, manager, kernelId) {
  const leave = (closing) => {
    const active = document.activeElement;
    if (active && active.matches && active.matches(".widget-text input, .widget-textarea textarea")) {
      // A box that sends its value when it is left sends it now (one that sends
      // every key ignores this).
      active.dispatchEvent(new Event("change", { bubbles: true }));
    }
    manager.sendWaiting();
    if (closing || !kernel.connected()) {
      stash(kernelId, manager.unconfirmed());
    }
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      leave(false);
    }
  });
  window.addEventListener("pagehide", () => leave(true));
}
