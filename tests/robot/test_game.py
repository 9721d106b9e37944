"""The game model: events, illegal moves and inconsistent events leave the game untouched."""

from __future__ import annotations

import chess
import pytest

from tests.robot.builders import setup
from turnir.domain.robot_rules import ChessResult, RobotSettings, Rule
from turnir.errors import ConflictError, UserError
from turnir.robot.game import (
    ClockReading,
    DrawAgreed,
    EndReason,
    FlagFell,
    Game,
    GameSetup,
    MovePlayed,
    Resigned,
)

S = RobotSettings()


def game(**kwargs: object) -> Game:
    return Game(setup(**kwargs), S)  # type: ignore[arg-type]


def state(g: Game) -> tuple[object, ...]:
    return (g.board.fen(), dict(g.lags), g.clocks_at(g.last_event_ms), g.last_event_ms, g.end,
            g.events)


def test_moves_in_uci_and_san_with_lags() -> None:
    g = game()
    g.apply(MovePlayed(1_000, "e2e4", 200))
    g.apply(MovePlayed(5_000, "e5", 4_000))
    g.apply(MovePlayed(6_000, "Nf3", 400))
    assert g.board.fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2")
    assert g.lags[chess.WHITE].mean_ms == 300
    assert g.lags[chess.BLACK].mean_ms == 4_000
    assert g.lagger(S).lagger == chess.BLACK


@pytest.mark.parametrize("event", [
    MovePlayed(1_000, "e2e5"),                   # illegal
    MovePlayed(1_000, "Ke2"),                    # illegal SAN
    MovePlayed(1_000, "zz"),                     # not a move
    MovePlayed(1_000, "e7e5"),                   # not White's piece
    MovePlayed(1_000, "e2e4", lag_ms=-1),        # negative lag
    MovePlayed(1_000, "e2e4", clock_ms=-5),      # negative clock
    ClockReading(1_000, -1, 5),
    FlagFell(1_000, chess.BLACK),                # only the side to move's clock runs
])
def test_bad_events_are_refused_and_change_nothing(event: object) -> None:
    g = game()
    g.apply(MovePlayed(500, "d2d4", 100))
    g.apply(MovePlayed(800, "d7d5", 100))
    before = state(g)
    with pytest.raises(UserError):
        g.apply(event)  # type: ignore[arg-type]
    assert state(g) == before


def test_out_of_order_event_is_refused() -> None:
    g = game()
    g.apply(MovePlayed(5_000, "e2e4"))
    before = state(g)
    with pytest.raises(UserError) as error:
        g.apply(MovePlayed(4_999, "e7e5"))
    assert error.value.code == "out_of_order"
    assert state(g) == before


def test_a_finished_game_takes_no_more_events() -> None:
    g = game()
    g.apply(Resigned(3_000, chess.WHITE))
    assert g.end is not None and g.end.result is ChessResult.BLACK_WINS
    with pytest.raises(ConflictError):
        g.apply(MovePlayed(4_000, "e2e4"))
    with pytest.raises(ConflictError):
        g.finish(ChessResult.DRAW, at_ms=5_000)


def test_checkmate_ends_the_game() -> None:
    g = game()
    for i, move in enumerate(["f2f3", "e7e5", "g2g4", "Qh4#"]):
        end = g.apply(MovePlayed(1_000 * (i + 1), move))
    assert end is not None
    assert (end.result, end.reason) == (ChessResult.BLACK_WINS, EndReason.CHECKMATE)
    assert not g.running


def test_draw_agreement() -> None:
    g = game()
    end = g.apply(DrawAgreed(2_000))
    assert end is not None and end.result is ChessResult.DRAW
    assert end.reason is EndReason.DRAW_AGREED


def test_rule_A5_flag_fall_draw_and_win() -> None:
    drawn = game(fen="8/8/4k3/8/8/3NK3/8/7q b - - 0 1")
    end = drawn.apply(FlagFell(9_000, chess.BLACK))
    assert end is not None
    assert (end.result, end.reason, end.rule) == (ChessResult.DRAW, EndReason.FLAG_FALL,
                                                 Rule.NO_COOPERATIVE_MATE)
    assert drawn.clocks_at(20_000)[1] == 0
    won = game(fen="8/8/4k3/8/8/3NK3/8/7r b - - 0 1")
    end = won.apply(FlagFell(9_000, chess.BLACK))
    assert end is not None and (end.result, end.rule) == (ChessResult.WHITE_WINS, None)


def test_clocks_run_for_the_side_to_move_and_lag_is_compensated() -> None:
    g = game(tc="3+2")                               # 180 s + 2 s
    assert g.clocks_at(10_000) == (170_000, 180_000)  # White's clock runs from the start
    g.apply(MovePlayed(10_000, "e2e4", lag_ms=1_000))  # charged 9 s, +2 s
    assert g.clocks_at(10_000) == (173_000, 180_000)
    assert g.clocks_at(15_000) == (173_000, 175_000)
    g.lag_compensation_off.add(chess.BLACK)
    g.apply(MovePlayed(20_000, "e7e5", lag_ms=4_000))  # no compensation: 10 s charged
    assert g.clocks_at(20_000) == (173_000, 172_000)
    g.apply(ClockReading(21_000, 100_000, 90_000))     # the server's reading wins
    assert g.clocks_at(25_000) == (96_000, 90_000)
    g.apply(MovePlayed(26_000, "g1f3", clock_ms=97_500))
    assert g.clocks_at(26_000) == (97_500, 90_000)
    assert g.clocks_at(10**9) == (97_500, 0)           # never below zero


def test_setup_is_validated() -> None:
    with pytest.raises(UserError):
        setup("bad id with spaces")
    with pytest.raises(UserError):
        setup(fen="not a fen")
    with pytest.raises(UserError):
        setup(fen="8/8/8/8/8/8/8/8 w - - 0 1")       # no kings
    with pytest.raises(UserError):
        GameSetup(game_id="g", white="", black="b", time_control=setup().time_control,
                  round_start_ms=0)
    with pytest.raises(UserError):
        GameSetup(game_id="g", white="a", black="b", time_control=setup().time_control,
                  round_start_ms=10, started_at_ms=5)


def test_schedule_and_snapshot() -> None:
    g = game(tc="1+0")
    assert g.next_check_ms() == 150_000
    snap = g.snapshot(1_000)
    assert snap.white_clock_ms == 59_000 and snap.plies == 0 and snap.end is None
