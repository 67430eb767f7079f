"""Writes lessons/subsampling/tables.py: the ε that Google's dp-accounting (through
dp.dpsgd_epsilon) gives a DP-SGD run under the PLD and the RDP accountant, for every noise
multiplier σ, sampling rate q and number of steps T of the lesson's composition chart. They
are written down because the PLD accountant takes seconds a point (minutes for the grid),
too long for a student's visit; the lesson's tests recompute values with `compute_point`
and compare (and the points the DP-SGD lesson also shows with its own table).

Run it after changing the grid in model.py or upgrading dp-accounting:

    python -m lessons.subsampling.make_tables
"""

from __future__ import annotations

from pathlib import Path

import dp
from lessons.subsampling import model
from ui import dpsgd_setup

TABLES = Path(__file__).with_name("tables.py")


def compute_point(sigma: float, q: float, steps: int) -> tuple[float, float]:
    """(ε by PLD, ε by RDP) at δ = model.DELTA."""
    return tuple(
        dp.dpsgd_epsilon(sigma, q, steps, model.DELTA, accountant=name) for name in ("pld", "rdp")
    )


def compute() -> dict[tuple[float, float, int], tuple[float, float]]:
    return {
        (sigma, q, steps): compute_point(sigma, q, steps)
        for sigma in model.SIGMAS
        for q in model.RATES
        for steps in model.STEPS
    }


def chain_noise() -> dict[float, float]:
    """σ of the DP-SGD run (ui/dpsgd_setup.py) at the chain's ε, RDP: the noise the chain of
    section 1 starts from."""
    setup = dpsgd_setup
    sigma = dp.dpsgd_noise_multiplier(
        model.CHAIN_EPSILON, setup.SAMPLE_RATE, setup.steps(), setup.DELTA, accountant="rdp"
    )
    return {model.CHAIN_EPSILON: sigma}


def render(
    table: dict[tuple[float, float, int], tuple[float, float]], chain: dict[float, float]
) -> str:
    lines = [
        '"""Written by `python -m lessons.subsampling.make_tables` (see there): do not edit by',
        "hand.",
        "",
        "ACCOUNTANT: (ε by PLD, ε by RDP) at δ = 10⁻⁵ for each (σ, q, T) of the composition",
        'chart (dp.dpsgd_epsilon, Google\'s dp-accounting)."""',
        "",
        "ACCOUNTANT: dict[tuple[float, float, int], tuple[float, float]] = {",
    ]
    lines += [f"    {key!r}: {value!r}," for key, value in table.items()]
    lines += ["}", "", "# σ of the DP-SGD run at the chain's ε (RDP)."]
    lines += ["CHAIN_NOISE: dict[float, float] = {"]
    lines += [f"    {key!r}: {value!r}," for key, value in chain.items()]
    lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    TABLES.write_text(render(compute(), chain_noise()), encoding="utf-8")
    print(f"wrote {TABLES}")
