"""lessons/subsampling/tables.py is make_tables.py's output: every (σ, q, T) of the
composition chart recomputed with Google's dp-accounting (dp.dpsgd_epsilon, PLD and RDP),
in the script's order, and the file its rendering. ~25 s of CPU: a file of its own, so that
it runs beside the page tests."""

from __future__ import annotations

import pytest

from lessons.subsampling import make_tables, tables
from lessons.subsampling import model as lesson


@pytest.mark.budget(
    "every ε the lesson writes down, recomputed by dp-accounting (ARCHITECTURE rule 8)"
)
@pytest.mark.slow
def test_every_written_epsilon_is_dp_accountings_now() -> None:
    computed = make_tables.compute()
    assert list(computed) == list(tables.ACCOUNTANT)
    for point, pair in tables.ACCOUNTANT.items():
        assert computed[point] == pytest.approx(pair, rel=1e-6), point
    rendered = make_tables.render(tables.ACCOUNTANT, tables.CHAIN_NOISE)
    assert rendered == make_tables.TABLES.read_text(encoding="utf-8")
    # the chain's σ, recomputed too
    assert make_tables.chain_noise() == pytest.approx(tables.CHAIN_NOISE, rel=1e-9)
    assert len(tables.ACCOUNTANT) == len(lesson.SIGMAS) * len(lesson.RATES) * len(lesson.STEPS)
