"""Tables for the online judge robot's games and decisions (issue 7)
on the shared metadata of ``turnir.storage.tables``.
"""

from __future__ import annotations
