"""companion: a table-side assistant for five physical board games."""

import os as _os

__version__ = "0.1.0"

if _os.environ.get("COMPANION_GAMES"):
    # Extra games (a plugin, or a test's own game): each module named registers its
    # game through companion.kits.register when imported (companion/kits/__init__.py).
    import importlib as _importlib

    for _name in _os.environ["COMPANION_GAMES"].split(","):
        if _name.strip():
            try:
                _importlib.import_module(_name.strip())
            except Exception as _error:  # said in one line; the built-in games still work
                import sys as _sys

                _why = f"{type(_error).__name__}: {_error}"
                print(f"COMPANION_GAMES: {_name.strip()} not loaded ({_why})", file=_sys.stderr)
