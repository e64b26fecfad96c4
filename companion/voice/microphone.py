"""The host's microphone, through sounddevice (PortAudio: Debian's ``libportaudio2``).

The sound is decoded as it comes; the count ends when the speaker has been
quiet for about :data:`QUIET` seconds after speaking (or after :data:`LONGEST` seconds).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from companion.voice.grammar import Heard, Question

QUIET = 0.3
"""Seconds of silence after speech that end the count (pocketsphinx's endpointer window)."""
LONGEST = 20.0
"""The longest a count is listened to."""
WAIT = 5.0
"""Seconds of silence before anything is said that give up."""


def microphone_missing() -> str | None:
    """Why there is no microphone to listen to, in one line, or ``None``."""
    try:
        import sounddevice
    except ImportError:
        return "the microphone needs the extra: pip install 'companion[voice]'"
    except OSError:
        return "the microphone needs PortAudio: apt install libportaudio2"
    try:
        device = sounddevice.query_devices(kind="input")
    except Exception:  # PortAudio's own errors (no device at all)
        return "no microphone found on this computer"
    if not device or int(device.get("max_input_channels", 0)) < 1:
        return "no microphone found on this computer"
    return None


@dataclass
class Microphone:
    """The default input device, listened to for one count at a time.

    pocketsphinx's endpointer finds where speech starts and stops; the speech
    is decoded as it comes, so that little is left to do when it stops.
    """

    quiet: float = QUIET
    longest: float = LONGEST

    def hear(self, question: Question) -> Heard:
        """Listen until the speaker stops; what was heard.

        Raises:
            RuntimeError: There is no microphone to listen to (the reason in one line).
        """
        problem = microphone_missing()
        if problem:
            raise RuntimeError(problem)
        import sounddevice
        from pocketsphinx import Endpointer

        from companion.voice.recognizer import RATE, Listening

        listening = Listening(question)
        ends = Endpointer(window=self.quiet, sample_rate=RATE)
        samples = ends.frame_bytes // 2
        began = time.monotonic()
        spoke = False
        with sounddevice.RawInputStream(
            samplerate=RATE, channels=1, dtype="int16", blocksize=samples
        ) as stream:
            while True:
                data, _ = stream.read(samples)
                speech = ends.process(bytes(data))
                if speech is not None:
                    spoke = True
                    listening.feed(speech)
                    if not ends.in_speech:
                        break
                waited = time.monotonic() - began
                if waited >= self.longest or (not spoke and waited >= WAIT):
                    break
        return listening.end()
