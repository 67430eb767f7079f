"""Writes lessons/dpsgd/tables.py: the noise multipliers σ and the accountants' ε that the
lesson shows, computed with dp/ (dp-accounting underneath). They are written down because
computing them takes ~10 s, too long for a student's first visit; the lesson's tests
recompute every value with this module's `compute()` and compare.

Run it after changing a parameter in model.py or upgrading dp-accounting:

    python -m lessons.dpsgd.make_tables
"""

from __future__ import annotations

from pathlib import Path

import dp
from lessons.dpsgd import model
from ui import dpsgd_setup

TABLES = Path(__file__).with_name("tables.py")


def compute() -> dict[str, dict]:
    """Every table, from its parameters in model.py: σ for each ε of the accuracy curve and
    of the attack (RDP, the accountant whose ε is never below PLD's), and ε under PLD and RDP
    for each σ and number of steps of the accountant chart."""
    noise = {
        epsilon: dp.dpsgd_noise_multiplier(
            epsilon,
            dpsgd_setup.SAMPLE_RATE,
            dpsgd_setup.steps(),
            dpsgd_setup.DELTA,
            accountant=model.ACCOUNTANT,
        )
        for epsilon in model.EPSILONS
    }
    attack = {
        epsilon: dp.dpsgd_noise_multiplier(
            epsilon,
            model.ATTACK_RATE,
            model.attack_steps(),
            dpsgd_setup.DELTA,
            accountant=model.ACCOUNTANT,
        )
        for epsilon in model.ATTACK_EPSILONS
    }
    accountants = {
        (sigma, steps): tuple(
            dp.dpsgd_epsilon(
                sigma, dpsgd_setup.SAMPLE_RATE, steps, dpsgd_setup.DELTA, accountant=name
            )
            for name in ("pld", "rdp")
        )
        for sigma in dpsgd_setup.ACCOUNTANT_SIGMAS
        for steps in model.STEP_GRID
    }
    return {"NOISE": noise, "ATTACK_NOISE": attack, "ACCOUNTANT": accountants}


def render(tables: dict[str, dict]) -> str:
    lines = [
        '"""Written by `python -m lessons.dpsgd.make_tables` (see there): do not edit by hand.',
        "",
        "NOISE: σ for each ε of the accuracy curve (q, steps, δ and the accountant of model.py).",
        "ATTACK_NOISE: σ for each ε of the attacked models (model.ATTACK_RATE, attack_steps()).",
        'ACCOUNTANT: (ε by PLD, ε by RDP) for each (σ, steps) of the accountant chart."""',
        "",
    ]
    types = {
        "NOISE": "dict[float, float]",
        "ATTACK_NOISE": "dict[float, float]",
        "ACCOUNTANT": "dict[tuple[float, int], tuple[float, float]]",
    }
    for name, table in tables.items():
        lines.append(f"{name}: {types[name]} = {{")
        lines += [f"    {key!r}: {value!r}," for key, value in table.items()]
        lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    TABLES.write_text(render(compute()), encoding="utf-8")
    print(f"wrote {TABLES}")
