// A text box that keeps what its own typist types. A value from another
// device that arrives while this one types in the same box waits until the
// box is left; then the newest value, whoever sent it, is shown whole. Without
// this, two devices typing in one box merge their keystrokes ("121212"):
// each keystroke sends the whole value, and the other's value came in between.
import { TextView as PlainTextView } from "@jupyter-widgets/controls";

export class TextView extends PlainTextView {
  update(options) {
    const mine = options && options.updated_view === this;
    const typing = this.textbox && document.activeElement === this.textbox;
    if (!mine && typing && this.textbox.value !== this.model.get("value")) {
      this.held = true;
      this.el.classList.add("changed-elsewhere");
      return;
    }
    return super.update(options);
  }

  events() {
    return { ...super.events(), "blur input": "handleLeft" };
  }

  handleLeft() {
    if (this.held) {
      this.held = false;
      this.el.classList.remove("changed-elsewhere");
      this.update();
    }
  }
}
