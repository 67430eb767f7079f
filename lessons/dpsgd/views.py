"""The words and frames of the lesson "Private training with DP-SGD" that cost CPU to
compose: each section's sentences and tables, made from model.py's numbers once per process
(the census) or once per session (a file), so that a rerun only sends them. This is the
documented place for a lesson's cached prose (docs/ARCHITECTURE.md §1, rule 2): model.py
computes, page.py reads as the lesson, views.py composes what is costly to compose."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import pyarrow as pa

from data.upload import Condition
from lessons.dpsgd.model import (
    ATTACK_N,
    EPSILONS,
    MODELS,
    PRIVATE_TRAININGS,
    SEEDS,
    UPLOAD_MODELS,
    Attack,
    Data,
    accuracy_curve,
    attack_roc,
    attacks,
    clear_winners,
    data,
    prediction_answer,
    series_of,
    upload_curve,
    upload_problem,
)
from ui import datasets, text, work

# --- 3. accuracy against ε ---------------------------------------------------------------------


def prediction_explanation() -> str:
    curve = accuracy_curve()
    ours, theirs = series_of(curve, MODELS[0]), series_of(curve, MODELS[2])
    low, high = EPSILONS[0], EPSILONS[-1]
    ties = [e for e, w in clear_winners(curve).items() if w == 0]
    tied = (
        " At ε = " + ", ".join(text.number(e) for e in ties) + " the two are within the "
        "noise of DP-SGD's trainings and of the test set (two standard errors): about the "
        "same there."
        if ties
        else ""
    )
    return (
        f"DP-SGD: {text.percent(ours[low])} at ε = {text.number(low)}, "
        f"{text.percent(ours[high])} at ε = {text.number(high)}; randomized response: "
        f"{text.percent(theirs[low])} and {text.percent(theirs[high])}.{tied} DP-SGD adds its "
        "noise once per step to a sum over hundreds of people; randomized response noises "
        "every person's row. (The RR model also sees fewer columns: it privatized only age "
        "band × sex, and sent education, hours and the label as they are.)"
    )


def describe_curve(curve: pd.DataFrame, long: bool = False) -> str:
    ours, base = series_of(curve, MODELS[0]), series_of(curve, MODELS[1]).iloc[0]
    theirs = series_of(curve, MODELS[2])
    close = next((e for e in EPSILONS if base - ours[e] <= 0.01), None)
    if not long:
        return (
            f"Lines against ε from {text.number(EPSILONS[0])} to {text.number(EPSILONS[-1])} "
            f"(log x): DP-SGD's test accuracy (mean of {SEEDS} trainings) rises from "
            f"{text.percent(ours.iloc[0])} to {text.percent(ours.iloc[-1])}; the non-private "
            f"model has {text.percent(base)}; Privatized data for ML's randomized-response model "
            f"goes from {text.percent(theirs.iloc[0])} to {text.percent(theirs.iloc[-1])}."
        )
    within = (
        f"From ε = {text.number(close)} on, DP-SGD is within one point of the non-private "
        f"model's {text.percent(base)}."
        if close is not None
        else "Even at the largest ε it stays more than a point below the non-private model."
    )
    return (
        f"{within} With {text.number(len(data().y_train))} training people, the noise σC on "
        "each step's sum is small against the sum of a few hundred gradients, so a simple "
        "model loses little; the smallest ε need σ in the dozens and do lose. Error bars: "
        f"±\u00a01 standard error over {SEEDS} trainings."
    )


@dataclass(frozen=True)
class CurveView:
    curve: pd.DataFrame
    short: str
    long: str
    answer: int
    explanation: str


@datasets.cached(census_only=True, max_entries=1)
def curve_view() -> CurveView:
    """Section 3's frame and words, made once per process."""
    curve = accuracy_curve()
    return CurveView(
        curve,
        describe_curve(curve),
        describe_curve(curve, long=True),
        prediction_answer(),
        prediction_explanation(),
    )


# Section 3's trainings, once per process, shared by every session: started when the page
# opens (ui/work.py), so they are usually done before a student presses the button. Steps:
# the non-private model, the randomized-response models, then each DP-SGD training.
CURVE_WORK = work.SharedWork("dpsgd-curve", 2 + PRIVATE_TRAININGS, curve_view)


# Section 3's wait, measured on the 2-core test box (time from the button to the chart, the
# trainings not yet started): 2.4 s of CPU on a quiet server; ~15 s with a busy room's load
# of 5. Usually no wait at all: the trainings start when the page opens.
CURVE_QUIET_S, CURVE_BUSY_S = 3, 15


def curve_progress_label() -> str:
    """What the progress bar says while section 3's models train: how many, on whom, and
    how long it takes."""
    people = data().x_train.shape[0]
    return (
        f"Training {CURVE_WORK.steps} models on {text.number(people)} people, once for the "
        f"whole class: about {CURVE_QUIET_S} s on a quiet server, up to {CURVE_BUSY_S} s "
        "while a room is busy."
    )


# --- 5. attack the model -------------------------------------------------------------------------


def attack_table(results: tuple[Attack, ...]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "model": [a.name for a in results],
            "advantage (TPR − FPR)": [text.percent(a.advantage) for a in results],
            "at TPR, FPR": [f"{text.percent(a.tpr)}, {text.percent(a.fpr)}" for a in results],
            "ε proven (95%)": [text.number(a.epsilon_shown) for a in results],
        }
    )


def describe_attacks(results: tuple[Attack, ...]) -> str:
    parts = "; ".join(f"{a.name}: advantage {text.percent(a.advantage)}" for a in results)
    return (
        f"ROC curves of the loss-threshold membership attack on models trained on "
        f"{ATTACK_N} census people, members against held-out non-members. {parts}."
    )


@dataclass(frozen=True)
class AttackView:
    names: tuple[str, ...]
    roc: pd.DataFrame
    table: pa.Table
    description: str


@datasets.cached(census_only=True, max_entries=1)
def attack_view() -> AttackView:
    """Section 5's frames and words, made once per process (a rerun only sends them)."""
    results = attacks()
    return AttackView(
        tuple(a.name for a in results),
        attack_roc(results),
        pa.Table.from_pandas(attack_table(results), preserve_index=False),
        describe_attacks(results),
    )


def attack_ready() -> bool:
    return datasets.shared_entries().get(f"{__name__}.attack_view", 0) > 0


# --- 7. your file --------------------------------------------------------------------------------


@dataclass(frozen=True)
class UploadView:
    curve: pd.DataFrame
    short: str
    long: str


def describe_upload(curve: pd.DataFrame, d: Data, target: Condition) -> UploadView:
    ours = series_of(curve, UPLOAD_MODELS[0])
    base = series_of(curve, UPLOAD_MODELS[1]).iloc[0]
    majority = series_of(curve, UPLOAD_MODELS[2]).iloc[0]
    short = (
        f"Lines against ε from {text.number(EPSILONS[0])} to {text.number(EPSILONS[-1])} (log "
        f"x), predicting “{target.label}” on the uploaded file: DP-SGD's test accuracy (mean "
        f"of {SEEDS} trainings) goes from {text.percent(ours.iloc[0])} to "
        f"{text.percent(ours.iloc[-1])}; the non-private model has {text.percent(base)}; "
        f"always giving the more common answer has {text.percent(majority)}."
    )
    useful = next((e for e in EPSILONS if ours[e] - majority > 0.01), None)
    close = next((e for e in EPSILONS if base - ours[e] <= 0.01), None)
    parts = [
        f"Trained on {text.number(len(d.y_train))} rows, tested on "
        f"{text.number(len(d.y_test))} others."
    ]
    if base - majority <= 0.01:
        parts.append(
            "Even without privacy the model does no better than always giving the more "
            f"common answer ({text.percent(majority)}): the other columns say little about "
            "this question, so there is nothing for privacy to cost."
        )
    else:
        parts.append(
            f"DP-SGD first beats the more common answer by over a point at ε = "
            f"{text.number(useful)}"
            if useful is not None
            else "DP-SGD never beats always giving the more common answer by a point"
        )
        parts[-1] += (
            f", and is within one point of the non-private model's {text.percent(base)} from "
            f"ε = {text.number(close)} on."
            if close is not None
            else f", and stays more than a point below the non-private {text.percent(base)}."
        )
        parts.append(
            "Fewer rows mean a smaller batch q·n for the same noise σC: the smaller the file, "
            "the more ε it takes."
        )
    return UploadView(curve, short, " ".join(parts))


@datasets.cached(max_entries=4)
def upload_view(target: Condition) -> UploadView:
    """The 19 trainings on the file (call inside `reporting` to see progress), and words."""
    d = upload_problem(target).data
    if d is None:
        raise ValueError("upload_view needs a file that upload_problem can train on")
    return describe_upload(upload_curve(d), d, target)


def upload_ready(target: Condition) -> bool:
    """Whether this session has trained on the file for `target` (no button then)."""
    return datasets.is_cached(upload_view, target)
