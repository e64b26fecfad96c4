"""The score pad's Listen button: a spoken count fills the row's cells, marked as heard."""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path
from typing import Any

import pytest

from companion.widgets.cells import css_name
from companion.widgets.listen import Voice
from companion.widgets.score_form import HEARD_NOTE, ScoreForm
from companion.widgets.socket_filter import VOICE_MAX_BYTES, VOICE_PART_BYTES, VOICE_RATE

NAMES = ["Aki", "Ben"]
needs_festival = pytest.mark.skipif(shutil.which("text2wave") is None, reason="no festival")


def spoken(text: str, folder: Path) -> bytes:
    """``text`` said by festival, as 16-bit sound at 16 kHz in one channel."""
    path = folder / "said.wav"
    subprocess.run(
        ["text2wave", "-F", str(VOICE_RATE), "-o", str(path)],
        input=text.encode(),
        check=True,
        timeout=60,
    )
    with wave.open(str(path)) as said:
        assert (said.getframerate(), said.getnchannels(), said.getsampwidth()) == (VOICE_RATE, 1, 2)
        return said.readframes(said.getnframes())


def say(form: ScoreForm, pcm: bytes, take: int = 3) -> None:
    """Send ``pcm`` as the page does: a second a piece, to the Listen widget's message handler."""
    assert form.voice is not None
    pieces = [pcm[k : k + VOICE_PART_BYTES] for k in range(0, len(pcm), VOICE_PART_BYTES)]
    for part, piece in enumerate(pieces):
        content = {"event": "voice", "take": take, "part": part, "end": part == len(pieces) - 1}
        form.voice.button._handle_custom_msg(content, [memoryview(piece)])


def pad() -> ScoreForm:
    return ScoreForm("tokaido", 2, names=NAMES, voice=True)


def cell(form: ScoreForm, path: str) -> Any:
    return form.cells[path].controls["n"]


def heard(form: ScoreForm, path: str) -> bool:
    marked = "heard" in form.cells[path].widget._dom_classes
    said = form.cells[path].message.value.startswith(HEARD_NOTE)
    assert marked is said
    return marked


@pytest.fixture(scope="module")
def count_said(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    if shutil.which("text2wave") is None:
        pytest.skip("no festival")
    return spoken("Aki fifty eight. Ben sixty.", tmp_path_factory.mktemp("said"))


@pytest.mark.slow
@needs_festival
def test_a_spoken_count_fills_the_row_and_marks_each_cell_heard(count_said: bytes) -> None:
    form = pad()
    assert form.voice is not None
    assert form.voice.button.missing == ""
    assert form.voice.button.row == "Score track"
    say(form, count_said)
    assert cell(form, "players[0].journey").value == "58"
    assert cell(form, "players[1].journey").value == "60"
    assert heard(form, "players[0].journey")
    assert heard(form, "players[1].journey")
    assert not heard(form, "players[0].temple")
    assert form.voice.button.status == (
        "Heard for Score track: Aki 58, Ben 60. Check the marked cells."
    )
    # The next row with an empty cell is offered next.
    assert form.voice.button.row == "Temple coins"
    assert form.values() == {"journey.0": 58, "journey.1": 60}


@pytest.mark.slow
@needs_festival
def test_a_misheard_value_is_put_right_on_the_pad_before_save(
    count_said: bytes, db_path: Path
) -> None:
    form = ScoreForm("tokaido", 2, names=NAMES, voice=True, db=db_path)
    say(form, count_said)
    # The table reads the pad: Ben said sixty-one, heard as sixty.
    cell(form, "players[1].journey").value = "61"
    assert not heard(form, "players[1].journey")
    assert heard(form, "players[0].journey")
    for seat in range(2):
        for row, value in (("temple", "3"), ("meal_cost", "4"), ("souvenirs", "2")):
            cell(form, f"players[{seat}].{row}").value = value
        for row in ("hot_springs", "encounters", "panorama_achievements"):
            cell(form, f"players[{seat}].{row}").value = "0"
        form.cells[f"players[{seat}].traveler"].controls["c"].index = seat + 1
    form.save_button.click()
    assert form.saved_id is not None, form.summary.value + form.status.value
    saved = form.document()
    assert [p["journey"] for p in saved["players"]] == [58, 61]


def test_a_cell_looked_at_loses_its_mark() -> None:
    form = pad()
    assert form.voice is not None
    form.fill_heard({"players[0].journey": "12", "players[1].journey": "9"})
    assert heard(form, "players[0].journey")
    look = {"event": "seen", "cell": css_name("players[0].journey")}
    form.voice.button._handle_custom_msg(look, [])
    assert not heard(form, "players[0].journey")
    assert heard(form, "players[1].journey")
    assert cell(form, "players[0].journey").value == "12"
    form.clear()
    assert not heard(form, "players[1].journey")


def test_the_pieces_of_a_recording_are_heard_once_whole_and_in_order() -> None:
    calls: list[tuple[int, int, str, list[str]]] = []

    def hearer(pcm: bytes, rate: int, row: Any, names: list[str]) -> dict[int, Any]:
        calls.append((len(pcm), rate, row.id, names))
        return {1: "7", 5: "9"}  # a seat the pad does not have is left out

    form = pad()
    voice = Voice(form, hearer=hearer, missing=lambda: None)
    voice.choice.value = 1
    voice.receive(1, 0, False, b"\x00" * VOICE_PART_BYTES)
    voice.receive(1, 1, True, b"\x00\x02")
    assert calls == [(VOICE_PART_BYTES + 2, VOICE_RATE, "temple", NAMES)]
    assert form.values() == {"temple.1": 7}
    # Out of order: dropped, nothing heard.
    voice.receive(2, 1, True, b"\x00\x00")
    # A new take forgets an older one's pieces.
    voice.receive(3, 0, False, b"\x00\x00")
    voice.receive(4, 0, True, b"\x01\x00")
    assert [c[0] for c in calls] == [VOICE_PART_BYTES + 2, 2]
    # Longer than the bound: dropped.
    parts = VOICE_MAX_BYTES // VOICE_PART_BYTES
    for part in range(parts + 1):
        voice.receive(5, part, part == parts, b"\x00" * VOICE_PART_BYTES)
    assert len(calls) == 2


def test_what_voice_lacks_is_said_where_the_button_is_and_nothing_is_heard() -> None:
    calls: list[bytes] = []

    def hearer(pcm: bytes, rate: int, row: Any, names: list[str]) -> dict[int, Any]:
        calls.append(pcm)
        return {0: "1"}

    form = pad()
    lacking = "voice needs the extra: pip install 'companion[voice]'"
    voice = Voice(form, hearer=hearer, missing=lambda: lacking)
    assert voice.button.missing == lacking
    assert voice.hear(b"\x00\x00") == {}
    assert calls == []
    assert voice.button.status == lacking


def test_a_saved_game_takes_no_spoken_count() -> None:
    form = pad()
    voice = Voice(form, hearer=lambda *_: {0: "5"}, missing=lambda: None)
    form.saved_id = 12
    assert voice.hear(b"\x00\x00") == {}
    assert form.values() == {}
    assert voice.button.status == "Game #12 is saved: press New game before saying a count."


def test_names_heard_are_text_never_markup() -> None:
    form = ScoreForm("tokaido", 2, names=["<b>Aki</b>", "Ben"], voice=True)
    voice = Voice(form, hearer=lambda *_: {0: "5"}, missing=lambda: None)
    voice.hear(b"\x00\x00")
    # The status is a plain text trait: the page sets it as text (listen.js).
    assert voice.button.status == "Heard for Score track: <b>Aki</b> 5. Check the marked cells."
    assert form.cells["players[0].journey"].message.value.startswith(HEARD_NOTE)


def test_the_page_without_voice_has_no_listen_button() -> None:
    assert ScoreForm("tokaido", 2).voice is None
