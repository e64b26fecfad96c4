// The companion's web page: shows the widgets of the notebook Voilà ran,
// connected to its kernel. It replaces Voilà's own front end (a JupyterLab
// application of about 4 MB of script) with the widget controls alone.
import "@jupyter-widgets/controls/css/widgets.css";
import "@jupyter-widgets/controls/css/lumino.css";
import "./page.css";
import { Kernel } from "./kernel.js";
import { WidgetManager } from "./manager.js";
import { myColumn } from "./column.js";
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

// A line at the top of the page while something is wrong; null takes it away.
function trouble(text) {
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
    banner.setAttribute("role", "alert");
    document.body.prepend(banner);
  }
  banner.textContent = text;
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
      // Nothing can be tapped meanwhile: a tap would be sent late, perhaps twice.
      cells.inert = true;
      trouble("Connection lost: reconnecting… (the game in progress is kept)");
      return;
    }
    // Back again: read every widget once more, in case a change went by meanwhile.
    manager.load().then(
      () => {
        cells.inert = false;
        trouble(null);
      },
      () => trouble("The page could not read its kernel again: reload it (the game in progress is kept)."),
    );
  };
  kernel.onKernelLost = () => {
    cells.inert = true;
    trouble("The page's kernel stopped: reloading… (the game in progress is kept)");
    setTimeout(() => window.location.reload(), 1500);
  };
  try {
    await kernel.ready;
    await manager.load();
    const scripts = document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]');
    await Promise.all(Array.from(scripts, (script) => render(manager, script)));
    myColumn(cells);
  } catch (error) {
    trouble(`The page could not start: ${error && error.message ? error.message : error}. Reload it.`);
  }
  show();
}

main();
