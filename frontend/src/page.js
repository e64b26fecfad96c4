// The companion's web page: shows the widgets of the notebook Voilà ran,
// connected to its kernel. It replaces Voilà's own front end (a JupyterLab
// application of about 4 MB of script) with the widget controls alone.
import "@jupyter-widgets/controls/css/widgets.css";
import "@jupyter-widgets/controls/css/lumino.css";
import "./page.css";
import { Kernel } from "./kernel.js";
import { WidgetManager } from "./manager.js";
import { myColumn } from "./column.js";
import { keepOnLeaving, stash, takeStashed } from "./kept.js";
import { keepAwake } from "./awake.js";
import { clean } from "./html.js";
import "./table.js";

const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";

function config() {
  const element = document.getElementById("jupyter-config-data");
  return element ? JSON.parse(element.textContent) : {};
}

function show() {
  const loading = document.getElementById("loading");
  if (loading) {
    loading.remove();
  }
  const cells = document.getElementById("rendered_cells");
  if (cells) {
    cells.style.display = "";
  }
}

function plain(text, className) {
  const pre = document.createElement("pre");
  pre.className = className;
  pre.textContent = text;
  return pre;
}

// One cell output, in place of the script that carries it.
async function render(manager, script) {
  const output = JSON.parse(script.textContent);
  const box = document.createElement("div");
  box.className = "companion-output";
  script.replaceWith(box);
  const data = output.data || {};
  if (output.output_type === "error") {
    box.appendChild(plain(`${output.ename}: ${output.evalue}`, "companion-error"));
  } else if (output.output_type === "stream") {
    box.appendChild(plain(output.text, "companion-stream"));
  } else if (data[WIDGET_VIEW] && manager.has_model(data[WIDGET_VIEW].model_id)) {
    await manager.display(data[WIDGET_VIEW].model_id, box);
  } else if (data["text/html"]) {
    // The notebook's own output, rebuilt from the allowlist like any HTML panel.
    box.appendChild(clean([].concat(data["text/html"]).join("")));
  } else if (data["text/plain"]) {
    box.appendChild(plain([].concat(data["text/plain"]).join(""), "companion-stream"));
  }
}

// A line at the foot of the screen while something is wrong; null takes it away.
// It covers nothing that is being typed and moves nothing on the page: the box
// being typed in keeps its place, its focus and its keyboard.
function trouble(text, { urgent = true } = {}) {
  let banner = document.querySelector(".companion-trouble");
  if (text === null) {
    if (banner) {
      banner.remove();
    }
    return;
  }
  if (!banner) {
    banner = document.createElement("p");
    banner.className = "companion-trouble";
    document.body.append(banner);
  }
  banner.setAttribute("role", urgent ? "alert" : "status");
  banner.textContent = text;
}

// Values typed on this device that an earlier visit of this page could not send.
function notKept(lines) {
  if (!lines.length) {
    return;
  }
  const box = document.createElement("section");
  box.className = "companion-notkept";
  box.setAttribute("role", "alert");
  const head = document.createElement("p");
  head.textContent =
    "Typed on this device just before it lost the page, and not in the game now (type them again if they are still right):";
  const list = document.createElement("ul");
  lines.forEach((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  });
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Understood";
  close.addEventListener("click", () => box.remove());
  box.append(head, list, close);
  const main = document.getElementById("companion-main") || document.body;
  main.prepend(box);
}

// The connection cannot be opened again: ask the server why. The page is
// loaded again when the server refuses this device (it restarted, or the host
// chose a new secret: the page that comes says how to rejoin) or no longer
// knows the kernel (it comes back with the game in progress).
function checkServer(base, kernelId, manager, kernel) {
  fetch(`${base}api/kernels/${encodeURIComponent(kernelId)}`, { credentials: "same-origin", cache: "no-store" }).then(
    (response) => {
      if (response.status === 403 || response.status === 404) {
        stash(kernelId, manager.unconfirmed());
        window.location.reload();
      }
    },
    () => {
      if (!kernel.connected()) {
        trouble(
          "The companion's server does not answer: is the host's computer on, and this device on the table's Wi-Fi? Still trying… (what you type is kept)",
        );
      }
    },
  );
}

async function main() {
  const settings = config();
  if (!settings.kernelId) {
    show();
    return;
  }
  let manager;
  const kernel = new Kernel(settings.baseUrl || "/", settings.kernelId, (comm, msg) => {
    if (msg.content.target_name === manager.comm_target_name) {
      manager.handle_comm_open(comm, msg);
    }
  });
  manager = new WidgetManager(kernel);
  const cells = document.getElementById("rendered_cells");
  kernel.onConnection = (connected) => {
    if (!connected) {
      // The page stays as it is: typing goes on, and is sent once the connection is back.
      document.body.classList.add("companion-offline");
      trouble("Connection lost: reconnecting… what you type is kept and sent when it is back.", { urgent: false });
      return;
    }
    // Back again: read every widget once more, in case a change went by
    // meanwhile (what this device typed since is kept, and was sent first).
    manager.reread().then(
      () => {
        document.body.classList.remove("companion-offline");
        trouble(null);
      },
      () => trouble("The page could not read its kernel again: reload it (the game in progress is kept)."),
    );
  };
  kernel.onRetry = (failed) => {
    if (failed >= 2) {
      checkServer(settings.baseUrl || "/", settings.kernelId, manager, kernel);
    }
  };
  kernel.onKernelLost = () => {
    cells.inert = true;
    stash(settings.kernelId, manager.unconfirmed());
    trouble("The page's kernel stopped: reloading… (the game in progress is kept)");
    setTimeout(() => window.location.reload(), 1500);
  };
  keepOnLeaving(kernel, manager, settings.kernelId, settings.baseUrl || "/");
  try {
    await kernel.ready;
    await manager.load();
    const scripts = document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]');
    await Promise.all(Array.from(scripts, (script) => render(manager, script)));
    myColumn(cells);
    notKept(takeStashed(manager));
    keepAwake(settings.baseUrl || "/");
  } catch (error) {
    trouble(`The page could not start: ${error && error.message ? error.message : error}. Reload it.`);
  }
  show();
}

main();
