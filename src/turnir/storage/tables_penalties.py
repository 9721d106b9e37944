"""Tables for penalties, appeals, infraction catalogue and the suspension register (issue 5)
on the shared metadata of ``turnir.storage.tables``.
"""

from __future__ import annotations
