"""Steady noise taken out of the sound before it is decoded (spectral subtraction, numpy).

The noise's spectrum is estimated from the quietest frames of the utterance
(the pauses around and between the words), and that much is subtracted from
every frame's magnitude, leaving a floor so that no frame goes silent. It helps
against steady noise (a fan, a hum, white noise); the babble of a table is not
steady and is not taken out.
"""

from __future__ import annotations

FRAME = 512
"""Samples per analysis frame (32 ms at 16 kHz)."""
QUIETEST = 0.1
"""The share of the frames, the quietest, that the noise is estimated from."""
OVER = 1.5
"""How many times the noise's magnitude is subtracted."""
FLOOR = 0.05
"""The least share of a frame's magnitude that is kept."""


def quieter(pcm: bytes, over: float = OVER, floor: float = FLOOR) -> bytes:
    """16-bit mono ``pcm`` with its steady noise subtracted (unchanged without numpy)."""
    try:
        import numpy as np
    except ImportError:
        return pcm
    samples = np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], dtype=np.int16).astype(np.float64)
    hop = FRAME // 2
    if samples.size < FRAME * 4:
        return pcm
    count = 1 + (samples.size - FRAME) // hop
    padded = np.zeros((count - 1) * hop + FRAME + hop)
    padded[: samples.size] = samples
    window = np.hanning(FRAME + 1)[:FRAME]  # periodic: halves overlap-add to one
    index = np.arange(FRAME)[None, :] + hop * np.arange(count)[:, None]
    spectra = np.fft.rfft(padded[index] * window, axis=1)
    magnitude = np.abs(spectra)
    energy = (magnitude**2).sum(axis=1)
    quiet = magnitude[energy <= np.quantile(energy, QUIETEST)]
    noise = quiet.mean(axis=0)
    kept = np.maximum(magnitude - over * noise, floor * magnitude)
    cleaned = np.fft.irfft(spectra * (kept / np.maximum(magnitude, 1e-9)), n=FRAME, axis=1)
    out = np.zeros_like(padded)
    np.add.at(out, index, cleaned)
    result = np.clip(np.round(out[: samples.size]), -32768, 32767).astype(np.int16)
    return bytes(result.tobytes())
