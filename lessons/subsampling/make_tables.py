"""Writes lessons/subsampling/tables.py: the noise multiplier σ of the DP-SGD run that section
1's chain starts from, at the chain's ε (dp.dpsgd_noise_multiplier, Google's dp-accounting
underneath; seconds to compute). The composition chart's ε by PLD and RDP are in
ui/accountant_table.py, which ui/accountants.py writes (the Rényi lesson reads them too).
The lesson's tests recompute the σ and compare.

Run it after changing the chain's ε in model.py or upgrading dp-accounting:

    python -m lessons.subsampling.make_tables
"""

from __future__ import annotations

from pathlib import Path

import dp
from lessons.subsampling import model
from ui import dpsgd_setup

TABLES = Path(__file__).with_name("tables.py")


def chain_noise() -> dict[float, float]:
    """σ of the DP-SGD run (ui/dpsgd_setup.py) at the chain's ε, RDP: the noise the chain of
    section 1 starts from."""
    setup = dpsgd_setup
    sigma = dp.dpsgd_noise_multiplier(
        model.CHAIN_EPSILON, setup.SAMPLE_RATE, setup.steps(), setup.DELTA, accountant="rdp"
    )
    return {model.CHAIN_EPSILON: sigma}


def render(chain: dict[float, float]) -> str:
    lines = [
        '"""Written by `python -m lessons.subsampling.make_tables` (see there): do not edit by',
        "hand.",
        "",
        'CHAIN_NOISE: σ of the DP-SGD run at the chain\'s ε (RDP)."""',
        "",
        "CHAIN_NOISE: dict[float, float] = {",
    ]
    lines += [f"    {key!r}: {value!r}," for key, value in chain.items()]
    lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    TABLES.write_text(render(chain_noise()), encoding="utf-8")
    print(f"wrote {TABLES}")
