"""Issue 13's proof in Debian's Chromium (Playwright, Russian): a player registers a deck with
one banned card and one unknown name on a phone (390×844), sees both problems at once with the
closest names, fixes them (one tap on the suggestion replaces the name in its line) and the
deck is legal (C-1); the organizer pairs round 1 (the wizard named who had no legal deck); the
player's deck is locked; a judge changes it (1366×900) and the tournament's audit log shows the
change. A starter constructed tournament refuses a deck that is not one of its starter decks,
accepts a starter deck, and its rating page says it is not rated (C-2). Every page fits its
viewport; with ``TURNIR_SCREENSHOTS=1`` the screenshots go to ``docs/screenshots/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.services.builders import ORGANIZER, event, play_round
from tests.web.conftest import LiveServer, add_account, shoot, sign_in
from tests.web.pages_check import assert_accessible, assert_tap_targets
from tests.web.test_browser import new_page
from turnir.services import pages
from turnir.services.accounts import AccountRole, make_hasher
from turnir.services.cards import load_sample_cards
from turnir.services.deck_formats import set_tournament_format
from turnir.services.format_edits import create_format, set_ban_list, set_starter_deck
from turnir.services.judges import JudgeRole, add_judge
from turnir.services.tournaments import finish_tournament

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
BANNED = "Сын бури"
TYPO, CARD = "Горный стражь", "Горный страж"
STEPPE = ("Степной разведчик", "Кочевник-лучник", "Всадник ветра", "Табунщица Айла",
          "Пыльный смерч", "Шаман ковыля", "Ханская стража", "Курганный идол", "Степной орёл")
LEGAL = "\n".join(f"3 {name}" for name in STEPPE) + "\n5 Гонец курганов"
"""32 cards of the sample catalogue, nine three times and five of a Horde card (C-1)."""
DECK = f"{LEGAL}\n2 {BANNED}\n3 {TYPO}\n"
"""37 cards: line 11 is banned in the format, line 12 names no card."""


def fits(page: Page) -> None:
    """No horizontal page scroll."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def _constructed(server: LiveServer, *, starter: bool = False) -> int:
    """A tournament of 8 (4 for a starter one) with the sample catalogue's format «Классика»
    banning «Сын бури» (or «Стартовый», whose only deck is «Степь»), «org» its organizer and
    «judge» its head judge."""
    db = server.db
    if not starter:
        load_sample_cards(db, actor=ORGANIZER)
        for login, role in (("org", AccountRole.ORGANIZER), ("judge", AccountRole.HEAD_JUDGE)):
            add_account(db, login, role)
    fmt = create_format(db, actor=ORGANIZER, account_id=None,
                        name="Стартовый" if starter else "Классика", starter=starter)
    if starter:
        set_starter_deck(db, fmt.id, actor=ORGANIZER, account_id=None, name="Степь",
                         text=LEGAL)
    else:
        set_ban_list(db, fmt.id, actor=ORGANIZER, account_id=None, effective="2020-01-01",
                     cards=[BANNED])
    tid = event(db, 4 if starter else 8, rounds=1 if starter else 3,
                name="Стартовый вечер" if starter else "Кубок колод")
    set_tournament_format(db, tid, actor=ORGANIZER, account_id=None, format_id=fmt.id)
    add_judge(db, tid, role=JudgeRole.ORGANIZER, login="org", actor=ORGANIZER)
    add_judge(db, tid, role=JudgeRole.HEAD_JUDGE, login="judge", actor=ORGANIZER)
    return tid


def _player(browser: Any, server: LiveServer, tid: int, viewport: dict[str, int]) -> Page:
    """Player #1 logged in."""
    made = pages.make_player_login(server.db, tid, 1, actor=ORGANIZER,
                                   hasher=make_hasher(fast=True))
    page = new_page(browser, viewport=viewport)
    sign_in(page, server, made.login, made.password)
    return page


def _save(page: Page, text: str | None = None) -> None:
    if text is not None:
        page.fill("#deck-text", text)
    page.click("#save-deck")
    page.wait_for_url("**saved=1")


def test_a_player_fixes_a_deck_round_1_locks_it_and_a_judges_change_is_logged(
        live_server: LiveServer, browser: Any, screens: Path) -> None:
    tid = _constructed(live_server)
    player = _player(browser, live_server, tid, PHONE)
    player.goto(f"{live_server.url}/t/{tid}/me")
    player.click("#my-deck-link")
    expect(player.locator("#deck-verdict")).to_contain_text("Колода ещё не зарегистрирована")
    _save(player, DECK)
    expect(player.locator("#deck-verdict")).to_contain_text("Колода недопустима")
    problems = player.locator("#problem-list li.problem")
    expect(problems).to_have_count(2)  # both at once, each naming the card and the rule
    expect(problems.nth(0)).to_contain_text(f"«{BANNED}» запрещена в формате «Классика» (C-1)")
    expect(problems.nth(1)).to_contain_text(f"нет карты «{TYPO}»")
    expect(problems.nth(1)).to_contain_text("строка 12")
    suggestion = problems.nth(1).locator(f"button[data-to='{CARD}']")
    expect(suggestion).to_be_visible()  # a button with JavaScript (text without it)
    fits(player)
    assert_accessible(player)
    assert_tap_targets(player)
    shoot(player, str(screens / "deck-problems-390.png"), full_page=True)
    suggestion.click()  # the name is replaced in its line
    text = player.input_value("#deck-text")
    assert f"3 {CARD}\n" in text and TYPO not in text
    expect(problems.nth(1)).to_contain_text("Заменено в списке")
    _save(player, text.replace(f"2 {BANNED}\n", ""))
    expect(player.locator("#deck-verdict")).to_contain_text("Колода допустима")
    expect(player.locator("#deck-total")).to_have_text("карт: 35")
    expect(player.locator("#problem-list")).to_have_count(0)
    fits(player)
    shoot(player, str(screens / "deck-legal-390.png"), full_page=True)

    org = new_page(browser, viewport=DESKTOP)
    sign_in(org, live_server, "org")
    org.goto(f"{live_server.url}/t/{tid}/manage")
    expect(org.locator("#decks-state")).to_contain_text("Без допустимой колоды (7)")
    expect(org.locator("#no-legal-deck")).not_to_contain_text("Игрок 01")
    shoot(org, str(screens / "wizard-decks-1366.png"))
    org.click("#pair-next")  # allowed all the same
    expect(org.locator("#enter-results")).to_be_visible()

    player.goto(f"{live_server.url}/t/{tid}/deck")
    expect(player.locator("#deck-locked")).to_contain_text("обратитесь к судье")
    expect(player.locator("#deck-form")).to_have_count(0)
    expect(player.locator("#deck-list")).to_contain_text(CARD)
    fits(player)
    shoot(player, str(screens / "deck-locked-390.png"), full_page=True)

    judge = new_page(browser, viewport=DESKTOP)
    sign_in(judge, live_server, "judge")
    judge.goto(f"{live_server.url}/t/{tid}/decks/1/edit")
    expect(judge.locator("#judge-note")).to_contain_text("решение судьи")
    judge.fill("#deck-text", judge.input_value("#deck-text").replace("3 Степной орёл\n", ""))
    judge.fill("#card-q", "волчья")  # the builder: each tap adds a copy
    pick = judge.locator("#card-results button[data-card='Волчья стая']")
    for _ in range(3):
        pick.click()
    assert "\n3 Волчья стая\n" in judge.input_value("#deck-text")
    expect(judge.locator("#deck-builder .added")).to_contain_text("Добавлено: Волчья стая")
    shoot(judge, str(screens / "deck-builder-1366.png"), full_page=True)
    _save(judge)
    expect(judge.locator("#deck-verdict")).to_contain_text("Колода допустима")
    fits(judge)
    shoot(judge, str(screens / "deck-judge-1366.png"), full_page=True)
    judge.goto(f"{live_server.url}/t/{tid}/log")
    entry = judge.locator("#log tr", has_text="Колода изменена судьёй")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("Волчья стая")
    judge.goto(f"{live_server.url}/t/{tid}/decks/1/print")
    expect(judge.locator("table.sheet-cards tbody")).to_contain_text("Волчья стая")
    fits(judge)
    shoot(judge, str(screens / "deck-sheet-1366.png"), full_page=True)
    player.goto(f"{live_server.url}/t/{tid}/decks/1/print")
    expect(player.locator("table.sheet-cards tfoot")).to_contain_text("35")
    fits(player)
    shoot(player, str(screens / "deck-sheet-390.png"), full_page=True)


def test_starter_constructed_takes_only_its_starter_decks_and_is_not_rated(
        live_server: LiveServer, browser: Any, screens: Path) -> None:
    _constructed(live_server)  # the catalogue, the staff
    tid = _constructed(live_server, starter=True)
    player = _player(browser, live_server, tid, DESKTOP)
    player.goto(f"{live_server.url}/t/{tid}/deck")
    _save(player, LEGAL.replace("3 Степной орёл", "3 Волчья стая"))  # legal, not a starter
    expect(player.locator("#deck-verdict")).to_contain_text("Колода недопустима")
    expect(player.locator("#problem-list li.problem")).to_have_count(1)
    expect(player.locator("#problem-list")).to_contain_text("Степь")
    expect(player.locator("#problem-list")).to_contain_text("C-2")
    fits(player)
    shoot(player, str(screens / "deck-starter-1366.png"), full_page=True)
    player.click("#starter-decks button[data-starter='Степь']")  # the starter deck itself
    expect(player.locator("#deck-verdict")).to_contain_text("Колода допустима")
    expect(player.locator("#deck-text")).to_have_value(LEGAL)
    play_round(live_server.db, tid)
    finish_tournament(live_server.db, tid, actor=ORGANIZER)
    player.goto(f"{live_server.url}/t/{tid}/rating")
    expect(player.locator("#rating-problem")).to_contain_text("не меняет рейтинг")
    public = new_page(browser, viewport=PHONE)
    public.goto(f"{live_server.url}/deck-check")
    public.select_option("#check-format", label="Классика")
    public.fill("#deck-text", DECK)
    public.click("#check-deck")
    expect(public.locator("#deck-result li.problem")).to_have_count(2)  # no login needed
    fits(public)
    shoot(public, str(screens / "deck-check-390.png"), full_page=True)
