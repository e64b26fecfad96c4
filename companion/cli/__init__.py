"""The ``companion`` command line: parses options, asks the library, prints.

:mod:`companion.cli.app` is the typer app and the program's entry point; each
command group has its module beside it, and :mod:`companion.cli.common` holds
what they share (options, errors, output).
"""
