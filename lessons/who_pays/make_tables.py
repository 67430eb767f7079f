"""Writes lessons/who_pays/tables.py: each race group's test rows that the non-private model
and RUNS objective-perturbation models at each ε get right, computed with dp/ on the census
(71 models, about 1 s). No slider changes them, so a first visit reads them instead of
training; the lesson's tests recompute a sample with this module's `compute()` pieces.

Run it after changing a parameter in model.py:

    python -m lessons.who_pays.make_tables
"""

from __future__ import annotations

from pathlib import Path

import dp
from data.features import unit_ball_features
from lessons.who_pays import model
from ui import datasets, written_tables

TABLES = Path(__file__).with_name("tables.py")


def compute() -> dict[str, dict]:
    """PLAIN: each group's test rows right by the non-private model; RIGHT: by each seeded
    objective-perturbation model at each ε (seeds 0 … RUNS − 1)."""
    data = unit_ball_features(datasets.census())
    plain = model.right_by_group(dp.logistic_erm(data.x_train, data.y_train, model.LAMBDA))
    runs: dict[tuple[float, str], list[int]] = {}
    for epsilon in model.MODEL_EPSILONS:
        for seed in range(model.RUNS):
            w = dp.objective_perturbation(
                data.x_train, data.y_train, epsilon, model.LAMBDA, rng=seed
            )
            for race, right in model.right_by_group(w).items():
                runs.setdefault((epsilon, race), []).append(right)
    return {"PLAIN": plain, "RIGHT": {key: tuple(values) for key, values in runs.items()}}


DOC = '''"""Written by `python -m lessons.who_pays.make_tables` (see there): do not edit by hand.

PLAIN: each race group's test rows the non-private model gets right.
RIGHT: for each (ε, group), the test rows each seeded objective-perturbation model gets
right."""'''

TYPES = {"PLAIN": "dict[str, int]", "RIGHT": "dict[tuple[float, str], tuple[int, ...]]"}


def render(tables: dict[str, dict]) -> str:
    """The module's text (ui/written_tables.py)."""
    return written_tables.render(DOC, TYPES, tables)


if __name__ == "__main__":
    TABLES.write_text(render(compute()), encoding="utf-8")
    print(f"wrote {TABLES}")
