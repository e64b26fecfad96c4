"""The page's own front end (``frontend/``): the built bundle matches its sources.

``frontend/build.mjs`` writes a fingerprint of what it built from at the top
of ``page.js`` and ``page.css``; a change to the sources, the build script or
the pinned packages that was not built again fails here (npm is not needed
to run the suite: the bundle is committed).
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
TEMPLATE = ROOT / "companion" / "widgets" / "jupyter" / "voila" / "templates" / "companion"
STATIC = TEMPLATE / "static"


def fingerprint(folder: Path = FRONTEND) -> str:
    """The sha256 that build.mjs computes over its inputs, in the same order."""
    names = ["build.mjs", "package.json", "package-lock.json"]
    names += [f"src/{path.name}" for path in sorted((folder / "src").iterdir())]
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0")
        digest.update((folder / name).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@pytest.mark.parametrize("bundle", ["page.js", "page.css", "scheme.js"])
def test_the_bundle_is_built_from_the_sources(bundle: str) -> None:
    first_line = (STATIC / bundle).read_text(encoding="utf-8").split("\n", 1)[0]
    built_from = re.fullmatch(
        r"/\* The companion's page, built by frontend/build\.mjs from ([0-9a-f]{64}) \*/",
        first_line,
    )
    assert built_from, first_line
    assert built_from.group(1) == fingerprint(), (
        "frontend/ changed since the page was built: run `npm ci && npm run build` in frontend/"
    )


def test_the_fingerprint_covers_every_source(tmp_path: Path) -> None:
    copy = tmp_path / "frontend"
    shutil.copytree(FRONTEND, copy, ignore=shutil.ignore_patterns("node_modules"))
    assert fingerprint(copy) == fingerprint()
    inputs = ["build.mjs", "package.json", "package-lock.json"]
    inputs += [f"src/{path.name}" for path in (copy / "src").iterdir()]
    for name in inputs:
        text = (copy / name).read_bytes()
        (copy / name).write_bytes(text + b"\n")
        assert fingerprint(copy) != fingerprint(), name
        (copy / name).write_bytes(text)
    (copy / "src" / "extra.js").write_text("")
    assert fingerprint(copy) != fingerprint()


def test_the_page_loads_its_own_scripts_and_nothing_from_outside() -> None:
    template = (TEMPLATE / "index.html.j2").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="([^"]+)"', template)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', template)
    static = "{{ resources.base_url }}voila/templates/companion/static/"
    version = fingerprint()[:16]  # so that a browser that kept the old files fetches the new
    assert scripts == [f"{static}scheme.js?v={version}", f"{static}page.js?v={version}"]
    assert "<script>" not in template  # the page's policy refuses inline scripts
    assert styles == [f"{static}page.css?v={version}"]
    assert not re.search(r"https?://", template)
    assert "main_js" not in template and "voila_setup_labextensions" not in template
    bundle = (STATIC / "page.js").read_text(encoding="utf-8")
    for outside in ("cdn.jsdelivr", "unpkg.com", "cdnjs", "fonts.googleapis"):
        assert outside not in bundle
    css = (STATIC / "page.css").read_text(encoding="utf-8")
    assert not re.search(r"url\((?!data:)", css), "page.css refers to a file it does not hold"


def bundled_widgets() -> set[tuple[str, str]]:
    """(module, class) of every widget class the bundle can show (frontend/src/widgets.js)."""
    source = (FRONTEND / "src" / "widgets.js").read_text(encoding="utf-8")
    found = set()
    for module in ("@jupyter-widgets/base", "@jupyter-widgets/controls"):
        names = re.search(rf'export \{{([^}}]*)\}} from "{re.escape(module)}";', source)
        assert names, module
        found |= {(module, name) for name in re.findall(r"\w+", names.group(1))}
    # The companion's own views, in place of the controls' (src/text.js).
    for name in re.findall(r'export \{ (\w+) \} from "\./\w+\.js";', source):
        found.add(("@jupyter-widgets/controls", name))
    return found


def made_widgets(before: set[str]) -> set[tuple[str, str]]:
    """(module, class) of the models and views of every widget made since ``before``."""
    from ipywidgets.widgets.widget import _instances

    needed = set()
    for model_id, widget in list(_instances.items()):
        if model_id in before:
            continue
        needed.add((widget._model_module, widget._model_name))
        if widget._view_name is not None:
            needed.add((widget._view_module, widget._view_name))
    return needed


def test_the_bundle_shows_every_widget_the_pages_make() -> None:
    import ipywidgets
    from ipywidgets.widgets.widget import _instances

    from companion.widgets import GamePage, HistoryPage
    from scorers import SCORERS

    before = set(_instances)
    for game in SCORERS:
        GamePage(game)
    HistoryPage()
    # Every widget class the page code names, made once (with its style and layout),
    # so that one made only later (a row added to a list) is covered too.
    used = set()
    for path in (ROOT / "companion" / "widgets").glob("*.py"):
        used |= set(re.findall(r"\bw\.([A-Z]\w*)\(", path.read_text(encoding="utf-8")))
    assert {"Text", "Dropdown", "Button", "HTML", "VBox"} <= used
    for name in sorted(used):
        getattr(ipywidgets, name)()
    needed = made_widgets(before)
    assert ("@jupyter-widgets/controls", "ComboboxModel") in needed
    assert needed - bundled_widgets() == set()
