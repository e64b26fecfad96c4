"""The examples in the kits' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    [
        "companion.kits",
        "companion.kits.pad",
        "companion.kits.rounds",
        "companion.kits.shogun.winter",
        "companion.widgets.notebook_files",
    ],
)
def test_the_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
