"""Writes lessons/private_erm/tables.py: every number the lesson draws, computed with dp/ on
the census. They are written down because computing them takes about 20 s (1,300 logistic
regressions solved by Newton's method, 70 DP-SGD runs and 7 noise calibrations), too long
for a student's first visit; the lesson's tests recompute a sample with this module's
functions and compare.

Run it after changing a parameter in model.py or upgrading dp-accounting:

    python -m lessons.private_erm.make_tables
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import dp
from lessons.private_erm import model
from ui import dpsgd_setup, written_tables

TABLES = Path(__file__).with_name("tables.py")


def movements(lam: float) -> tuple[float, ...]:
    """How far the minimiser moves (L2) when one person's row is replaced by the same
    features with the other label, for each of the NEIGHBOURS people model.neighbours()
    picks (replace-one neighbours, the relation of the 2/(nλ) bound)."""
    found = model.data()
    x, y = found.x_train, found.y_train
    w = dp.logistic_erm(x, y, lam)
    moved = []
    for person in model.neighbours():
        flipped = y.copy()
        flipped[person] = -flipped[person]
        moved.append(float(np.linalg.norm(dp.logistic_erm(x, flipped, lam) - w)))
    return tuple(moved)


def accuracies(method: str, epsilon: float, lam: float) -> tuple[int, ...]:
    """Test rows right (model.correct) of RUNS private models (seeds 0 … RUNS − 1) by output
    or objective perturbation (model.KEYS) at ε and λ."""
    found = model.data()
    train = dp.output_perturbation if method == model.OUTPUT else dp.objective_perturbation
    return tuple(
        model.correct(train(found.x_train, found.y_train, epsilon, lam, rng=seed))
        for seed in range(model.RUNS)
    )


def dpsgd_noise(epsilon: float) -> float:
    """σ that makes the course's DP-SGD run (ui/dpsgd_setup.py: q, steps, δ) (ε, δ)-DP for a
    replaced row, the neighbours of output and objective perturbation: the accountant (RDP)
    speaks of an added or removed row, and a replacement is one of each, so the run is made
    (ε/2, δ/(1 + e^{ε/2}))-DP for those (dp.approx_group_privacy_per_change)."""
    each_epsilon, each_delta = dp.approx_group_privacy_per_change(epsilon, dpsgd_setup.DELTA, 2)
    return dp.dpsgd_noise_multiplier(
        each_epsilon,
        dpsgd_setup.SAMPLE_RATE,
        dpsgd_setup.steps(),
        each_delta,
        accountant="rdp",
    )


def dpsgd_accuracies(sigma: float) -> tuple[int, ...]:
    """Test rows right of RUNS DP-SGD trainings (seeds 0 … RUNS − 1) on the same rows and
    features: Poisson batches at rate q, the logistic loss's per-example gradients clipped
    to C = 1 (never binding: a row's gradient is at most its norm, ≤ 1), noise σ·C, steps
    as ui/dpsgd_setup.py says, learning rate model.DPSGD_LEARNING_RATE, no regulariser."""
    found = model.data()
    x, y = found.x_train, found.y_train
    n = len(y)
    q = dpsgd_setup.SAMPLE_RATE
    results = []
    for seed in range(model.RUNS):
        rng = np.random.default_rng(seed)
        w = np.zeros(x.shape[1])
        for _ in range(dpsgd_setup.steps()):
            batch = rng.random(n) < q
            margins = y[batch] * (x[batch] @ w)
            gradients = -(y[batch] / (1.0 + np.exp(margins)))[:, None] * x[batch]
            w = w - model.DPSGD_LEARNING_RATE * dp.dpsgd_step(
                gradients, 1.0, sigma, expected_batch_size=q * n, rng=rng
            )
        results.append(model.correct(w))
    return tuple(results)


def compute() -> dict[str, dict]:
    """Every table, from its parameters in model.py."""
    found = model.data()
    moved = {lam: movements(lam) for lam in model.LAMBDAS}
    fitted = {lam: dp.logistic_erm(found.x_train, found.y_train, lam) for lam in model.LAMBDAS}
    plain = {lam: model.correct(w) for lam, w in fitted.items()}
    norm = {lam: float(np.linalg.norm(w)) for lam, w in fitted.items()}
    private = {
        (model.KEYS[method], epsilon, lam): accuracies(method, epsilon, lam)
        for method in model.METHODS
        for lam in model.LAMBDAS
        for epsilon in model.EPSILONS
    }
    noise = {epsilon: dpsgd_noise(epsilon) for epsilon in model.EPSILONS}
    dpsgd = {epsilon: dpsgd_accuracies(sigma) for epsilon, sigma in noise.items()}
    return {
        "MOVED": moved,
        "PLAIN": plain,
        "NORM": norm,
        "PRIVATE": private,
        "DPSGD_NOISE": noise,
        "DPSGD": dpsgd,
        "DPSGD_WITHOUT_NOISE": {dpsgd_setup.steps(): dpsgd_accuracies(0.0)},
    }


DOC = '''"""Written by `python -m lessons.private_erm.make_tables` (see there): do not edit by
hand.

MOVED: for each λ, how far the minimiser moves for each replaced person.
PLAIN: for each λ, the test rows the non-private model gets right.
NORM: for each λ, the non-private weights' L2 norm.
PRIVATE: for each (method, ε, λ), the test rows each seeded private model gets right.
DPSGD_NOISE: for each ε, DP-SGD's noise multiplier (RDP) for (ε, 10⁻⁵) against a replaced row.
DPSGD: for each ε, the test rows each seeded DP-SGD run gets right.
DPSGD_WITHOUT_NOISE: for the runs' number of steps, the test rows each seeded run gets right
with noise σ = 0 (the same model, batches and steps, without privacy)."""'''

TYPES = {
    "MOVED": "dict[float, tuple[float, ...]]",
    "PLAIN": "dict[float, int]",
    "NORM": "dict[float, float]",
    "PRIVATE": "dict[tuple[str, float, float], tuple[int, ...]]",
    "DPSGD_NOISE": "dict[float, float]",
    "DPSGD": "dict[float, tuple[int, ...]]",
    "DPSGD_WITHOUT_NOISE": "dict[int, tuple[int, ...]]",
}


def render(tables: dict[str, dict]) -> str:
    """The module's text (ui/written_tables.py)."""
    return written_tables.render(DOC, TYPES, tables, one_a_line=("MOVED",))


if __name__ == "__main__":
    TABLES.write_text(render(compute()), encoding="utf-8")
    print(f"wrote {TABLES}")
