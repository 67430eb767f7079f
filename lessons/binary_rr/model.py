"""Cached computations of the lesson "Binary randomized response with any p and q" (any p and q).

Its survey is the coin-flip lesson's too (ui/rr_survey.py)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

import dp
from ui import datasets, text

# Offsets added to the page seed, one per distinct draw.
SEED_ONE_SURVEY = 7_000
SEED_REPEATED_SURVEYS = 8_000


@datasets.cached(max_entries=32)
def error_versus_epsilon(true_yes: int, n: int) -> pd.DataFrame:
    """Exact SD of the count estimate for symmetric RR (p = q = e^ε/(1+e^ε)) over
    EPSILON_CURVE."""
    rows = []
    for eps in EPSILON_CURVE:
        keep = dp.rr_keep_probability(eps)
        rows.append({"epsilon": eps, "sd": dp.rr_count_std(true_yes / n, n, keep, keep)})
    return pd.DataFrame(rows)


LN_RATIO_LIMIT = 5.0


REPORTS = ("reported yes", "reported no")


def ratio_frame(p: float, q: float) -> pd.DataFrame:
    """One row per report (yes / no): its ln likelihood ratio, clipped to ±LN_RATIO_LIMIT
    for drawing, its size |ln ratio| (clipped) and a text label (±∞ where unbounded)."""
    rows = []
    for report, value in zip(REPORTS, dp.rr_likelihood_ratios(p, q), strict=True):
        shown = max(min(value, LN_RATIO_LIMIT), -LN_RATIO_LIMIT)
        label = ("∞" if value > 0 else "−∞") if math.isinf(value) else text.number(value)
        rows.append({"report": report, "ln_ratio": shown, "size": abs(shown), "text": label})
    return pd.DataFrame(rows)


@datasets.cached()
def error_epsilon_data(
    frame: pd.DataFrame, current_eps: float | None, current_sd: float | None, label: str
) -> dict[str, pd.DataFrame]:
    """The data of `charts.error_epsilon`: the curve, and the current point (clamped to the
    axes) when there is one."""
    here = pd.DataFrame({"epsilon": [], "sd": [], "label": []})
    if current_eps is not None and current_sd is not None:
        here = pd.DataFrame(
            {
                "epsilon": [min(max(current_eps, 0.01), 10.0)],
                "sd": [min(max(current_sd, 1.0), 100_000.0)],
                "label": [label],
            }
        )
    return {"curve": frame, "here": here}


@datasets.cached()
def ratio_data(p: float, q: float, epsilon: float) -> dict[str, pd.DataFrame]:
    """The data of `charts.ratio`: the band [0, ε] and each report's |ln ratio|, its label
    written from the bar's end or the ε line, whichever is further right ("label_at": with
    p ≠ q the shorter bar's label sat on the ε line, which ran through it)."""
    edge = min(epsilon, LN_RATIO_LIMIT)
    reports = ratio_frame(p, q)
    return {
        "band": pd.DataFrame({"lo": [0.0], "hi": [edge], "label": ["ε"]}),
        "reports": reports.assign(label_at=np.maximum(reports["size"], edge)),
    }


EPSILON_CURVE: tuple[float, ...] = tuple(float(x) for x in np.geomspace(0.01, 10.0, 61))


# --- which report is better protected -------------------------------------------------------


def protect_yes_advice(p: float, q: float) -> tuple[str, str]:
    """When a reported yes reveals more than a reported no: (direction, sentence).

    A reported yes carries the likelihood ratio p / (1 − q) (`dp.rr_likelihood_ratios`). It
    reveals less the closer it is to 1. With p + q > 1 the ratio is above 1: lowering q
    (which raises 1 − q) or lowering p brings it down. With p + q < 1 it is below 1 (a yes
    is evidence for a no): raising p or q brings it up. `direction` is "lower" or "raise"."""
    ratio, _ = dp.rr_likelihood_ratios(p, q, log=False)
    if ratio >= 1:
        direction = "lower"
        why = (
            f"p + q = {text.number(p + q)} > 1, so p/(1 − q) = {text.number(ratio)} is above 1: "
            "lower q (it "
            "raises 1 − q) or lower p to bring it toward 1"
        )
    else:
        direction = "raise"
        why = (
            f"p + q = {text.number(p + q)} < 1, so p/(1 − q) = {text.number(ratio)} is below 1 "
            "(a reported yes "
            "points to a true no): raise p or raise q to bring it toward 1"
        )
    return direction, (
        "A reported **no** reveals less than a reported yes: a *yes* is the stronger evidence "
        "here, so ε is set by it. If *yes* is the sensitive answer, protect it: a reported yes "
        f"carries the likelihood ratio p/(1 − q), and {why}. Every step toward p + q = 1 "
        "makes both reports reveal less, and the estimate noisier."
    )
