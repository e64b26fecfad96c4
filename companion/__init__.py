"""companion: a table-side assistant for five physical board games."""

__version__ = "0.1.0"
