// A connection to one Jupyter kernel over the server's websocket, with just what
// the widgets need: comms (open, message, close), replies on the shell channel
// and the kernel's busy/idle status for each message sent.

// The player whose column this device shows ("My column"), sent in every
// message's metadata, so that the kernel can say "Aki's device changed it".
let devicePlayer = "";

/** Names this device by its player ("" when it shows everyone's columns). */
export function setDevicePlayer(name) {
  devicePlayer = String(name || "").slice(0, 60);
}

function uuid() {
  if (window.crypto && window.crypto.randomUUID) {
    return window.crypto.randomUUID().replace(/-/g, "");
  }
  let id = "";
  for (let i = 0; i < 32; i++) {
    id += Math.floor(Math.random() * 16).toString(16);
  }
  return id;
}

// Jupyter's websocket framing for messages with binary buffers: a count, the
// offset of each part, the message as JSON, then the buffers.
function pack(msg, buffers) {
  const json = new TextEncoder().encode(JSON.stringify(msg));
  const parts = [json, ...buffers.map((b) => new Uint8Array(b.buffer || b, b.byteOffset || 0, b.byteLength))];
  const header = 4 * (parts.length + 1);
  const total = header + parts.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, parts.length);
  let offset = header;
  parts.forEach((part, i) => {
    view.setUint32(4 * (i + 1), offset);
    out.set(part, offset);
    offset += part.byteLength;
  });
  return out.buffer;
}

// A message as sent on the websocket: JSON, or Jupyter's binary framing with its buffers.
function framed(msg, buffers) {
  return buffers && buffers.length ? pack({ ...msg, buffers: [] }, buffers) : JSON.stringify(msg);
}

function unpack(data) {
  const view = new DataView(data);
  const count = view.getUint32(0);
  const offsets = [];
  for (let i = 1; i <= count; i++) {
    offsets.push(view.getUint32(4 * i));
  }
  offsets.push(data.byteLength);
  const msg = JSON.parse(new TextDecoder().decode(data.slice(offsets[0], offsets[1])));
  msg.buffers = [];
  for (let i = 1; i < count; i++) {
    msg.buffers.push(new DataView(data.slice(offsets[i], offsets[i + 1])));
  }
  return msg;
}

export class Comm {
  constructor(kernel, commId, targetName) {
    this.kernel = kernel;
    this.comm_id = commId;
    this.target_name = targetName;
    this._onMsg = null;
    this._onClose = null;
  }

  open(data, callbacks, metadata, buffers) {
    const content = { comm_id: this.comm_id, target_name: this.target_name, data: data || {} };
    return this.kernel.send("comm_open", content, { callbacks, metadata, buffers });
  }

  send(data, callbacks, metadata, buffers) {
    return this.kernel.send("comm_msg", { comm_id: this.comm_id, data: data || {} }, { callbacks, metadata, buffers });
  }

  close(data, callbacks, metadata, buffers) {
    this.kernel.comms.delete(this.comm_id);
    return this.kernel.send("comm_close", { comm_id: this.comm_id, data: data || {} }, { callbacks, metadata, buffers });
  }

  on_msg(callback) {
    this._onMsg = callback;
  }

  on_close(callback) {
    this._onClose = callback;
  }
}

export class Kernel {
  /**
   * @param {string} baseUrl the server's base URL ("/")
   * @param {string} kernelId the kernel the page was rendered with
   * @param {(comm: Comm, msg: object) => void} onCommOpen called for comms the kernel opens
   */
  constructor(baseUrl, kernelId, onCommOpen) {
    this.session = uuid();
    this.comms = new Map();
    this.pending = new Map();
    this.queue = [];
    this.onCommOpen = onCommOpen;
    this.onConnection = () => {};
    this.onKernelLost = () => {};
    // Called after each failed attempt to connect again (with the count so far).
    this.onRetry = () => {};
    this.retries = 0;
    const url = new URL(`${baseUrl}api/kernels/${encodeURIComponent(kernelId)}/channels`, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("session_id", this.session);
    this.url = url.href;
    this.ready = new Promise((resolve, reject) => {
      this._connect(resolve, reject);
    });
    this._keepAlive();
  }

  // Opens the websocket. A connection that drops (a tablet put to sleep, a
  // network blip) is opened again; what was sent meanwhile waits in a queue.
  _connect(resolve, reject) {
    const socket = new WebSocket(this.url);
    socket.binaryType = "arraybuffer";
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.retries = 0;
      const waiting = this.queue;
      this.queue = [];
      waiting.forEach(({ frame, entry }) => this._write(frame, entry));
      if (resolve) {
        resolve();
      } else {
        this.onConnection(true);
      }
    };
    socket.onmessage = (event) => {
      const msg = typeof event.data === "string" ? JSON.parse(event.data) : unpack(event.data);
      this._receive(msg);
    };
    socket.onclose = () => {
      this._lost(socket);
      if (!opened && resolve) {
        reject(new Error("the page could not reach its kernel"));
        return;
      }
      if (opened) {
        this.onConnection(false);
      }
      this.retries += 1;
      if (!opened && this.retries > 1) {
        this.onRetry(this.retries - 1);
      }
      // Soon at first (most drops are short), then every few seconds.
      const wait = Math.min(5000, 250 * 2 ** Math.min(this.retries, 5));
      setTimeout(() => this._connect(null, null), wait);
    };
    this.socket = socket;
  }

  _write(frame, entry) {
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(frame);
      if (entry) {
        entry.socket = this.socket;
      }
    } else {
      this.queue.push({ frame, entry });
    }
  }

  // The answers to messages sent on a connection that dropped will not come.
  // A widget's new values (an "update") are sent again on the next connection:
  // a connection can die without a word (a tablet asleep), and setting a value
  // twice does no harm. Anything else (a button's click) is not repeated: each
  // is told the kernel is idle (a widget waits for that before it sends its
  // next change), and a reply still awaited gets an empty one.
  _lost(socket) {
    for (const [msgId, entry] of this.pending) {
      if (entry.socket !== socket) {
        continue;
      }
      entry.socket = null;
      if (entry.update && !entry.idle) {
        // The same message (its id, so that a kernel that handled it already
        // applies it once: companion/widgets/once.py), newly dated: the kernel
        // refuses a message signed exactly as one it has seen, without a word,
        // and the widget would wait for its answer for ever.
        entry.msg.header.date = new Date().toISOString();
        entry.frame = framed(entry.msg, entry.buffers);
        this.queue.push({ frame: entry.frame, entry });
        continue;
      }
      this.pending.delete(msgId);
      const parent_header = { msg_id: msgId };
      const { iopub, shell } = entry.callbacks;
      if (!entry.idle && iopub && iopub.status) {
        iopub.status({ header: { msg_type: "status" }, parent_header, content: { execution_state: "idle" } });
      }
      if (!entry.replied && shell && shell.reply) {
        shell.reply({ header: { msg_type: "lost" }, parent_header, content: {} });
      }
    }
  }

  /** Whether the connection is open now. */
  connected() {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * The widget changes sent that the kernel has not confirmed, as the beacon of a
   * hidden or closing page carries them (companion/widgets/last_keys.py), each
   * once: [{msg_id, comm_id, state}].
   */
  takeForBeacon() {
    const found = [];
    for (const [msgId, entry] of this.pending) {
      if (entry.update && !entry.idle && !entry.beaconed) {
        entry.beaconed = true;
        found.push({ msg_id: msgId, comm_id: entry.commId, state: entry.state });
      }
    }
    return found;
  }

  /** The widget changes sent that the kernel has not confirmed yet: [{commId, state}]. */
  unconfirmed() {
    const found = [];
    for (const entry of this.pending.values()) {
      if (entry.update && !entry.idle) {
        found.push({ commId: entry.commId, state: entry.state });
      }
    }
    return found;
  }

  // Every 15 s while the page is shown, asks the kernel for its info: a
  // connection that gets no answer within 25 s is dead without having said so
  // (a tablet woke up, the Wi-Fi changed) and is closed, so that a new one is
  // opened. (The server pings too, every 10 s; a busy kernel may take a while.)
  _keepAlive() {
    setInterval(() => {
      const socket = this.socket;
      if (document.visibilityState !== "visible" || socket.readyState !== WebSocket.OPEN) {
        return;
      }
      let answered = false;
      this.send("kernel_info_request", {}, { callbacks: { shell: { reply: () => { answered = true; } } } });
      setTimeout(() => {
        if (!answered && this.socket === socket && socket.readyState === WebSocket.OPEN) {
          socket.close();
        }
      }, 25000);
    }, 15000);
  }

  createComm(targetName, commId) {
    const comm = new Comm(this, commId || uuid(), targetName);
    this.comms.set(comm.comm_id, comm);
    return comm;
  }

  /** Sends a shell message; returns its id. */
  send(msgType, content, { callbacks, metadata, buffers } = {}) {
    const msgId = uuid();
    const msg = {
      header: { msg_id: msgId, msg_type: msgType, username: "", session: this.session, date: new Date().toISOString(), version: "5.3" },
      parent_header: {},
      metadata: devicePlayer ? { ...(metadata || {}), companion_player: devicePlayer } : metadata || {},
      content,
      channel: "shell",
    };
    let entry = null;
    const frame = framed(msg, buffers);
    if (callbacks) {
      const update = msgType === "comm_msg" && content.data && content.data.method === "update";
      entry = { callbacks, idle: false, replied: false, socket: null, frame, update };
      if (update) {
        entry.commId = content.comm_id;
        entry.state = content.data.state || {};
        entry.msg = msg;
        entry.buffers = buffers;
      }
      this.pending.set(msgId, entry);
    }
    this._write(frame, entry);
    return msgId;
  }

  /** Asks the kernel for its comms of one target. */
  commInfo(targetName) {
    return new Promise((resolve) => {
      this.send("comm_info_request", { target_name: targetName }, {
        callbacks: { shell: { reply: (msg) => resolve(msg.content.comms || {}) } },
      });
    });
  }

  // A message's callbacks are dropped once the kernel is idle after it and its
  // reply (when one is awaited) came back: the two arrive on separate channels.
  _done(msgId, entry, what) {
    entry[what] = true;
    const shell = entry.callbacks.shell;
    if (entry.idle && (entry.replied || !(shell && shell.reply))) {
      this.pending.delete(msgId);
    }
  }

  _receive(msg) {
    const type = msg.header && msg.header.msg_type;
    const parent = msg.parent_header && msg.parent_header.msg_id;
    const entry = parent ? this.pending.get(parent) : undefined;
    const callbacks = entry ? entry.callbacks : {};
    if (msg.channel === "shell") {
      if (entry) {
        if (callbacks.shell && callbacks.shell.reply) {
          callbacks.shell.reply(msg);
        }
        this._done(parent, entry, "replied");
      }
      return;
    }
    if (msg.channel !== "iopub") {
      return;
    }
    if (type === "comm_open") {
      const comm = this.createComm(msg.content.target_name, msg.content.comm_id);
      this.onCommOpen(comm, msg);
    } else if (type === "comm_msg") {
      const comm = this.comms.get(msg.content.comm_id);
      if (comm && comm._onMsg) {
        comm._onMsg(msg);
      }
    } else if (type === "comm_close") {
      const comm = this.comms.get(msg.content.comm_id);
      this.comms.delete(msg.content.comm_id);
      if (comm && comm._onClose) {
        comm._onClose(msg);
      }
    }
    const iopub = callbacks.iopub || {};
    if (type === "status" && ["restarting", "dead"].includes(msg.content.execution_state)) {
      // A kernel that restarted holds none of the page's widgets.
      this.onKernelLost();
      return;
    }
    if (type === "status") {
      if (iopub.status) {
        iopub.status(msg);
      }
      if (entry && msg.content.execution_state === "idle") {
        this._done(parent, entry, "idle");
      }
    } else if (type === "clear_output" && iopub.clear_output) {
      iopub.clear_output(msg);
    } else if (["display_data", "execute_result", "stream", "error"].includes(type) && iopub.output) {
      iopub.output(msg);
    }
  }
}
