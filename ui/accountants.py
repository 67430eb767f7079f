"""dp-accounting's ε for DP-SGD runs, written down: a run of T Poisson-subsampled Gaussian
steps (noise multiplier σ, sampling rate q) at δ = 10⁻⁵, by the PLD and the RDP accountant
(dp.dpsgd_epsilon). The PLD accountant takes about a second a point, too long for a
student's visit, so the lessons that draw these runs (Subsampling and DP as a test, Rényi DP
and the accountants) read them from ui/accountant_table.py, which this module writes; their
tests recompute points and compare.

Run it after changing the grid below or upgrading dp-accounting:

    python -m ui.accountants
"""

from __future__ import annotations

from pathlib import Path

import dp
from ui import accountant_table, dpsgd_setup

DELTA = 1e-5  # DP-SGD's δ, as in the DP-SGD lesson
SIGMAS: tuple[float, ...] = dpsgd_setup.ACCOUNTANT_SIGMAS  # 0.7, 1.1, 2.0: the DP-SGD lesson's
RATES: tuple[float, ...] = (dpsgd_setup.SAMPLE_RATE, 0.1)  # the DP-SGD lesson's q, and a large one
STEPS: tuple[int, ...] = (10, 30, 100, 300, 1_000, 3_000, 10_000)
TABLE = Path(__file__).with_name("accountant_table.py")


def epsilon(sigma: float, q: float, steps: int) -> tuple[float, float]:
    """(ε by PLD, ε by RDP) of the run, from the written table."""
    return accountant_table.ACCOUNTANT[(sigma, q, steps)]


def compute_point(sigma: float, q: float, steps: int) -> tuple[float, float]:
    """(ε by PLD, ε by RDP) at δ = DELTA, computed now (dp-accounting)."""
    return tuple(
        dp.dpsgd_epsilon(sigma, q, steps, DELTA, accountant=name) for name in ("pld", "rdp")
    )


def render(table: dict[tuple[float, float, int], tuple[float, float]]) -> str:
    lines = [
        '"""Written by `python -m ui.accountants` (see there): do not edit by hand.',
        "",
        "ACCOUNTANT: (ε by PLD, ε by RDP) at δ = 10⁻⁵ for each (σ, q, T) of ui/accountants.py's",
        'grid (dp.dpsgd_epsilon, Google\'s dp-accounting)."""',
        "",
        "ACCOUNTANT: dict[tuple[float, float, int], tuple[float, float]] = {",
    ]
    lines += [f"    {key!r}: {value!r}," for key, value in table.items()]
    lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    grid = {
        (sigma, q, steps): compute_point(sigma, q, steps)
        for sigma in SIGMAS
        for q in RATES
        for steps in STEPS
    }
    TABLE.write_text(render(grid), encoding="utf-8")
    print(f"wrote {TABLE}")
