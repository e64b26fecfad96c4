// An HTML panel that never puts a value into the page as markup.
//
// Every HTML widget's value comes from the kernel (devices cannot change one:
// the server and the kernel refuse it), and the kernel writes any player's text
// as text. As a last line all the same, a value is parsed in a document of its
// own (DOMParser: nothing in it runs or loads) and rebuilt here with DOM calls,
// element by element, keeping only the tags and attributes of this allowlist;
// whatever else is dropped (a script, an event handler, a javascript: link), and
// the game pages' Content-Security-Policy refuses inline scripts besides.
import { HTMLView as PlainHTMLView } from "@jupyter-widgets/controls";

const SVG = "http://www.w3.org/2000/svg";

// Elements shown with their children; those not listed (and not dropped) are unwrapped.
const TAGS = new Set([
  "a", "b", "br", "caption", "code", "col", "colgroup", "dd", "del", "details", "div", "dl",
  "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "ins", "kbd", "li", "mark",
  "ol", "p", "pre", "q", "s", "section", "small", "span", "strong", "style", "sub",
  "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul",
  // The history's charts.
  "svg", "g", "line", "polyline", "polygon", "rect", "circle", "ellipse", "path", "text",
  "tspan", "title", "desc",
]);
// Elements dropped with everything inside them.
const DROPPED = new Set([
  "script", "iframe", "frame", "frameset", "object", "embed", "applet", "link", "meta",
  "base", "form", "input", "button", "select", "option", "textarea", "template", "noscript",
  "img", "image", "video", "audio", "source", "track", "picture", "canvas", "math",
  "foreignobject", "use", "animate", "animatemotion", "animatetransform", "set", "portal",
]);
const ATTRIBUTES = new Set([
  "class", "role", "title", "tabindex", "colspan", "rowspan", "scope", "headers", "lang",
  "dir", "datetime", "open", "style", "href",
  // SVG's drawing attributes.
  "viewbox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx",
  "ry", "points", "d", "fill", "stroke", "stroke-width", "stroke-dasharray",
  "stroke-linecap", "stroke-linejoin", "text-anchor", "dominant-baseline", "font-size",
  "font-weight", "opacity", "fill-opacity", "stroke-opacity", "transform",
  "preserveaspectratio", "dx", "dy",
]);
const UNSAFE_STYLE = /url\s*\(|expression\s*\(|@import|javascript:|behavior\s*:|-moz-binding/i;

/** Whether an attribute (lower-case name) with this value is kept. */
export function keptAttribute(name, value) {
  if (name.startsWith("on")) {
    return false;
  }
  if (name.startsWith("aria-") || name.startsWith("data-")) {
    return /^[a-z0-9-]+$/.test(name);
  }
  if (!ATTRIBUTES.has(name)) {
    return false;
  }
  if (name === "href") {
    // The page's own addresses only (no javascript:, data: or another site).
    return /^(\/(?!\/)|#|\?)/.test(value.trim());
  }
  if (name === "style") {
    return !UNSAFE_STYLE.test(value);
  }
  return true;
}

function rebuild(node, into) {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      into.appendChild(document.createTextNode(child.nodeValue));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) {
      continue; // comments, processing instructions
    }
    const tag = child.localName.toLowerCase();
    if (DROPPED.has(tag)) {
      continue;
    }
    if (!TAGS.has(tag)) {
      rebuild(child, into);
      continue;
    }
    const svg = child.namespaceURI === SVG;
    const made = svg ? document.createElementNS(SVG, child.localName) : document.createElement(tag);
    for (const attribute of Array.from(child.attributes)) {
      const name = attribute.name.toLowerCase();
      if (keptAttribute(name, attribute.value)) {
        made.setAttribute(svg ? attribute.name : name, attribute.value);
      }
    }
    if (tag === "style") {
      // A style sheet keeps its text, and only when it loads nothing.
      if (!UNSAFE_STYLE.test(child.textContent)) {
        made.textContent = child.textContent;
      }
    } else {
      rebuild(child, made);
    }
    into.appendChild(made);
  }
}

/** The markup as DOM nodes of the allowlist: a fragment to put into the page. */
export function clean(markup) {
  const parsed = new DOMParser().parseFromString(`<!DOCTYPE html><body>${String(markup ?? "")}`, "text/html");
  const fragment = document.createDocumentFragment();
  rebuild(parsed.head, fragment); // a leading <style> is parsed into the head
  rebuild(parsed.body, fragment);
  return fragment;
}

export class HTMLView extends PlainHTMLView {
  update() {
    this.content.replaceChildren(clean(this.model.get("value")));
    // StringView's update (the description and the tooltip), not HTMLView's innerHTML.
    return Object.getPrototypeOf(PlainHTMLView.prototype).update.call(this);
  }
}
