// A text box that keeps what its own typist types. A value from another
// device that arrives while this one is typing in the same box (it was typed
// in less than a second and a half ago, or entered less than three seconds
// ago) waits until the typing stops or the box is left; then the newest value, whoever sent it, is
// shown whole. Without this, two devices typing in one box merge their
// keystrokes ("121212", or "1222" when the other's first key came between
// entering the box and typing in it): each keystroke sends the whole value.
// The same for a box of several lines (a Shimoda street typed as card codes).
import { TextView as PlainTextView, TextareaView as PlainTextareaView } from "@jupyter-widgets/controls";

const TYPING_MS = 1500;
// Entering a box is the start of typing in it: the first key may come a while
// later on a phone, or the other device's first key may come in between.
const ENTERED_MS = 3000;

function holding(Base, tag) {
  return class extends Base {
    update(options) {
      const mine = options && options.updated_view === this;
      if (!mine && this.typing() && this.textbox.value !== this.model.get("value")) {
        this.held = true;
        this.el.classList.add("changed-elsewhere");
        clearTimeout(this.release);
        this.release = setTimeout(() => this.handleLeft(), this.typingLeft() + 50);
        return;
      }
      return super.update(options);
    }

    /** How long this device's typist is still taken to be typing here (ms; 0 when not). */
    typingLeft() {
      if (!this.textbox || document.activeElement !== this.textbox) {
        return 0;
      }
      const now = Date.now();
      return Math.max(0, TYPING_MS - (now - (this.typed || 0)), ENTERED_MS - (now - (this.entered || 0)));
    }

    /** Whether this device's typist is typing here: in the box, and entered or typed in it just now. */
    typing() {
      return this.typingLeft() > 0;
    }

    events() {
      // focusin and focusout: focus and blur do not bubble up to the view's
      // element, where the view listens.
      return { ...super.events(), [`focusout ${tag}`]: "handleLeft", [`focusin ${tag}`]: "handleEntered" };
    }

    handleEntered() {
      this.entered = Date.now();
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
        this.release = setTimeout(() => this.handleLeft(), this.typingLeft() + 50);
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
