// The score pad's Listen button (companion/widgets/listen.py): records the
// end count through the microphone and sends it to the kernel, which hears it
// and fills the row's cells. A browser gives the microphone only to a secure
// page (the host's own http://127.0.0.1); on any other page (a phone on the
// network address) one line says so where the button would be. Every word
// shown is set as text, never as markup.
import { DOMWidgetModel, DOMWidgetView } from "@jupyter-widgets/base";

export const RATE = 16000; // samples a second sent to the kernel (16-bit, one channel)
const PIECE = RATE; // samples in one message (a second): companion/widgets/socket_filter.py
const QUIET_END = 1.0; // seconds of quiet after speech that end the recording (or press Stop)
const NOTHING_SAID = 8; // seconds without speech after which the recording stops

export const NO_MICROPHONE =
  "No microphone on this device: a browser gives one only to the page on the host's own computer (http://127.0.0.1). Say the count there, or type it.";

/**
 * Sound at `fromRate` as 16-bit samples at RATE: each new sample is the mean of
 * the samples it stands for (a box filter before thinning), at most `most` of them.
 */
export function toPcm16(chunks, fromRate, most) {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const input = new Float32Array(total);
  let at = 0;
  chunks.forEach((c) => {
    input.set(c, at);
    at += c.length;
  });
  const step = fromRate / RATE;
  const count = Math.min(Math.floor(total / step), most);
  const out = new Int16Array(count);
  for (let i = 0; i < count; i++) {
    const start = Math.floor(i * step);
    const end = Math.max(start + 1, Math.floor((i + 1) * step));
    let sum = 0;
    for (let k = start; k < end; k++) {
      sum += input[k];
    }
    const mean = Math.max(-1, Math.min(1, sum / (end - start)));
    out[i] = Math.round(mean * 32767);
  }
  return out;
}

/** The loudness of a block of samples (root mean square). */
function loudness(samples) {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    sum += samples[i] * samples[i];
  }
  return Math.sqrt(sum / Math.max(1, samples.length));
}

const views = new Set();

// Focus in a cell that voice filled: it has been looked at, and its mark goes
// (here at once, and on every device once the kernel hears of it).
document.addEventListener("focusin", (event) => {
  const target = event.target;
  const cell = target && target.closest ? target.closest(".cell.heard") : null;
  if (!cell) {
    return;
  }
  const name = Array.from(cell.classList).find((c) => c.startsWith("c-"));
  cell.classList.remove("heard");
  const view = Array.from(views).find((v) => v.el.isConnected);
  if (name && view) {
    view.model.send({ event: "seen", cell: name.slice(0, 200) });
  }
});

export class ListenModel extends DOMWidgetModel {
  defaults() {
    return {
      ...super.defaults(),
      _model_module: "@jupyter-widgets/controls",
      _view_module: "@jupyter-widgets/controls",
      _model_name: "ListenModel",
      _view_name: "ListenView",
      missing: "",
      status: "",
      row: "",
      seconds: 15,
      busy: false,
    };
  }
}

export class ListenView extends DOMWidgetView {
  render() {
    super.render();
    views.add(this);
    this.el.classList.add("companion-listen");
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.className = "listen-button jupyter-button widget-button";
    this.line = document.createElement("span");
    this.line.className = "listen-line";
    this.line.setAttribute("role", "status");
    this.el.append(this.button, this.line);
    this.recording = null;
    this.starting = false;
    this.note = "";
    this.button.addEventListener("click", () => (this.recording ? this.stop() : this.start()));
    // The kernel's word on a recording replaces this device's own note ("Hearing…").
    this.listenTo(this.model, "change:status", () => {
      this.note = "";
    });
    this.update();
  }

  remove() {
    views.delete(this);
    if (this.recording) {
      this.recording.close();
    }
    return super.remove();
  }

  /** Why this page cannot listen ("" when it can). */
  unavailable() {
    const media = navigator.mediaDevices;
    if (!window.isSecureContext || !media || !media.getUserMedia) {
      return NO_MICROPHONE;
    }
    return String(this.model.get("missing") || "");
  }

  update() {
    const why = this.unavailable();
    this.el.classList.toggle("listen-unavailable", Boolean(why));
    this.button.style.display = why ? "none" : "";
    if (why) {
      this.line.textContent = why;
      return;
    }
    const row = String(this.model.get("row") || "");
    const busy = Boolean(this.model.get("busy"));
    this.button.textContent = this.recording ? "Stop" : `Listen: ${row}`;
    this.button.setAttribute("aria-pressed", this.recording ? "true" : "false");
    this.button.disabled = !row || busy;
    this.line.textContent = this.note || (busy ? "Hearing…" : String(this.model.get("status") || ""));
  }

  say(note) {
    this.note = note;
    this.update();
  }

  async start() {
    if (this.starting) {
      return;
    }
    this.starting = true;
    this.say("Asking for the microphone…");
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
    } catch (error) {
      this.say(`No microphone: ${error && error.message ? error.message : error}`);
      return;
    } finally {
      this.starting = false;
    }
    const context = new AudioContext();
    const source = context.createMediaStreamSource(stream);
    const processor = context.createScriptProcessor(4096, 1, 1);
    const chunks = [];
    const most = Math.max(1, Number(this.model.get("seconds")) || 15) * context.sampleRate;
    let samples = 0;
    let floor = 1;
    let spoke = false;
    let quiet = 0;
    const recording = {
      close: () => {
        processor.onaudioprocess = null;
        source.disconnect();
        processor.disconnect();
        stream.getTracks().forEach((track) => track.stop());
        context.close();
      },
    };
    processor.onaudioprocess = (event) => {
      const block = new Float32Array(event.inputBuffer.getChannelData(0));
      chunks.push(block);
      samples += block.length;
      const level = loudness(block);
      floor = Math.min(floor, Math.max(level, 0.0005));
      const seconds = block.length / context.sampleRate;
      if (level > Math.max(0.02, 4 * floor)) {
        spoke = true;
        quiet = 0;
      } else {
        quiet += seconds;
      }
      const done = samples >= most || (spoke && quiet >= QUIET_END);
      if (done || (!spoke && samples >= NOTHING_SAID * context.sampleRate)) {
        this.stop();
      }
    };
    source.connect(processor);
    processor.connect(context.destination);
    recording.chunks = chunks;
    recording.rate = context.sampleRate;
    recording.spoke = () => spoke;
    this.recording = recording;
    this.say("Listening… say each player's name and value, then stay quiet.");
  }

  stop() {
    const recording = this.recording;
    if (!recording) {
      return;
    }
    this.recording = null;
    recording.close();
    const seconds = Math.max(1, Number(this.model.get("seconds")) || 15);
    const pcm = toPcm16(recording.chunks, recording.rate, seconds * RATE);
    if (!recording.spoke() || !pcm.length) {
      this.say("Heard nothing: press Listen and say the count.");
      return;
    }
    this.send16(pcm);
    this.say("Hearing…");
  }

  /** Sends a recording in pieces of a second; the kernel hears it after the last. */
  send16(pcm) {
    const take = Math.floor(Math.random() * 2 ** 31);
    const parts = Math.max(1, Math.ceil(pcm.length / PIECE));
    for (let part = 0; part < parts; part++) {
      const piece = pcm.subarray(part * PIECE, Math.min(pcm.length, (part + 1) * PIECE));
      this.model.send({ event: "voice", take, part, end: part === parts - 1 }, undefined, [piece]);
    }
  }
}
