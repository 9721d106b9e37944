"""Tables for web accounts, roles and sessions (issue 4)
on the shared metadata of ``turnir.storage.tables``.
"""

from __future__ import annotations
