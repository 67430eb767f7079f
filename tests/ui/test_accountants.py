"""ui/accountant_table.py is ui/accountants.py's output: every (σ, q, T) of the grid recomputed
with Google's dp-accounting (dp.dpsgd_epsilon, PLD and RDP), in the grid's order, and the
file its rendering; and lessons/subsampling/tables.py, the chain's σ, is make_tables.py's.
~25 s of CPU: a file of its own, so that it runs beside the page tests."""

from __future__ import annotations

import pytest

from lessons.dpsgd import tables as dpsgd_tables
from lessons.subsampling import make_tables, tables
from ui import accountant_table, accountants, dpsgd_setup


@pytest.mark.budget(
    "every ε the lessons write down, recomputed by dp-accounting (ARCHITECTURE rule 8)"
)
@pytest.mark.slow
def test_every_written_epsilon_is_dp_accountings_now() -> None:
    grid = [
        (sigma, q, steps)
        for sigma in accountants.SIGMAS
        for q in accountants.RATES
        for steps in accountants.STEPS
    ]
    assert list(accountant_table.ACCOUNTANT) == grid
    for point in grid:
        computed = accountants.compute_point(*point)
        assert computed == pytest.approx(accountant_table.ACCOUNTANT[point], rel=1e-6), point
    rendered = accountants.render(accountant_table.ACCOUNTANT)
    assert rendered == accountants.TABLE.read_text(encoding="utf-8")
    # the chain's σ, recomputed too
    assert make_tables.chain_noise() == pytest.approx(tables.CHAIN_NOISE, rel=1e-9)
    assert make_tables.render(tables.CHAIN_NOISE) == make_tables.TABLES.read_text(encoding="utf-8")


def test_the_table_agrees_with_the_dpsgd_lessons_and_holds_what_accountants_do() -> None:
    table = accountant_table.ACCOUNTANT
    # where the DP-SGD lesson shows the same points, its own table agrees
    for (sigma, steps), pair in dpsgd_tables.ACCOUNTANT.items():
        assert table[(sigma, dpsgd_setup.SAMPLE_RATE, steps)] == pytest.approx(pair)
    # RDP's ε is never below PLD's, and ε grows with T
    for (sigma, q, steps), (pld, rdp) in table.items():
        assert rdp >= pld * (1 - 1e-9), (sigma, q, steps)
    for sigma in accountants.SIGMAS:
        for q in accountants.RATES:
            pld = [table[(sigma, q, t)][0] for t in accountants.STEPS]
            assert pld == sorted(pld)
    assert accountants.epsilon(1.1, 0.01, 300) == table[(1.1, 0.01, 300)]
