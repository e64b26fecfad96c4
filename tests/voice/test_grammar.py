"""The grammar of an end-count question and the reading of what is heard: exact, no sound."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from companion.kits import KITS, PadOptions
from companion.kits.pad import PadRow, Part
from companion.voice import Heard, Question, grammar, missing, question_for, read
from companion.voice.words import guess_phones, number_words, read_number, split_numbers


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0, "zero"),
        (7, "seven"),
        (13, "thirteen"),
        (40, "forty"),
        (58, "fifty eight"),
        (100, "one hundred"),
        (105, "one hundred five"),
        (210, "two hundred ten"),
        (999, "nine hundred ninety nine"),
    ],
)
def test_number_words(value: int, words: str) -> None:
    assert number_words(value) == words
    assert read_number(words.split()) == value


def test_a_hundred_and_and_are_read() -> None:
    assert read_number(["one", "hundred", "and", "five"]) == 105
    assert read_number(["a", "hundred"]) == 100
    assert read_number(["one", "hundred", "and"]) is None
    assert read_number(["fifty", "fifty"]) is None


def test_words_are_cut_into_as_many_numbers_as_asked_longest_first() -> None:
    assert split_numbers(["twenty", "one", "five"], 2, 0, 99) == [21, 5]
    assert split_numbers(["twenty", "one", "five"], 3, 0, 99) == [20, 1, 5]
    assert split_numbers(["fifty", "eight", "sixty"], 2, 0, 60) == [58, 60]
    assert split_numbers(["seventy"], 1, 0, 60) is None  # out of the field's bounds
    assert split_numbers(["five"], 2, 0, 60) is None


def test_the_grammar_of_a_row_said_as_names_and_numbers() -> None:
    made = grammar(Question(("Aki", "Zoë-Ann"), low=0, high=3))
    assert made.jsgf == (
        "#JSGF V1.0;\n"
        "\n"
        "grammar count;\n"
        "\n"
        "<anyone> = aki | zoe ann;\n"
        "<number> = zero | one | two | three;\n"
        "<value> = <number> | none | nothing | same as <anyone>;\n"
        "<seat> = aki | zoe ann;\n"
        "<entry> = <seat> <value>;\n"
        "public <line> = <entry>+ | nobody;\n"
    )
    assert made.names == ("aki", "zoe ann")
    assert made.words == {"aki": "AA K IY", "zoe": "Z OW IY", "ann": "AA N"}


def test_the_grammar_of_a_cell_with_entry_codes_said_as_values_alone() -> None:
    made = grammar(Question(("Aki", "Ben"), seats=(1,), high=2, codes=True, design="numbers"))
    letters = " | ".join("abcdefghijklmnopqrstuvwxyz")
    assert made.jsgf.splitlines()[4:] == [
        "<anyone> = aki | ben;",
        f"<code> = ({letters}) [<number>];",
        "<number> = zero | one | two;",
        "<value> = <number> | none | nothing | same as <anyone> | <code>+;",
        "public <line> = <value> | nobody;",
    ]


def test_the_numbers_are_the_fields_bounds_with_and_after_a_hundred() -> None:
    made = grammar(Question(("Aki", "Ben"), low=98, high=102))
    assert made.jsgf.splitlines()[5] == (
        "<number> = ninety eight | ninety nine | one hundred | one hundred [and] one"
        " | one hundred [and] two;"
    )


def test_without_names_a_row_is_heard_as_numbers_in_seat_order() -> None:
    question = Question(("", "", ""), high=60)
    assert grammar(question).jsgf.splitlines()[-1] == (
        "public <line> = <value> <value> <value> | nobody;"
    )
    assert read(question, "fifty eight sixty five").values == {0: "58", 1: "60", 2: "5"}


@pytest.mark.parametrize(
    ("heard", "values", "line"),
    [
        ("aki fifty eight ben sixty cho fifty five", {0: "58", 1: "60", 2: "55"}, "58 60 55"),
        ("ben sixty aki fifty eight", {0: "58", 1: "60"}, "58 60 ?"),
        ("aki twelve ben same as aki cho none", {0: "12", 1: "12", 2: "0"}, "12 12 0"),
        ("aki same as cho cho same as ben ben nothing", {0: "0", 1: "0", 2: "0"}, "0 0 0"),
        ("nobody", {0: "0", 1: "0", 2: "0"}, "0 0 0"),
        ("aki zero", {0: "0"}, "0 ? ?"),
        ("aki seventy", {}, "? ? ?"),  # beyond the field's bound: not taken
        ("", {}, "? ? ?"),
    ],
)
def test_what_is_heard_as_pairs_gives_each_seat_its_value(
    heard: str, values: dict[int, str], line: str
) -> None:
    question = Question(("Aki", "Ben", "Cho"), high=60)
    got = read(question, heard)
    assert got == Heard(heard, values)
    assert got.line(question) == line


@pytest.mark.parametrize(
    ("heard", "values"),
    [
        ("fifty eight same as aki twenty one", {0: "58", 1: "58", 2: "21"}),
        ("twenty one five nine", {0: "21", 1: "5", 2: "9"}),
        ("none none one hundred and five", {0: "0", 1: "0", 2: "105"}),
    ],
)
def test_what_is_heard_as_numbers_gives_the_seats_in_order(
    heard: str, values: dict[int, str]
) -> None:
    question = Question(("Aki", "Ben", "Cho"), high=200, design="numbers")
    assert read(question, heard).values == values


def test_one_players_value_may_be_said_without_the_name() -> None:
    question = Question(("Aki", "Ben"), seats=(1,), high=10)
    assert grammar(question).jsgf.splitlines()[-3:] == [
        "<seat> = ben;",
        "<entry> = <seat> <value>;",
        "public <line> = <entry> | <value> | nobody;",
    ]
    assert read(question, "seven").values == {1: "7"}
    assert read(question, "ben same as aki").values == {}  # Aki's value is not in the line
    assert read(question, "ben seven").line(question) == "7"


def test_entry_codes_are_letters_with_numbers_and_none_is_a_dash() -> None:
    question = Question(("Aki", "Ben"), seats=(1,), high=5, codes=True)
    assert read(question, "ben b two f three").values == {1: "B2 F3"}
    assert read(question, "ben a n").values == {1: "A N"}
    assert read(question, "ben none").values == {1: "-"}
    assert read(question, "nobody").values == {1: "-"}
    assert read(question, "ben two b").values == {}


def test_a_pad_row_gives_its_question_from_the_kits_facts() -> None:
    spec = KITS["tokaido"].pad(PadOptions(2, ("Aki", "Ben")))
    rows = {row.id: row for row in spec.rows}
    assert question_for(rows["journey"], ["Aki", "Ben"]) == Question(("Aki", "Ben"), (0, 1), 0, 300)
    assert question_for(rows["temple"], ["Aki", "Ben"], 1) == Question(("Aki", "Ben"), (1,), 0, 50)
    assert question_for(rows["traveler"], ["Aki", "Ben"], 0) is None  # a choice is picked


def test_a_row_with_an_entry_code_is_heard_as_codes_in_its_parts_bounds() -> None:
    class Codec:
        hint = "e.g. B2"

    row = PadRow("bid", "Bid", "bid", parts=(Part("[0]", "cubes", high=7),), codec=Codec())
    shared = PadRow("tour", "Tour", "tour", shared=True, low=1, high=4)
    assert question_for(row, ["Aki", "Ben"], 0) == Question(("Aki", "Ben"), (0,), 0, 7, True)
    assert question_for(shared, ["Aki", "Ben"]) == Question(("",), (0,), 1, 4)


def test_a_name_the_dictionary_lacks_gets_phones_from_its_spelling() -> None:
    assert guess_phones("kenji") == "K EH N JH IY"
    assert guess_phones("jane") == "JH AA N"
    assert guess_phones("thea") == "TH IY"


def test_an_unknown_design_is_refused() -> None:
    with pytest.raises(ValueError, match="no grammar design 'chant'"):
        Question(("Aki",), design="chant")


def test_missing_says_in_one_line_what_voice_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "pocketsphinx" else real(name, *a),
    )
    assert missing() == "voice needs the extra: pip install 'companion[voice]'"
    assert missing(microphone=False) == "voice needs the extra: pip install 'companion[voice]'"


def test_the_microphone_says_what_it_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from companion.voice import microphone

    real_import = builtins.__import__

    def no_portaudio(name: str, *args: object, **kwargs: object) -> object:
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    class NoDevice:
        def query_devices(self, kind: str) -> dict[str, int]:
            return {"max_input_channels": 0}

    with monkeypatch.context() as patch:
        patch.setattr(builtins, "__import__", no_portaudio)
        assert microphone.microphone_missing() == (
            "the microphone needs PortAudio: apt install libportaudio2"
        )
    monkeypatch.setitem(sys.modules, "sounddevice", None)  # the module cannot be imported
    assert microphone.microphone_missing() == (
        "the microphone needs the extra: pip install 'companion[voice]'"
    )
    monkeypatch.setitem(sys.modules, "sounddevice", NoDevice())
    assert microphone.microphone_missing() == "no microphone found on this computer"


def test_a_name_said_again_takes_its_later_value() -> None:
    question = Question(("Aki", "Ben"), high=60)
    assert read(question, "aki fifty ben two ben sixteen").values == {0: "50", 1: "16"}
    assert read(question, "aki fifty ben two ben seventy").values == {0: "50", 1: "2"}


def test_what_was_heard_is_shown_with_the_tables_own_names() -> None:
    question = Question(("Aki", "Ben Ito", "Cho"), high=60)
    heard = read(question, "aki fifty eight ben ito same as aki cho twenty")
    assert heard.shown(question) == "Aki fifty-eight, Ben Ito same as Aki, Cho twenty"
