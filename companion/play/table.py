"""The driver between a game's flow, the prompts and the saved answers.

A flow is a plain function that asks questions through a :class:`Table`. The
table first replays the session's saved answers (silently), then asks the
players, saving each answer before the flow goes on. Undo drops the last answer
and replays the flow from the start; resuming after a crash is the same replay.

A saved answer that does not fit its question on replay (another key, a value
the question would refuse, an unreadable record) stops the replay with
:class:`ReplayError`: nothing is dropped without the players saying so.

Random draws are made from seeds kept apart from the answers (``seed:`` events
that undo never removes), so a draw made once stays made. ``meta:`` events (when
the game was started and paused, where it is played) are no answers either.

The table also knows which round each answer belongs to (:meth:`Table.round`),
which is what the clock needs to time the rounds (:mod:`companion.analysis.clock`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from companion.events import SEED_PREFIX, is_answer
from companion.history.sessions import Event, Unreadable
from companion.voice import Question
from companion.wording import plural

SET_UP = "set-up"
"""The round every game begins in."""

CONTEXT_LINES = 6
Complete = Callable[[str], Sequence[tuple[str, str]]]
"""Given the text before the cursor, ``(word, what it means)`` for the word being typed."""
Preview = Callable[[str], str]
"""Given the text typed so far, what it would mean (shown below the prompt)."""


class Undo(Exception):
    """The player asked to take back the last answer."""


class Refusal(str):
    """Why a typed answer is refused, with the part of it that is wrong.

    A plain ``str`` problem is about the whole line; a refusal's ``span``
    (start, end) marks the characters of the typed text at fault, so the prompt
    keeps the line and puts the cursor there (the bad value selected).
    """

    span: tuple[int, int]

    def __new__(cls, message: str, span: tuple[int, int]) -> Refusal:
        made = super().__new__(cls, message)
        made.span = span
        return made


class Drawing(str):
    """A preview whose ``kept`` part (a drawing) stays shown above a refusal.

    Any other preview gives way to the refusal while the line stands refused.
    """

    kept: str

    def __new__(cls, text: str, kept: str) -> Drawing:
        made = super().__new__(cls, text)
        made.kept = kept
        return made


def shifted(problem: str | None, by: int) -> str | None:
    """``problem`` with its span moved ``by`` characters (the text was stripped)."""
    if isinstance(problem, Refusal) and by:
        return Refusal(str(problem), (problem.span[0] + by, problem.span[1] + by))
    return problem


def _without_where(where: str, words: list[str]) -> list[str]:
    """``words`` without a beginning that says ``where`` again (case and marks aside)."""
    import re

    wanted = re.findall(r"\w+", where.lower())
    if not wanted:
        return words
    matched = used = 0
    for k, word in enumerate(words):
        tokens = re.findall(r"\w+", word.lower())
        if tokens and wanted[matched : matched + len(tokens)] != tokens:
            break
        matched += len(tokens)
        used = k + 1
        if matched == len(wanted):
            rest = words[used:]
            while rest and not re.search(r"\w", rest[0]):
                rest = rest[1:]  # a mark between them: "·", ":"
            return rest
    return words


def going_on_at(where: str, message: str, most: int = 48) -> str:
    """The part of the game and the question asked: ``setup: Steps not done``.

    The question's words stop before its first ``(`` or ``?``, and at a whole
    word within ``most`` characters (``…`` then says there is more). A
    question that begins with the part of the game ("Round 3 · Dai's turn" in
    round 3, Dai's turn) does not say it twice.
    """
    words = _without_where(where, message.split("(")[0].split("?")[0].split())
    question = ""
    for word in words:
        if len(question) + len(word) + 1 > most:
            question += "…"
            break
        question = f"{question} {word}".strip()
    return f"{where}: {question}" if question else where


def _field_of(message: str) -> str:
    """The words of a row question without its ``, in seat order (...)?`` tail."""
    field = message.rstrip("?").split(", in seat order")[0].split(", one per")[0]
    return field.strip()


class Pause(Exception):
    """The player asked to save and stop."""


class ReplayError(Exception):
    """A saved answer that cannot be replayed.

    Attributes:
        position: How many saved answers before it replayed fine.
        question: The question the flow asks at that point (its words).
        reason: What does not fit.
    """

    def __init__(self, position: int, question: str, reason: str) -> None:
        self.position = position
        self.question = question
        self.reason = reason
        super().__init__(f"saved answer {position + 1} ({question}): {reason}")


class Prompter(Protocol):
    """Asks one live question; raises :class:`Undo` or :class:`Pause` on request."""

    def select(
        self,
        message: str,
        choices: Sequence[str],
        default: str | None,
        *,
        controls: bool = True,
        unavailable: Mapping[str, str] | None = None,
    ) -> str:
        """One of ``choices`` (``controls``: also offer Undo, Rules and Pause).

        ``unavailable`` (choice → why) are shown in their place but cannot be
        picked (their numbers stay).
        """
        ...

    def text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
        *,
        complete: Complete | None = None,
        preview: Preview | None = None,
    ) -> str:
        """A line of text that ``validate`` accepts (it returns an error or ``None``).

        ``default`` is offered so that Enter takes it and typing replaces it.
        """
        ...


def _number_problem(value: object, low: int, high: int | None) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return "is not a whole number"
    if value < low or (high is not None and value > high):
        return f"is out of range ({low} to {high})"
    return None


class Table:
    """What a flow talks to: questions, announcements, draws and the phase.

    Args:
        game: The game id.
        events: The answers and draws saved so far.
        save: Saves one new answer or draw ``(key, value, note)`` before returning.
        prompter: Asks the live questions.
        out: Prints a line for the players.
        known_names: Player names from the history, offered as suggestions.
        undone: The answer just taken back with ``:undo`` (its key and value):
            when its question is asked again, it is offered for editing.
        heading: Given where the game goes on (:func:`going_on_at` of the first
            question the players see after the replay), the line that heads it
            (a resume's header).
        asked: Told where the game goes on at each question asked live (the
            list of unfinished games names it the same way).
    """

    def __init__(
        self,
        game: str,
        events: list[Event],
        *,
        save: Callable[[str, Any, str], None],
        prompter: Prompter,
        out: Callable[[str], None],
        known_names: Sequence[str] = (),
        undone: tuple[str, Any] | None = None,
        heading: Callable[[str], str | None] | None = None,
        asked: Callable[[str], None] | None = None,
    ) -> None:
        self.game = game
        self.answers = [(k, v) for k, v in events if is_answer(k)]
        self.seeds = {k[len(SEED_PREFIX) :]: v for k, v in events if k.startswith(SEED_PREFIX)}
        self.position = 0
        self.phase = "setup"
        self.where = "setup"
        self.topic = "setup"
        self.asking = self.topic
        self.current_round = SET_UP
        self.rounds: list[str] = []
        """The round of each answer used so far (replayed or new), in order."""
        self._save = save
        self.prompter = prompter
        self._out = out
        self.known_names = list(known_names)
        self.players: list[str] = []
        """The players' names in seat order, once asked (named in refusals of a row)."""
        self.undone = undone
        self._heading = heading
        self._asked = asked
        self._backlog: list[tuple[str, str]] = []
        self._replaying = bool(self.answers)

    def offered(self, key: str, default: Any) -> Any:
        """What a live question offers: the answer just undone for it, else ``default``."""
        if self.undone is None or not self.live or self.undone[0] != key:
            return default
        value = self.undone[1]
        self.undone = None
        return value

    @property
    def live(self) -> bool:
        """Whether the saved answers are used up (new questions reach the players)."""
        return self.position >= len(self.answers)

    def next_saved(self) -> str | None:
        """The key of the next saved answer while replaying, ``None`` once live.

        A flow that adds a question asks it only when this is ``None`` or the
        question's key: a session saved before the question existed replays
        without it.
        """
        if self.position < len(self.answers):
            return self.answers[self.position][0]
        return None

    def say(self, text: str, *, kind: str = "") -> None:
        """Announce something; while replaying, keep it for the resume context.

        Args:
            text: What to say (it may span lines).
            kind: Said again and again with newer content (the score pad): on
                resume only the latest text of a kind is shown, never a stale one.
        """
        if self.live and not self._replaying:
            self._out(text)
            return
        if kind:
            self._backlog = [(k, said) for k, said in self._backlog if k != kind]
        self._backlog.append((kind, text))

    def at(self, phase: str, where: str, topic: str) -> None:
        """Mark the part of the game the next questions belong to.

        Args:
            phase: A rules phase (``setup``, ``round``, ``turn``, ``scoring``, ``end``).
            where: Words for the players and the resume list, e.g. "round 3".
            topic: The rules topic id ``:rules`` opens for these questions.
        """
        self.phase, self.where, self.topic = phase, where, topic

    def round(self, label: str) -> None:
        """The next answers belong to this round (``round 3``, ``stage 2``, ``final count``).

        The clock times each round with the answers asked in it; the game
        begins in ``set-up``.
        """
        self.current_round = label

    def done(self) -> None:
        """The flow has ended: every saved answer must have been used.

        Raises:
            ReplayError: Answers were saved after the end of the game.
        """
        if self.position < len(self.answers):
            extra = len(self.answers) - self.position
            raise ReplayError(
                self.position,
                "after the end of the game",
                f"{plural(extra, 'saved answer')} "
                f"{'comes' if extra == 1 else 'come'} after the game's last question",
            )

    def _answer(
        self,
        key: str,
        message: str,
        ask: Callable[[], Any],
        problem: Callable[[Any], str | None],
        topic: str | None,
    ) -> Any:
        if self.position < len(self.answers):
            saved_key, value = self.answers[self.position]
            if saved_key != key:
                raise ReplayError(
                    self.position, message, f"it was saved for another question ({saved_key})"
                )
            if isinstance(value, Unreadable):
                reason = f"the saved answer cannot be read ({value})"
                raise ReplayError(self.position, message, reason)
            try:
                wrong = problem(value)
            except (TypeError, ValueError, KeyError, AttributeError, IndexError):
                # A check that cannot even look at it (a list where a word belongs):
                # not an answer to this question, said in one line like any other.
                wrong = "is not an answer this question takes"
            if wrong:
                raise ReplayError(self.position, message, f"the saved answer {value!r} {wrong}")
            self.position += 1
            self.rounds.append(self.current_round)
            return value
        at = going_on_at(self.where, message)
        if self._asked is not None:
            self._asked(at)
        if self._heading is not None:
            said = self._heading(at)
            self._heading = None
            if said:
                self._out(said)
        if self._replaying:
            self._replaying = False
            for _, line in self._backlog[-CONTEXT_LINES:]:
                self._out(line)
            self._backlog.clear()
        self.asking = topic or self.topic
        value = ask()
        self._save(key, value, self.where)
        self.answers.append((key, value))
        self.position += 1
        self.rounds.append(self.current_round)
        return value

    def choose(
        self,
        key: str,
        message: str,
        choices: Sequence[str],
        default: str | None = None,
        *,
        topic: str | None = None,
        formerly: Mapping[str, str] | None = None,
        unavailable: Mapping[str, str] | None = None,
    ) -> str:
        """One of ``choices``.

        ``formerly`` maps the words an earlier version offered to today's choice:
        a game saved then replays (those words are never offered).
        ``unavailable`` (choice → why, e.g. ``Aki's``) are listed, so every
        choice keeps its number, but cannot be picked.
        """
        renamed = formerly or {}
        barred = dict(unavailable or {})

        def problem(value: Any) -> str | None:
            if not isinstance(value, str):
                return "is not one of the choices"
            if renamed.get(value, value) in barred:
                return f"is not to be had ({barred[renamed.get(value, value)]})"
            ok = value in choices or renamed.get(value) in choices
            return None if ok else "is not one of the choices"

        def ask() -> str:
            offered = self.offered(key, default)
            shown = offered if offered in choices and offered not in barred else default
            while True:
                picked = (
                    self.prompter.select(message, choices, shown, unavailable=barred)
                    if barred
                    else self.prompter.select(message, choices, shown)
                )
                if picked not in barred:
                    return picked

        value = self._answer(key, message, ask, problem, topic)
        return renamed.get(value, str(value))

    def yes(
        self, key: str, message: str, *, default: bool = True, topic: str | None = None
    ) -> bool:
        """Yes or no."""
        answer = self.choose(key, message, ["Yes", "No"], "Yes" if default else "No", topic=topic)
        return answer == "Yes"

    def number(
        self,
        key: str,
        message: str,
        *,
        low: int = 0,
        high: int | None = None,
        default: int | None = None,
        topic: str | None = None,
        voice: Question | None = None,
    ) -> int:
        """A whole number in ``low..high``, asked again until it is one.

        ``voice``: the question as it may be said (an end count), for a prompter that listens.
        """

        def check(text: str) -> str | None:
            cleaned = text.strip()
            if not (cleaned.isascii() and cleaned.lstrip("-").isdigit()) or len(cleaned) > 9:
                return "type a whole number, like 3"
            value = int(cleaned)
            if value < low:
                return f"{value} is too small: at least {low}"
            if high is not None and value > high:
                return f"{value} is too big: at most {high}"
            return None

        def ask() -> int:
            offered = self.offered(key, default)
            shown = "" if offered is None else str(offered)
            return int(self._text(message, check, shown, (), voice=voice).strip())

        value = self._answer(key, message, ask, lambda v: _number_problem(v, low, high), topic)
        return int(value)

    def numbers(
        self,
        key: str,
        message: str,
        count: int,
        *,
        high: int,
        default: Sequence[int] | None = None,
        topic: str | None = None,
    ) -> list[int]:
        """``count`` whole numbers from 0 to ``high`` in one answer (a row of the score pad).

        Asked in the end count (the ``scoring`` phase), the row may be said aloud
        to a prompter that listens: the players' names and the numbers up to ``high``.
        """

        field = _field_of(message)
        voice = None
        if self.phase == "scoring":
            named = tuple(self.players) if len(self.players) == count else ("",) * count
            voice = Question(named, tuple(range(count)), 0, high)

        def whose(seat: int) -> str:
            names = self.players if len(self.players) == count else []
            return names[seat] if names else f"player {seat + 1}"

        def check(text: str) -> str | None:
            import re

            parts = [(m.group(), m.span()) for m in re.finditer(r"[^\s,]+", text)]
            for seat, (part, span) in enumerate(parts[:count]):
                shown = part if len(part) <= 12 else part[:11] + "…"
                if not (part.isascii() and part.isdigit()) or len(part) > 9:
                    return Refusal(f"{field}, {whose(seat)}: {shown} is not a whole number", span)
                if int(part) > high:
                    return Refusal(
                        f"{field}, {whose(seat)}: {part} is too big (at most {high})", span
                    )
            if len(parts) > count:
                extra = len(parts) - count
                start = parts[count][1][0]
                return Refusal(
                    f"{field}: {count} numbers, one per player; {plural(extra, 'number')} too many",
                    (start, len(text.rstrip())),
                )
            if len(parts) < count:
                missing = ", ".join(whose(seat) for seat in range(len(parts), count))
                end = len(text)
                return Refusal(
                    f"{field}: {count} numbers, one per player; none yet for {missing}",
                    (end, end),
                )
            return None

        def problem(value: Any) -> str | None:
            if not isinstance(value, list) or len(value) != count:
                return f"is not a list of {count} numbers"
            return next((p for p in (_number_problem(v, 0, high) for v in value) if p), None)

        def ask() -> list[int]:
            offered = self.offered(key, default)
            shown = "" if offered is None else " ".join(str(v) for v in offered)
            text = self._text(message, check, shown, (), voice=voice)
            return [int(part) for part in text.replace(",", " ").split()]

        return list(self._answer(key, message, ask, problem, topic))

    def text(
        self,
        key: str,
        message: str,
        *,
        check: Callable[[str], str | None] | None = None,
        default: str = "",
        suggestions: Sequence[str] = (),
        complete: Complete | None = None,
        preview: Preview | None = None,
        topic: str | None = None,
        voice: Question | None = None,
    ) -> str:
        """A line of text (stripped) that ``check`` accepts.

        ``voice``: the question as it may be said (an entry code of the end count),
        for a prompter that listens.
        """

        def validate(text: str) -> str | None:
            if not check:
                return None
            return shifted(check(text.strip()), len(text) - len(text.lstrip()))

        def problem(value: Any) -> str | None:
            if not isinstance(value, str):
                return "is not text"
            return validate(value)

        def ask() -> str:
            offered = self.offered(key, default)
            shown = offered if isinstance(offered, str) else default
            return self._text(
                message,
                validate,
                shown,
                suggestions,
                complete=complete,
                preview=preview,
                voice=voice,
            ).strip()

        return str(self._answer(key, message, ask, problem, topic))

    def _text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
        *,
        complete: Complete | None = None,
        preview: Preview | None = None,
        voice: Question | None = None,
    ) -> str:
        """The prompter's text question; ``voice`` is handed only to a prompter that listens."""
        more: dict[str, Any] = {}
        if complete is not None:
            more["complete"] = complete
        if preview is not None:
            more["preview"] = preview
        if voice is not None and getattr(self.prompter, "listens", False):
            more["voice"] = voice
        return self.prompter.text(message, validate, default, suggestions, **more)

    def seed(self, key: str) -> int:
        """A random seed, drawn once and kept with the game: undo and replay reuse it."""
        if key in self.seeds:
            value = self.seeds[key]
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            raise ReplayError(self.position, f"the draw {key}", f"its saved seed {value!r} is bad")
        from companion.play.setup import new_seed

        value = new_seed()
        self._save(SEED_PREFIX + key, value, self.where)
        self.seeds[key] = value
        return value
