"""Help that reads well: completion, whole command lines, one placeholder style, formats."""

from __future__ import annotations

import re
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from companion.cli.app import app

runner = CliRunner()
PLACEHOLDER = re.compile(r"\[?[A-Z][A-Z0-9_]*(?:=[A-Z0-9_,]+)?(?:\|(?:[a-z]+|[A-Z]+))*\]?")


def every_command() -> list[list[str]]:
    found: list[list[str]] = [[]]

    def walk(group: Any, path: list[str]) -> None:
        for name, command in group.commands.items():
            found.append([*path, name])
            if hasattr(command, "commands"):
                walk(command, [*path, name])

    walk(get_command(app), [])
    return found


def help_of(path: list[str]) -> str:
    result = runner.invoke(app, [*path, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_is_offered_and_shown(shell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--show-completion`` shows the script of the shell it runs under.

    Typer finds that shell by walking up the process tree (shellingham): the
    test names it, as the shell a user types in, rather than depend on what
    started pytest (``make quick`` runs it under /bin/sh, which has no completion).
    """
    import typer.completion

    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: shell)
    text = help_of([])
    assert "--install-completion" in text
    assert "--show-completion" in text
    shown = runner.invoke(app, ["--show-completion"], prog_name="companion")
    assert shown.exit_code == 0, shown.output
    assert f"_COMPANION_COMPLETE=complete_{shell}" in shown.stdout


@pytest.mark.parametrize("path", [[], ["history"]], ids=["companion", "history"])
def test_command_lists_are_never_cut(path: list[str]) -> None:
    text = help_of(path)
    listed = text[text.index("Commands:") :].splitlines()[1:]
    assert listed
    group: Any = get_command(app)
    for name in path:
        group = group.commands[name]
    joined = " ".join(line.strip() for line in listed)
    for name, command in group.commands.items():
        first = command.help.split("\n\n")[0].replace("\n", " ").strip()
        assert f"{name} {first}" in re.sub(r"\s+", " ", joined), name
    assert "..." not in joined and "…" not in joined


@pytest.mark.parametrize("path", every_command(), ids=lambda p: " ".join(p) or "companion")
def test_one_placeholder_style(path: list[str]) -> None:
    text = help_of(path)
    usage = text.splitlines()[0]
    assert "{" not in usage and "<" not in usage, usage
    for piece in usage.split()[2 + len(path) :]:
        assert piece in ("[OPTIONS]", "COMMAND", "[ARGS]...") or PLACEHOLDER.fullmatch(piece), usage
    for option in re.findall(r"^\s+(?:-\w, )?--[\w-]+ (\S+)", text, re.M):
        assert PLACEHOLDER.fullmatch(option), f"{' '.join(path)}: {option}"


@pytest.mark.parametrize(
    ("path", "option", "example"),
    [
        (["history", "list"], "--since DATE", "2026-11-30"),
        (["history", "edit"], "--date DATE", "2026-11-30 20:15"),
        (["history", "edit"], "--duration MINUTES", "55"),
        (["history", "edit"], "--rename OLD=NEW", "OLD=NEW"),
        (["history", "edit"], "--members TEAM=A,B", "TEAM=A,B"),
        (["history", "export"], "--format FORMAT", "csv, json, bgstats or bgg-xml"),
    ],
)
def test_each_format_is_in_its_help(path: list[str], option: str, example: str) -> None:
    text = re.sub(r"\s+", " ", help_of(path))
    start = text.index(option)
    assert example in text[start : start + 120]
