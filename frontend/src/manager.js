// The widget manager: the models live in the kernel, this page only shows them.
import { ManagerBase } from "@jupyter-widgets/base-manager";
import { Widget } from "@lumino/widgets";
import * as widgets from "./widgets.js";

// One table for both modules: no class name is in both.
const MODULES = {
  "@jupyter-widgets/base": widgets,
  "@jupyter-widgets/controls": widgets,
};

// A widget's name as its device shows it (the control's tooltip, description or placeholder).
function label(model) {
  const named = model.get("tooltip") || model.get("description") || model.get("placeholder") || "";
  return String(named).slice(0, 80);
}

export class WidgetManager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    this.live = new Map(); // model id -> model, once created
  }

  register_model(modelId, modelPromise) {
    super.register_model(modelId, modelPromise);
    modelPromise.then(
      (model) => {
        this.live.set(modelId, model);
        model.once("comm:close", () => this.live.delete(modelId));
      },
      () => {},
    );
  }

  /** The attributes of a model that this device changed and the kernel has not confirmed. */
  static mine(model) {
    const names = new Set(model._expectedEchoMsgIds ? model._expectedEchoMsgIds.keys() : []);
    Object.keys(model._msg_buffer || {}).forEach((name) => names.add(name));
    return names;
  }

  /**
   * Reads every widget again after a reconnect (a change may have gone by
   * meanwhile), except what this device typed that the kernel has not
   * confirmed yet: a box is never put back to an older value than it holds.
   */
  async reread() {
    const guarded = [];
    for (const model of this.live.values()) {
      const own = model.set_state;
      guarded.push([model, own]);
      model.set_state = function (state) {
        const kept = WidgetManager.mine(this);
        const rest = {};
        Object.keys(state).forEach((name) => {
          if (!kept.has(name)) {
            rest[name] = state[name];
          }
        });
        return own.call(this, rest);
      };
    }
    try {
      await this._loadFromKernel();
    } finally {
      guarded.forEach(([model, own]) => {
        model.set_state = own;
      });
    }
  }

  /**
   * Sends at once the changes a widget holds back until the kernel has handled
   * its previous one (the last keys typed): the page is being hidden or closed.
   */
  sendWaiting() {
    for (const model of this.live.values()) {
      if (model._msg_buffer && model.comm) {
        const msgId = model.send_sync_message(model._msg_buffer, model._msg_buffer_callbacks || {});
        model.rememberLastUpdateFor(msgId);
        model._msg_buffer = null;
        model._msg_buffer_callbacks = null;
      }
    }
  }

  /** What this device typed that the kernel has not confirmed: [{modelId, label, state}]. */
  unconfirmed() {
    const found = new Map();
    const add = (model, state) => {
      if (!model) {
        return;
      }
      const entry = found.get(model.model_id) || { modelId: model.model_id, label: label(model), state: {} };
      Object.assign(entry.state, state);
      found.set(model.model_id, entry);
    };
    this.kernel.unconfirmed().forEach(({ commId, state }) => add(this.live.get(commId), state));
    for (const model of this.live.values()) {
      if (model._msg_buffer) {
        add(model, model._msg_buffer);
      }
    }
    return Array.from(found.values()).filter((entry) => "value" in entry.state);
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
