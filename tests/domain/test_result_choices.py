"""The one-tap result choices of a best-of (S-2, S-3, S-4, S-7)."""

from __future__ import annotations

import pytest

from turnir.domain.model import Settings, Stage
from turnir.domain.result_choices import result_choices, stage_choices


@pytest.mark.parametrize(("best_of", "elimination", "scores"), [
    (3, False, ["2-0", "2-1", "1-1", "1-2", "0-2", "ID"]),
    (3, True, ["2-0", "2-1", "1-2", "0-2"]),
    (1, False, ["1-0", "0-0-1", "0-1", "ID"]),
    (1, True, ["1-0", "0-1"]),
    (5, False, ["3-0", "3-1", "3-2", "1-1", "2-2", "2-3", "1-3", "0-3", "ID"]),
])
def test_rule_S2_S3_S4_choices_of_a_best_of(best_of: int, elimination: bool,
                                            scores: list[str]) -> None:
    choices = result_choices(best_of, elimination=elimination)
    assert [c.score for c in choices] == scores
    for choice in choices:  # each one a result the rules accept for this best-of
        choice.validate(best_of=best_of, elimination=elimination)


def test_rule_S3_the_top_uses_its_own_best_of_and_no_draws() -> None:
    settings = Settings(best_of=1, top_best_of=3)
    assert [c.score for c in stage_choices(settings, Stage.SWISS)] == ["1-0", "0-0-1", "0-1",
                                                                        "ID"]
    assert [c.score for c in stage_choices(settings, Stage.TOP)] == ["2-0", "2-1", "1-2",
                                                                      "0-2"]
