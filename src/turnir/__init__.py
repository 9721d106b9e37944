"""turnir: tournament reporter and judging platform for the Berserk card game."""

__version__ = "0.1.0"
