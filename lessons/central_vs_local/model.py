"""Cached computations and chart templates for the central-versus-local lesson
(lessons/central_vs_local.py). Every number comes from dp/; charts are pre-binned (at most a
few hundred rows) and have fixed axes.

The charts are Vega-Lite templates built once with Altair (data-free, cached) and filled
each run with this run's rows (charts.py): building an Altair chart costs
30-50 ms, filling a template well under 1 ms."""

from __future__ import annotations

import numpy as np
import pandas as pd

import dp
from ui import datasets, text

# |error| bins: 10 per decade from 0.01 to 100,000 people (errors outside fall in the edge bins)
ERROR_EDGES = np.logspace(-2, 5, 71)
ERROR_DOMAIN = (0.01, 100_000.0)
SHARE_MAX = 0.35
REPETITIONS = 20_000

POPULATION_SIZES = np.logspace(2, 7, 51)
N_DOMAIN = (100.0, 10_000_000.0)
SD_DOMAIN = (0.01, 1_000_000.0)

CENTRAL = "central (Laplace)"
LOCAL = "local (randomized response)"

# Offsets added to the page seed, one per distinct draw.
SEED_ONE_ANSWER = 1  # the central answer; the local survey draws at SEED_ONE_ANSWER + 1
SEED_LOCAL_SURVEY = 1  # added to the seed one_answer_each is given
SEED_ERRORS = 3


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def error_distributions(truth: int, n: int, epsilon: float, seed: int) -> pd.DataFrame:
    """Share of answers whose |error| falls in each log bin, for both models.

    Central: exact, P[lo <= |Lap(1/ε)| < hi]. Local: 20,000 surveys of all n people drawn
    with `dp.sample_rr_counts` (p = q = e^ε/(1+e^ε)) and debiased with
    `dp.estimate_proportion_from_counts`."""
    lo, hi = ERROR_EDGES[:-1].copy(), ERROR_EDGES[1:].copy()
    lo[0], hi[-1] = 0.0, np.inf  # the edge bins take everything beyond the axis
    central = dp.laplace_abs_error_probability(lo, hi, sensitivity=1, epsilon=epsilon)
    p = dp.rr_keep_probability(epsilon)
    counts = dp.sample_rr_counts(truth, n, p, p, size=REPETITIONS, rng=seed)
    estimates = n * dp.estimate_proportion_from_counts(counts, n, p, p)
    errors = np.clip(np.abs(estimates - truth), ERROR_EDGES[0], ERROR_EDGES[-1] * 0.999)
    local = np.histogram(errors, bins=ERROR_EDGES)[0] / REPETITIONS
    start, end = ERROR_EDGES[:-1], ERROR_EDGES[1:]
    return pd.concat(
        [
            pd.DataFrame({"model": CENTRAL, "start": start, "end": end, "share": central}),
            pd.DataFrame({"model": LOCAL, "start": start, "end": end, "share": local}),
        ],
        ignore_index=True,
    )


def typical_frame(central_sd: float, local_sd: float) -> pd.DataFrame:
    """Each model's typical error (sd) with its label, for the rules on the |error| chart,
    written as the metrics beside it write them ("± 1.216", not "± 1", at ε = 10)."""
    return pd.DataFrame(
        {
            "model": [CENTRAL, LOCAL],
            "x": [central_sd, local_sd],
            "label": [
                f"central sd\n±\u00a0{text.number(central_sd)}",
                f"local sd\n±\u00a0{text.number(local_sd)}",
            ],
        }
    )


@datasets.cached()
def error_distribution_data(frame: pd.DataFrame, n: int, epsilon: float) -> dict:
    """The data of `charts.error_distribution`: the bins of `error_distributions(...)` and
    each model's typical error (from dp/)."""
    typical = typical_frame(dp.laplace_std(1, epsilon), dp.local_count_std(n, epsilon))
    return {"bins": frame, "typical": typical}


@datasets.cached()
def error_versus_n(epsilon: float) -> pd.DataFrame:
    """Typical count error (sd) of both models for n = 100 … 10,000,000 (51 sizes)."""
    central = dp.laplace_std(1, epsilon)
    local = dp.local_count_std(POPULATION_SIZES, epsilon)
    return pd.concat(
        [
            pd.DataFrame({"model": CENTRAL, "n": POPULATION_SIZES, "sd": central}),
            pd.DataFrame({"model": LOCAL, "n": POPULATION_SIZES, "sd": local}),
        ],
        ignore_index=True,
    )


def _ends_and_size(
    frame: pd.DataFrame, data_n: int, data_label: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    ends = frame[frame["n"] == frame["n"].max()].assign(
        label=lambda f: f["model"].map({CENTRAL: "central: flat", LOCAL: "local: ∝ √n"})
    )
    size = pd.DataFrame({"n": [float(data_n)], "label": [f"{data_label}: {data_n:,}"]})
    return ends, size


@datasets.cached()
def error_versus_n_data(epsilon: float, data_n: int, data_label: str) -> dict:
    """The data of `charts.error_versus_n`: the lines, their labelled ends, the data size."""
    frame = error_versus_n(epsilon)
    ends, size = _ends_and_size(frame, data_n, data_label)
    return {"lines": frame, "ends": ends, "size": size}


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def one_answer_each(truth: int, n: int, epsilon: float, seed: int) -> tuple[float, float]:
    """One central answer (truth + Lap(1/ε)) and one local estimate (a whole survey)."""
    central = dp.laplace_mechanism(truth, 1, epsilon, rng=seed)
    p = dp.rr_keep_probability(epsilon)
    reported = dp.sample_rr_counts(truth, n, p, p, rng=seed + SEED_LOCAL_SURVEY)
    return central, n * dp.estimate_proportion_from_counts(reported, n, p, p)
