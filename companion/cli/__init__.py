"""The ``companion`` command line: parses options, asks the library, prints.

:mod:`companion.cli.app` is the program's entry point, :mod:`companion.cli.root`
the typer app (built with only the command a command line runs) and
:mod:`companion.cli.quick` the two command lines answered before typer is
imported; each command group has its module beside it (``history``, ``play``, ``rules``,
``notebooks``, and :mod:`companion.cli.menu` for ``companion`` alone). What
they share is in :mod:`companion.cli.common` (options and their parsers,
errors, output) and :mod:`companion.cli.sessions` (running a session at the
terminal); no command module calls another's function.
"""
