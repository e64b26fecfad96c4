"""``python -m companion``."""

from companion.cli.app import main

main()
