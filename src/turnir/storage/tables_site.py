"""Tables shared by every web worker of one deployment (issue 15) on the shared metadata of
``turnir.storage.tables``.

- ``site_secrets``: values the whole deployment must agree on, drawn once and kept: the key
  that signs the CSRF tokens when ``TURNIR_SECRET_KEY`` is not given, so that several workers
  (``turnir serve --workers N``) and restarts accept each other's forms.
- ``form_tokens``: the one-time tokens of creating forms (``turnir.web.form_once``) claimed
  lately, by the SHA-256 of visitor, path and token: pending while the first request is being
  handled, then finished with the page it led to. Kept in the database so that a form sent
  again to another worker is still answered as the first one.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from turnir.storage.tables import Base, _tables


class SiteSecret(Base):
    """A deployment-wide secret, by name (drawn once by the first process that needs it)."""

    __tablename__ = "site_secrets"

    name: Mapped[str] = mapped_column(String(50), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime]


class FormTokenRow(Base):
    """A creating form's one-time token claimed lately (``turnir.web.form_once``)."""

    __tablename__ = "form_tokens"
    __table_args__ = (Index("ix_form_tokens_keep_until", "keep_until"),)

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 (hex) of the visitor, the form's path and its token (or what the form said)."""
    claimed_at: Mapped[datetime]
    keep_until: Mapped[datetime]
    """Forgotten after this (a claim older than its keep is free again)."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    url: Mapped[str | None] = mapped_column(String(2000))
    """The page the change led to (the answer to the form sent again)."""


site_secrets, form_tokens = _tables(SiteSecret, FormTokenRow)
