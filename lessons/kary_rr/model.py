"""Cached computations and charts for the k-ary randomized response lesson.

Everything random here is drawn with the aggregate sampler `dp.sample_grr_counts` (one
multinomial per true value), never by simulating people, so a rerun stays fast.

The lesson runs on the bundled census (four attributes) or on a categorical column of the
student's own file. Work on an attribute goes through the dataset-aware cache
(`ui.datasets.cached`): census results are shared by every session (public data); a file's
results stay in this session.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

import dp
from ui import datasets, text
from ui.categories import Attribute, attribute, count_domain

ERROR_TABLE_EPSILONS: tuple[float, ...] = (0.1, 0.3, 0.5, 1.0, 2.0, 5.0)
ERROR_TABLE_REPETITIONS = 200
VARIANCE_KS = tuple(range(2, 65))
# Grey reference curves on the variance chart; their extremes fix its y axis.
VARIANCE_REFERENCE_EPSILONS: tuple[float, ...] = (0.1, 1.0, 10.0)

# Offsets added to the page seed, one per distinct draw.
SEED_HISTOGRAM = 13
SEED_ERROR_TABLE = 23


def _raw(attr: Attribute, epsilon: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(the report histogram, the unbiased estimate) of this seed's survey at `epsilon`."""
    reported = dp.sample_grr_counts(attr.counts, epsilon, rng=seed + SEED_HISTOGRAM)
    return reported, dp.grr_estimate_from_counts(reported, epsilon)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def grr_survey(attr: Attribute, epsilon: float, seed: int) -> dict[str, np.ndarray]:
    """One survey of everyone with k-ary RR: the report histogram, the unbiased estimate,
    and its two post-processed versions (clipped at 0; projected to ≥ 0 summing to n)."""
    reported, raw = _raw(attr, epsilon, seed)
    return {
        "reported": reported,
        "raw": raw,
        "clipped": dp.clip_counts(raw),
        "projected": dp.project_counts(raw, attr.n),
    }


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def nearest_negative_epsilon(
    attr: Attribute, epsilon: float, seed: int, options: tuple[float, ...]
) -> float | None:
    """The largest ε of `options` below `epsilon` whose survey (this seed) has a negative
    estimate, or None."""
    left = sorted((e for e in options if e < epsilon), reverse=True)
    return next((e for e in left if (_raw(attr, e, seed)[1] < 0).any()), None)


def negatives_words(attr: Attribute, epsilon: float, seed: int, options: tuple[float, ...]) -> str:
    """The paragraph above the two repairs, from this survey's raw estimates at `epsilon`:
    how many came out negative; when none did, that the repairs then change nothing (so three
    equal errors below are not read as three methods that happen to tie), and the nearest ε
    left of this one among the slider's `options` whose survey (this seed) has one, or that
    none has (the advice "move ε left" led nowhere at the slider's left end)."""
    negatives = int((grr_survey(attr, epsilon, seed)["raw"] < 0).sum())
    if negatives:
        now = (
            f"right now **{negatives} of {attr.k}** estimates are below zero. Two repairs: clip "
            "them at 0 (the total then exceeds n), or"
        )
    else:
        acting = nearest_negative_epsilon(attr, epsilon, seed, options)
        if acting is not None:
            see = (
                f"move ε left to {text.number(acting)} (more private), the nearest ε whose "
                "survey has one, to see them act"
            )
        else:
            see = dead_end_words(attr, epsilon, options)
        now = (
            f"right now **none of the {attr.k}** is, so both repairs below leave the estimates "
            f"as they are and the three errors are equal; {see}. The repairs: clip negatives at "
            "0 (the total then exceeds n), or"
        )
    return (
        f"The estimator is unbiased, but a small category can come out negative: {now} project "
        "the estimates onto the proper histograms — non-negative counts summing to n — by "
        "shifting every count down by the same δ and clipping:"
    )


def dead_end_words(attr: Attribute, epsilon: float, options: tuple[float, ...]) -> str:
    """Why moving ε left shows no negative estimate in this survey, and how often another
    seed's would at the slider's smallest ε: the smallest category's estimate is unbiased
    with SD √(dp.grr_variance), below zero with probability about Φ(−count / SD) (normal
    approximation)."""
    lowest = min(options)
    smallest = int(np.min(attr.counts))
    sd = float(np.sqrt(dp.grr_variance(attr.n, lowest, attr.k, frequency=smallest / attr.n)))
    below = float(stats.norm.cdf(-smallest / sd))
    where = (
        "at the slider's left end this survey has no negative estimate"
        if epsilon <= lowest
        else "no ε left of this one gives this survey a negative estimate"
    )
    return (
        f"{where}. At ε = {text.number(lowest)} the "
        f"smallest category ({smallest:,} people) is estimated with SD {text.number(sd)}, "
        f"below zero in about {text.percent(below)} of surveys (normal approximation): a new "
        "seed may show one"
    )


def error_table(
    attr: Attribute | str, seed: int, repetitions: int = ERROR_TABLE_REPETITIONS
) -> pd.DataFrame:
    """Mean L1 and L2 error over `repetitions` surveys at each ε of ERROR_TABLE_EPSILONS,
    for the raw estimate and for its projection (`attr`: an Attribute or a census key)."""
    return _error_table(attribute(attr) if isinstance(attr, str) else attr, seed, repetitions)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def _error_table(attr: Attribute, seed: int, repetitions: int) -> pd.DataFrame:
    rows = []
    for i, epsilon in enumerate(ERROR_TABLE_EPSILONS):
        reported = dp.sample_grr_counts(
            attr.counts, epsilon, size=repetitions, rng=seed + SEED_ERROR_TABLE + i
        )
        raw = dp.grr_estimate_from_counts(reported, epsilon)
        projected = dp.project_counts(raw, attr.n)
        rows.append(
            {
                "ε": epsilon,
                "L1 raw": float(np.mean(dp.l1_error(raw, attr.counts))),
                "L1 projected": float(np.mean(dp.l1_error(projected, attr.counts))),
                "L2 raw": float(np.mean(dp.l2_error(raw, attr.counts))),
                "L2 projected": float(np.mean(dp.l2_error(projected, attr.counts))),
            }
        )
    return pd.DataFrame(rows)


def error_table_display(table: pd.DataFrame) -> pd.DataFrame:
    """The error table as text with thousands separators (people per survey)."""
    shown = pd.DataFrame({"ε": [f"{text.number(e)}" for e in table["ε"]]})
    for column in ("L1 raw", "L1 projected", "L2 raw", "L2 projected"):
        shown[column] = [f"{v:,.0f}" for v in table[column]]
    return shown


@datasets.cached()
def histogram_frames(attr: Attribute, series: dict[str, np.ndarray]) -> dict[str, pd.DataFrame]:
    """The rows for `histogram_spec`: one per (category, series), values beyond the fixed
    axis pinned to its edge and marked » or «; and the true counts."""
    lo, hi = count_domain(attr)
    rows = []
    for name, values in series.items():
        for label, value in zip(attr.labels, np.asarray(values, dtype=float), strict=True):
            rows.append(
                {
                    "category": label,
                    "series": name,
                    "count": value,
                    "shown": min(max(value, lo), hi),
                    "edge": "»" if value > hi else ("«" if value < lo else ""),
                }
            )
    return {
        "bars": pd.DataFrame(rows),
        "truth": pd.DataFrame({"category": attr.labels, "true count": attr.counts}),
    }


def describe_histograms(attr: Attribute, series: dict[str, np.ndarray]) -> str:
    """Alt text: per series, how far it is from the truth and how many counts are negative."""
    parts = [
        f"Grouped bars for {attr.k} categories of {attr.title}, {attr.n:,} people; the true "
        "count is a black tick."
    ]
    for name, values in series.items():
        values = np.asarray(values, dtype=float)
        distance = dp.l1_error(values, attr.counts)
        parts.append(
            f"{name.capitalize()}: L1 distance from the truth {distance:,.0f}, "
            f"{int((values < 0).sum())} negative."
        )
    return " ".join(parts)


def variance_by_k(n: int, epsilon: float) -> pd.DataFrame:
    """GRR variance of one count (f = 0) for k = 2..64 at ε."""
    return pd.DataFrame(
        {
            "k": VARIANCE_KS,
            "variance": [dp.grr_variance(n, epsilon, k) for k in VARIANCE_KS],
        }
    ).assign(sd=lambda f: np.sqrt(f["variance"]))


def variance_references(n: int) -> pd.DataFrame:
    """GRR variance for k = 2..64 at each ε of VARIANCE_REFERENCE_EPSILONS (grey curves)."""
    return pd.concat(
        [
            variance_by_k(n, e).assign(reference=f"ε = {text.number(e)}")
            for e in VARIANCE_REFERENCE_EPSILONS
        ],
        ignore_index=True,
    )


VARIANCE_HEIGHT = 260  # px: the variance chart's plot (charts.variance)
# A reference curve's label sits 7 px above its end; this ε's curve within this many px
# above that end runs through the label's text (11 px; the projector's 17)
LABEL_CLEAR_PX = 26


def reference_labels(n: int, epsilon: float, text_scale: float = 1.0) -> pd.DataFrame:
    """Each reference curve's label at k = 64 (k, variance, reference, under): written under
    its curve where this ε's curve would run through it above (ε = 0.07 is within a factor
    of 2 above ε = 0.1's, 10 px on the log axis: its curve crossed "ε = 0.1", on a phone and
    a laptop alike), else above."""
    low, high = variance_domain(n)
    per_decade = VARIANCE_HEIGHT / (np.log10(high) - np.log10(low))
    here = np.log10(dp.grr_variance(n, epsilon, VARIANCE_KS[-1]))
    rows = []
    for reference in VARIANCE_REFERENCE_EPSILONS:
        at = dp.grr_variance(n, reference, VARIANCE_KS[-1])
        above_px = (here - np.log10(at)) * per_decade
        rows.append(
            (
                VARIANCE_KS[-1],
                at,
                f"ε = {text.number(reference)}",
                bool(0 < above_px < LABEL_CLEAR_PX * text_scale),
            )
        )
    return pd.DataFrame(rows, columns=["k", "variance", "reference", "under"])


def variance_domain(n: int) -> tuple[float, float]:
    """A fixed log y axis (powers of ten) spanning the reference curves; curves for
    ε < 0.1 run off the top and are drawn along its edge."""
    low = dp.grr_variance(n, max(VARIANCE_REFERENCE_EPSILONS), VARIANCE_KS[0])
    high = dp.grr_variance(n, min(VARIANCE_REFERENCE_EPSILONS), VARIANCE_KS[-1])
    return 10 ** np.floor(np.log10(low)), 10 ** np.ceil(np.log10(high))


@datasets.cached()
def variance_frames(
    frame: pd.DataFrame, attr: Attribute, epsilon: float, text_scale: float = 1.0
) -> dict[str, pd.DataFrame]:
    """The rows for `variance_spec`: this ε's curve, the attribute's point, the references
    and their labels."""
    here = frame[frame["k"] == attr.k]
    return {
        "curve": frame,
        "here": here,
        "references": variance_references(attr.n),
        "reference_labels": reference_labels(attr.n, epsilon, text_scale),
    }


@datasets.cached()
def estimates_frame(attr: Attribute, survey: dict[str, np.ndarray]) -> pd.DataFrame:
    """The data behind the histograms, one row per category (what the CSV download holds
    and what the "kary_estimates" snippet rebuilds)."""
    return pd.DataFrame(
        {
            "value": attr.labels,
            "true": attr.counts,
            "reported": survey["reported"],
            "estimate": survey["raw"],
            "projected": survey["projected"],
        }
    )
