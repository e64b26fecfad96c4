"""Saying the end count to the score pad: the Listen button and the row it fills.

The host's page (``http://127.0.0.1``, a secure context: the only page a browser
gives its microphone) records up to :data:`VOICE_SECONDS` seconds, as 16-bit
sound at 16 kHz in one channel, and sends it to this widget in pieces of a
second (:func:`companion.widgets.socket_filter.voice_shape`). Once the last
piece is in, :mod:`companion.voice` hears it with a grammar made for the row
chosen beside the button (this table's names, the row's bounds) and the
values it heard are put in the row's cells, each marked as heard (a mark and
the words "heard: check it") until someone looks at the cell or changes it.
Nothing is saved: the table reads the pad and presses Save as always.

Where the page has no microphone (a phone on the network address), the
front end says so in one line where the button would be; where the recognizer
is not installed, :attr:`Listen.missing` says what is missing and the front
end shows that line instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import ipywidgets as w
from ipywidgets import __jupyter_widgets_controls_version__ as CONTROLS_VERSION
from traitlets import Bool, Int, Unicode

from companion.kits.pad import PadRow, PadSpec
from companion.widgets.bounds import QuietLog
from companion.widgets.comm_filter import LOG
from companion.widgets.socket_filter import (
    VOICE_MAX_BYTES,
    VOICE_MODEL,
    VOICE_RATE,
    VOICE_SECONDS,
    voice_shape,
)


class Pad(Protocol):
    """What the Listen button asks of its score pad (a :class:`ScoreForm` of score_form)."""

    spec: PadSpec
    players: int
    keys: dict[str, str]
    shown_names: list[str]
    saved_id: int | None

    def values(self) -> dict[str, Any]:
        """Each filled cell's value, by its key in the pad's description."""
        ...

    def fill_heard(self, values: dict[str, Any]) -> None:
        """Put heard values in their cells (by path), each marked as heard."""
        ...

    def seen_css(self, name: str) -> None:
        """The cell of CSS class ``name`` was looked at."""
        ...


QUIET_VOICE = QuietLog(LOG)
Hearer = Callable[[bytes, int, PadRow, list[str]], dict[int, Any]]
"""Sound, its rate, the row and the seats' names → the value heard for each seat."""


class Listen(w.DOMWidget):  # type: ignore[misc]
    """The Listen button: the page records, this widget receives the sound.

    Attributes:
        missing: Why voice cannot be used here (what the recognizer lacks); empty
            when it can. The page shows this line in place of the button.
        status: What was heard last, or why nothing was (plain text, never markup).
        row: The name of the row the next recording fills (shown on the button).
        seconds: The longest recording the page makes.
        busy: The kernel is hearing a recording.
    """

    _model_name = Unicode(VOICE_MODEL).tag(sync=True)
    _view_name = Unicode("ListenView").tag(sync=True)
    _model_module = Unicode("@jupyter-widgets/controls").tag(sync=True)
    _view_module = Unicode("@jupyter-widgets/controls").tag(sync=True)
    _model_module_version = Unicode(CONTROLS_VERSION).tag(sync=True)
    _view_module_version = Unicode(CONTROLS_VERSION).tag(sync=True)
    missing = Unicode("").tag(sync=True)
    status = Unicode("").tag(sync=True)
    row = Unicode("").tag(sync=True)
    seconds = Int(VOICE_SECONDS).tag(sync=True)
    busy = Bool(False).tag(sync=True)


def hearable(row: PadRow) -> bool:
    """A row voice can fill: one whole number per player."""
    return not row.shared and not row.parts and not row.repeat and not row.options


def core_missing() -> str | None:
    """What the recognizer lacks on this computer, in one line (None: nothing).

    The page records through the browser: the host's own microphone is not needed.
    """
    from companion.voice import missing

    return missing(microphone=False)


def core_hear(pcm: bytes, rate: int, row: PadRow, names: list[str]) -> dict[int, Any]:
    """The values :mod:`companion.voice` heard for ``row``, by seat (text, as typed), with
    the grammar :func:`companion.voice.question_for` makes from the row's facts."""
    from companion.voice import hear, question_for

    question = question_for(row, names)
    if question is None:  # a row the grammar does not hear (not one this button offers)
        return {}
    return dict(hear(pcm, rate, question).values)


class Voice:
    """The Listen button of one score pad, the row it fills, and the cells it marked.

    Args:
        form: The score pad.
        hearer: What hears a recording (:func:`core_hear`; tests may give another).
        missing: What says what the recognizer lacks (:func:`core_missing`).
    """

    def __init__(
        self,
        form: Pad,
        hearer: Hearer | None = None,
        missing: Callable[[], str | None] = core_missing,
    ) -> None:
        self.form = form
        self.hearer = hearer or core_hear
        self.rows = [row for row in form.spec.player_rows if hearable(row)]
        self.button = Listen()
        self.button.add_class("listen")
        self.button.missing = missing() or ""
        self.choice = w.Dropdown(
            options=[(row.label, index) for index, row in enumerate(self.rows)],
            value=0 if self.rows else None,
            tooltip="Row to say",
        )
        self.choice.add_class("listen-row")
        self.choice.observe(lambda _: self._show_row(), names="value")
        self.widget = w.HBox([self.choice, self.button])
        self.widget.add_class("voice")
        if not self.rows:
            self.widget.layout.display = "none"
        self.take: int | None = None
        self.pieces: list[bytes] = []
        self.button.on_msg(self._message)
        self._show_row()

    @property
    def row(self) -> PadRow | None:
        """The row the next recording fills."""
        index = self.choice.value
        return self.rows[index] if isinstance(index, int) and index < len(self.rows) else None

    def _show_row(self) -> None:
        row = self.row
        self.button.row = row.label if row else ""

    def next_row(self) -> None:
        """Choose the first row with an empty cell, after the one just said."""
        values = self.form.values()
        start = self.choice.value if isinstance(self.choice.value, int) else 0
        order = list(range(start + 1, len(self.rows))) + list(range(start + 1))
        for index in order:
            row = self.rows[index]
            seats = range(self.form.players)
            if any(self.form.keys.get(row.path(seat)) not in values for seat in seats):
                self.choice.value = index
                return

    # the messages of the page ---------------------------------------------------

    def _message(self, _: Any, content: Any, buffers: list[Any]) -> None:
        refused = voice_shape(content, list(buffers or []))
        if refused is not None:  # the comm filter has said so already
            return
        if content["event"] == "seen":
            self.form.seen_css(content["cell"])
            return
        self.receive(content["take"], content["part"], content["end"], bytes(buffers[0]))

    def receive(self, take: int, part: int, end: bool, piece: bytes) -> None:
        """One piece of a recording; the last one is heard.

        Args:
            take: The recording it belongs to (a new one forgets an older one's pieces).
            part: Its place in the recording, from 0.
            end: The recording ends with it.
            piece: 16-bit sound at :data:`VOICE_RATE` a second, one channel.
        """
        if take != self.take:
            self.take, self.pieces = take, []
        if part != len(self.pieces):
            QUIET_VOICE.refused("a piece of sound out of order, from a device")
            self.take, self.pieces = None, []
            return
        if sum(map(len, self.pieces)) + len(piece) > VOICE_MAX_BYTES:
            QUIET_VOICE.refused(
                "a recording too long, from a device", f"more than {VOICE_MAX_BYTES} bytes"
            )
            self.take, self.pieces = None, []
            return
        self.pieces.append(piece)
        if end:
            pcm = b"".join(self.pieces)
            self.take, self.pieces = None, []
            self.hear(pcm)

    def hear(self, pcm: bytes, rate: int = VOICE_RATE) -> dict[int, Any]:
        """Hear a recording and fill the chosen row's cells with what was heard.

        Returns:
            The values put in, by seat.
        """
        self.button.status = ""  # every recording gets its own word, the same one too
        row = self.row
        if self.button.missing or row is None:
            self.button.status = self.button.missing or "Choose the row to say first."
            return {}
        if self.form.saved_id is not None:
            self.button.status = (
                f"Game #{self.form.saved_id} is saved: press New game before saying a count."
            )
            return {}
        names = list(self.form.shown_names)
        self.button.busy = True
        try:
            heard = self.hearer(pcm, rate, row, names)
        except Exception as error:  # the recognizer's failure is said, never raised
            self.button.status = f"Nothing heard: {error}"
            return {}
        finally:
            self.button.busy = False
        filled = {s: v for s, v in heard.items() if isinstance(s, int) and 0 <= s < len(names)}
        if not filled:
            self.button.status = f"Nothing heard for {row.label}: try again, closer and slower."
            return {}
        self.form.fill_heard({row.path(seat): value for seat, value in filled.items()})
        said = ", ".join(f"{names[seat]} {filled[seat]}" for seat in sorted(filled))
        self.button.status = f"Heard for {row.label}: {said}. Check the marked cells."
        self.next_row()
        return filled
