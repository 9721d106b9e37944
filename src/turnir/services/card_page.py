"""The player's match card page (``GET /t/{tid}/me``, issue 15, load) in one read: the card
(``services.player_match``), the round's clock, whether the tournament has a deck format (the
card links to the player's deck) and whether it takes decks at all (the tab bar), where the
page used to open a transaction for each."""

from __future__ import annotations

from dataclasses import dataclass

from turnir.services.accounts import AccountInfo
from turnir.services.common import Database, reading
from turnir.services.deck_formats import tournament_format_in
from turnir.services.decks import takes_decks_in
from turnir.services.player_match import MyMatch, my_match_in
from turnir.services.round_clock import RoundTimer, round_timer_in


@dataclass(frozen=True, slots=True)
class CardPage:
    card: MyMatch
    timer: RoundTimer | None
    """The current round's clock, everyone's."""
    deck_format: bool
    """The tournament has a deck format (a link to the player's deck, issue 13)."""
    takes_decks: bool
    """It takes decks: a format or a draft's plan (the deck tabs)."""


def card_page(db: Database, tournament_id: int, account: AccountInfo) -> CardPage:
    """Everything the card's page shows, in one snapshot; refused as ``my_match`` is."""
    with reading(db) as tx:
        card = my_match_in(tx, tournament_id, account)
        timer = round_timer_in(tx, tournament_id, card.round) if card.round else None
        return CardPage(card, timer, tournament_format_in(tx, tournament_id) is not None,
                        takes_decks_in(tx, tournament_id) is not None)
