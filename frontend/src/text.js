// A text box that keeps what its own typist types. A value from another
// device that arrives while this one is typing in the same box (the box was
// entered or typed in less than a second and a half ago) waits until the
// typing stops or the box is left; then the newest value, whoever sent it, is
// shown whole. Without this, two devices typing in one box merge their
// keystrokes ("121212", or "1222" when the other's first key came between
// entering the box and typing in it): each keystroke sends the whole value.
// The same for a box of several lines (a Shimoda street typed as card codes).
import { TextView as PlainTextView, TextareaView as PlainTextareaView } from "@jupyter-widgets/controls";

const TYPING_MS = 1500;

function holding(Base, tag) {
  return class extends Base {
    update(options) {
      const mine = options && options.updated_view === this;
      if (!mine && this.typing() && this.textbox.value !== this.model.get("value")) {
        this.held = true;
        this.el.classList.add("changed-elsewhere");
        clearTimeout(this.release);
        this.release = setTimeout(() => this.handleLeft(), TYPING_MS - (Date.now() - this.typed) + 50);
        return;
      }
      return super.update(options);
    }

    /** Whether this device's typist is typing here: in the box, and entered or typed in it just now. */
    typing() {
      return Boolean(this.textbox) && document.activeElement === this.textbox && Date.now() - (this.typed || 0) < TYPING_MS;
    }

    events() {
      return { ...super.events(), [`blur ${tag}`]: "handleLeft", [`focus ${tag}`]: "handleEntered" };
    }

    handleEntered() {
      this.typed = Date.now();
    }

    handleChanging(e) {
      this.typed = Date.now();
      return super.handleChanging(e);
    }

    // Leaving the box fires "change" with what the box shows: with continuous
    // updates every keystroke was sent already, and sending it again would undo
    // a newer value from another device that this box was still holding back.
    handleChanged(e) {
      if (e.type === "change" && this.model.get("continuous_update")) {
        return;
      }
      return super.handleChanged(e);
    }

    handleLeft() {
      if (!this.held) {
        return;
      }
      if (this.typing()) {
        clearTimeout(this.release);
        this.release = setTimeout(() => this.handleLeft(), TYPING_MS);
        return;
      }
      this.held = false;
      this.el.classList.remove("changed-elsewhere");
      this.update();
    }
  };
}

export const TextView = holding(PlainTextView, "input");
export const TextareaView = holding(PlainTextareaView, "textarea");
