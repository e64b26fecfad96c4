"""The notebooks users open; installed as ``companion.notebooks``."""
