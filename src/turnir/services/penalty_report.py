"""The old names of the penalties document (``services.penalty_document``), kept while the web
(``web/penalty_pages.py``) imports them from here."""

from turnir.services.penalty_document import PenaltyDocument as PenaltyReport
from turnir.services.penalty_document import penalty_document as penalty_report
from turnir.services.penalty_document import render_penalty_document as render_penalty_report

__all__ = ["PenaltyReport", "penalty_report", "render_penalty_report"]
