"""Tables for the rating database: rated tournaments, rating history, current ratings (issue 6)
on the shared metadata of ``turnir.storage.tables``.
"""

from __future__ import annotations
