// The widget manager: the models live in the kernel, this page only shows them.
import { ManagerBase } from "@jupyter-widgets/base-manager";
import { Widget } from "@lumino/widgets";
import * as widgets from "./widgets.js";

// One table for both modules: no class name is in both.
const MODULES = {
  "@jupyter-widgets/base": widgets,
  "@jupyter-widgets/controls": widgets,
};

export class WidgetManager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = MODULES[moduleName];
    if (module && Object.prototype.hasOwnProperty.call(module, className)) {
      return module[className];
    }
    throw new Error(`The page cannot show ${moduleName} ${className} (${moduleVersion})`);
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, undefined, metadata, buffers);
    }
    return comm;
  }

  /** Descriptions are shown as text: the companion never asks for HTML in them. */
  inline_sanitize(source) {
    const element = document.createElement("span");
    element.textContent = String(source);
    return element.innerHTML;
  }

  async _get_comm_info() {
    return this.kernel.commInfo(this.comm_target_name);
  }

  /** Loads every widget the kernel holds. */
  load() {
    return this._loadFromKernel();
  }

  async display(modelId, element) {
    const model = await this.get_model(modelId);
    const view = await this.create_view(model);
    Widget.attach(view.luminoWidget, element);
    return view;
  }
}
