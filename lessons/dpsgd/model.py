"""Cached computations of the lesson "Private training with DP-SGD": a small, real trainer in
numpy, its privacy accounting through dp/ (dp/dpsgd.py, which calls Google's dp-accounting),
and a loss-threshold membership attack on what it trains.

Logistic regression predicting income > 50K from the census: the categorical columns one-hot
encoded, the numeric ones scaled from their public ranges onto [−1, 1] (never from the
people's values, which DP-SGD's ε does not cover). Neighbours
add or remove one training example (DP-SGD's relation, and the one a model card's ε uses).
Sections 1–6 always use the bundled census; section 7 trains on an uploaded file."""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from data.features import SPLIT_SEED, TEST_SHARE, Data, income_features
from data.upload import MAX_CATEGORIES, Condition
from lessons.dpsgd import tables
from ui import datasets, rr_training, text, work
from ui.dpsgd_setup import (
    ACCOUNTANT_SIGMAS,
    EPOCHS,
    SAMPLE_RATE,
)

LEARNING_RATE = 2.0
DEFAULT_CLIP = 1.0
ACCOUNTANT = "rdp"  # σ for the accuracy curve: RDP's ε is never below PLD's, so it is safe
EPSILONS: tuple[float, ...] = (0.01, 0.03, 0.1, 0.3, 1.0, 10.0)
SEEDS = 3  # trainings averaged per ε
PRIVATE_TRAININGS = len(EPSILONS) * SEEDS  # 18 DP-SGD models for section 3's curve
SEED_TRAIN = 10  # offsets added to controls.seed()
SEED_STEP = 20


@datasets.cached(census_only=True, max_entries=1)
def data() -> Data:
    return income_features(datasets.census())


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # 1/(1 + e^−z) without overflow


def per_example_gradients(weights: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each example's gradient of the logistic loss −y log p − (1 − y) log(1 − p) with
    respect to (weights, bias): (p − y)·(x, 1), one row per example."""
    p = sigmoid(x @ weights[:-1] + weights[-1])
    return (p - y)[:, None] * np.column_stack([x, np.ones(len(y))])


def losses(weights: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    p = np.clip(sigmoid(x @ weights[:-1] + weights[-1]), 1e-12, 1 - 1e-12)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def train(
    noise_multiplier: float,
    clip: float,
    *,
    sample_rate: float = SAMPLE_RATE,
    epochs: int = EPOCHS,
    learning_rate: float = LEARNING_RATE,
    seed: int = 0,
    x: np.ndarray | None = None,
    y: np.ndarray | None = None,
) -> np.ndarray:
    """DP-SGD (Abadi et al. 2016): each step draws a batch by Poisson sampling at rate q and
    moves by dp.dpsgd_step (every example's gradient clipped to norm C, summed, N(0, σ²C²)
    added to each coordinate, divided by the expected batch size q·n). Steps = epochs / q.
    With σ = 0, C = ∞ and q = 1 it is plain gradient descent."""
    if x is None or y is None:
        d = data()
        x, y = d.x_train, d.y_train
    rng = np.random.default_rng(seed)
    n = len(y)
    weights = np.zeros(x.shape[1] + 1)
    steps = max(1, round(epochs / sample_rate))
    for _ in range(steps):
        batch = rng.random(n) < sample_rate if sample_rate < 1 else np.ones(n, dtype=bool)
        grads = per_example_gradients(weights, x[batch], y[batch])
        weights = weights - learning_rate * dp.dpsgd_step(
            grads, clip, noise_multiplier, expected_batch_size=sample_rate * n, rng=rng
        )
    return weights


def accuracy(weights: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((x @ weights[:-1] + weights[-1] > 0) == (y == 1)))


def expected_batch() -> int:
    """q·n, the expected batch size, in whole people."""
    return round(SAMPLE_RATE * len(data().y_train))


# σ for each ε of the curve (q = 0.01, 300 steps, δ = 1e-5, RDP): tables.py, written by
# make_tables.py because the search takes ~5 s of a first visit; the tests recompute it.
NOISE_TABLE: dict[float, float] = tables.NOISE


def noise_for(epsilon: float) -> float:
    """σ that makes the training (ε, δ)-DP (the table above, from dp.dpsgd_noise_multiplier)."""
    return NOISE_TABLE[epsilon]


@datasets.cached(census_only=True, max_entries=1)
def non_private() -> np.ndarray:
    """The same trainer without clipping or noise (C = ∞, σ = 0)."""
    return train(0.0, math.inf, seed=SEED_TRAIN)


@datasets.cached(census_only=True, max_entries=len(EPSILONS) * 3 + 4)
def private(epsilon: float, run: int) -> np.ndarray:
    return train(noise_for(epsilon), DEFAULT_CLIP, seed=SEED_TRAIN + 100 * (run + 1))


MODELS = ("DP-SGD", "non-private", "trained on RR data (Privatized data for ML)")


@datasets.cached(census_only=True, max_entries=2)
def accuracy_curve() -> pd.DataFrame:
    """Test accuracy against ε: DP-SGD (mean of SEEDS trainings, ± 1 standard error), the
    non-private model, and Privatized data for ML's model trained on randomized-response data."""
    d = data()
    rows = []
    base = accuracy(non_private(), d.x_test, d.y_test)
    work.step("Trained the non-private model.")
    rr = rr_training.accuracy_curve((), rr_training.GRR, 2026).set_index("epsilon")["accuracy"]
    work.step("Fitted Privatized data for ML's models on randomized-response data.")
    trained = 0
    for epsilon in EPSILONS:
        runs = []
        for r in range(SEEDS):
            runs.append(accuracy(private(epsilon, r), d.x_test, d.y_test))
            trained += 1
            work.step(
                f"Trained {trained} of {PRIVATE_TRAININGS} DP-SGD models "
                f"(ε = {text.number(epsilon)})."
            )
        runs = np.array(runs)
        se = runs.std(ddof=1) / math.sqrt(SEEDS)
        rows += [
            (epsilon, MODELS[0], runs.mean(), runs.mean() - se, runs.mean() + se),
            (epsilon, MODELS[1], base, base, base),
            (
                epsilon,
                MODELS[2],
                float(rr.loc[epsilon]),
                float(rr.loc[epsilon]),
                float(rr.loc[epsilon]),
            ),
        ]
    return pd.DataFrame(rows, columns=["epsilon", "model", "accuracy", "low", "high"])


# --- 1. one step, drawn --------------------------------------------------------------------------
PEOPLE = 8
STEP_FEATURES = ("EducationNum (scaled)", "HoursPerWeek (scaled)")
CLIPS: tuple[float, ...] = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
# Section 1's plane: the eight people's gradients are at most 1.59 long (features scaled to
# [−1, 1]; a test checks), so the frame is ±STEP_LIMIT and C stops at STEP_LIMIT, where
# nothing is clipped any more. (On ±4 the arrows filled ~100 of 370 px.)
STEP_LIMIT = 2.0
STEP_CLIPS: tuple[float, ...] = (0.1, 0.25, 0.5, 1.0, STEP_LIMIT)
SIGMAS: tuple[float, ...] = (0.0, 0.5, 1.0, 2.0, 4.0)
DEFAULT_SIGMA = 1.0


@datasets.cached(census_only=True, max_entries=1)
def step_people() -> tuple[np.ndarray, np.ndarray]:
    """Eight training people's gradients in a two-feature model (education and hours,
    weights at 0): (gradients, their labels). Two features, so that each is an arrow."""
    d = data()
    columns = [d.names.index(f) for f in STEP_FEATURES]
    rng = np.random.default_rng(SPLIT_SEED)
    rows = rng.choice(len(d.y_train), size=PEOPLE, replace=False)
    x = d.x_train[rows][:, columns]
    grads = per_example_gradients(np.zeros(3), x, d.y_train[rows])[:, :2] * 4  # a steep start
    return grads, d.y_train[rows]


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def step_frame(clip: float, sigma: float, seed: int) -> pd.DataFrame:
    """Arrows from the origin: each person's gradient, clipped; their sum; the sum with
    N(0, σ²C²) noise (one seeded draw)."""
    grads, _ = step_people()
    clipped = dp.clip_rows(grads, clip)
    total = clipped.sum(axis=0)
    noisy = dp.dpsgd_step(grads, clip, sigma, rng=np.random.default_rng(seed))  # B = 1: the sum
    rows = [("gradient", i, g[0], g[1]) for i, g in enumerate(grads)]
    rows += [("clipped", i, g[0], g[1]) for i, g in enumerate(clipped)]
    rows += [("sum of clipped", 0, total[0], total[1]), ("sum + noise", 0, noisy[0], noisy[1])]
    frame = pd.DataFrame(rows, columns=["arrow", "person", "x", "y"])
    return frame.assign(x0=0.0, y0=0.0)[["arrow", "person", "x0", "y0", "x", "y"]]


def beyond_the_frame(frame: pd.DataFrame) -> float | None:
    """The noisy sum's length when it reaches past section 1's ±STEP_LIMIT frame (the chart
    draws it to the edge), else None."""
    noisy = frame[frame["arrow"] == "sum + noise"][["x", "y"]].to_numpy()[0]
    return float(np.hypot(*noisy)) if np.max(np.abs(noisy)) > STEP_LIMIT else None


@datasets.cached()
def clip_circle(clip: float) -> pd.DataFrame:
    angle = np.linspace(0, 2 * np.pi, 73)
    return pd.DataFrame(
        {"x": clip * np.cos(angle), "y": clip * np.sin(angle), "order": np.arange(73)}
    )


# --- 2. clipping ---------------------------------------------------------------------------------
NORM_DOMAIN = (0.0, 4.0)


@datasets.cached(census_only=True, max_entries=1)
def gradient_norms() -> np.ndarray:
    """Every training example's gradient norm at the start of training (weights 0): what
    the first steps' clipping meets."""
    d = data()
    weights = np.zeros(d.x_train.shape[1] + 1)
    return np.linalg.norm(per_example_gradients(weights, d.x_train, d.y_train), axis=1)


@dataclass(frozen=True)
class Clipping:
    clipped_share: float  # share of examples whose gradient is shortened
    bias: float  # ‖mean clipped − mean raw‖ / ‖mean raw‖ at those weights
    noise: float  # the noise's sd per coordinate of the averaged gradient, σC/(qn)


@datasets.cached(census_only=True, max_entries=len(CLIPS))
def clipping(clip: float) -> Clipping:
    d = data()
    grads = per_example_gradients(np.zeros(d.x_train.shape[1] + 1), d.x_train, d.y_train)
    raw = grads.mean(axis=0)
    clipped = dp.clip_rows(grads, clip).mean(axis=0)
    noise = noise_for(1.0) * clip / (SAMPLE_RATE * len(d.y_train))
    return Clipping(
        float(np.mean(gradient_norms() > clip)),
        float(np.linalg.norm(clipped - raw) / np.linalg.norm(raw)),
        noise,
    )


def clipping_words(clip: float, result: Clipping) -> str:
    """Section 2's paragraph at C: the bias where C shortens gradients, and where it shortens
    none (C above the longest, 1.75 at the start), that there is no bias left to remove and a
    larger C only adds noise."""
    noise = (
        f"The noise on the average is σC divided by the expected batch q·n = "
        f"{text.number(expected_batch())}: ±\u00a0{text.number(result.noise)} per coordinate at "
        "the σ that ε = 1 needs, growing in proportion to C."
    )
    if result.clipped_share == 0:
        return (
            f"At C = {text.number(clip)} no gradient is longer than C: none is shortened and the "
            f"average gradient is exact, with no **bias**. {noise} Past the longest gradient, a "
            "larger C buys nothing and pays in **noise**."
        )
    return (
        f"At C = {text.number(clip)}, {text.percent(result.clipped_share)} of the gradients are "
        f"shortened, and the average gradient points {text.percent(result.bias)} off (its "
        f"relative error): that is the **bias** of a small C. {noise} A large C keeps every "
        "gradient, and pays in **noise**."
    )


@datasets.cached(census_only=True)
def norms_frame() -> pd.DataFrame:
    norms = np.clip(gradient_norms(), *NORM_DOMAIN)
    counts, edges = np.histogram(norms, bins=40, range=NORM_DOMAIN)
    return pd.DataFrame({"start": edges[:-1], "end": edges[1:], "share": counts / norms.size})


@datasets.cached()
def clip_rule(clip: float) -> pd.DataFrame:
    return pd.DataFrame({"x": [clip], "label": [f"C = {text.number(clip)}"]})


# --- 4. the accountant ---------------------------------------------------------------------------
STEP_GRID: tuple[int, ...] = (30, 300, 3_000)


# ε at q = 0.01, δ = 1e-5 by PLD and by RDP for each σ and number of steps: tables.py (the
# PLD accountant takes ~0.5 s a point); the tests recompute every value.
ACCOUNTANT_TABLE: dict[tuple[float, int], tuple[float, float]] = tables.ACCOUNTANT


@datasets.cached(census_only=True, max_entries=len(ACCOUNTANT_SIGMAS))
def accountant_curves(sigma: float) -> pd.DataFrame:
    rows = []
    for n_steps in STEP_GRID:
        pld, rdp = ACCOUNTANT_TABLE[(sigma, n_steps)]
        rows += [(n_steps, "PLD", pld), (n_steps, "RDP", rdp)]
    return pd.DataFrame(rows, columns=["steps", "accountant", "epsilon"])


def pld_savings() -> pd.Series:
    """How much smaller PLD's ε is than RDP's, 1 − ε_PLD/ε_RDP, at each point of the
    accountant chart (every σ and number of steps), indexed by (σ, steps)."""
    return pd.Series(
        {point: 1 - pld / rdp for point, (pld, rdp) in ACCOUNTANT_TABLE.items()}
    ).sort_index()


# --- 5. attack the model -------------------------------------------------------------------------
ATTACK_N = 60  # a small study: the setting in which a model memorizes its training people
ATTACK_EPOCHS = 2_000  # full-batch gradient descent, trained to (near) zero training loss
ATTACK_RATE = 0.1
ATTACK_PRIVATE_EPOCHS = 200  # 2,000 steps
ATTACK_EPSILONS: tuple[float, ...] = (1.0, 10.0)
# σ at q = 0.1, 2,000 steps, δ = 1e-5 (RDP): tables.py, as NOISE_TABLE
ATTACK_NOISE: dict[float, float] = tables.ATTACK_NOISE
ATTACK_SEED = 33
FPR_TARGET = 0.01  # the ROC's marked false-positive rate


@dataclass(frozen=True)
class Attack:
    name: str
    advantage: float  # max over thresholds of TPR − FPR (Yeom et al. 2018)
    tpr: float  # at the best threshold
    fpr: float
    epsilon_shown: float  # the ε those counts prove with 95% confidence (epsilon_lower_bound)
    roc: pd.DataFrame


def _attack(name: str, weights: np.ndarray, x: np.ndarray, y: np.ndarray) -> Attack:
    """Yeom et al. 2018: flag as a training member whoever the model fits with a small loss.
    Members: the study's people; non-members: the held-out census rows."""
    d = data()
    inside, outside = -losses(weights, x, y), -losses(weights, d.x_test, d.y_test)
    cuts = np.unique(np.concatenate([inside, outside]))
    # share of each group scoring at least each cut: 1 − (how many score below it) / size
    tpr = 1.0 - np.searchsorted(np.sort(inside), cuts, side="left") / inside.size
    fpr = 1.0 - np.searchsorted(np.sort(outside), cuts, side="left") / outside.size
    best = int(np.argmax(tpr - fpr))
    grid = np.linspace(0, 1, 101)
    order = np.argsort(fpr, kind="stable")
    reach = np.maximum.accumulate(tpr[order])  # the best TPR at or below each FPR
    at = np.searchsorted(fpr[order], grid, side="right") - 1
    roc_tpr = np.where(at >= 0, reach[np.maximum(at, 0)], 0.0)
    tp = int(round(tpr[best] * inside.size))
    fp = int(round(fpr[best] * outside.size))
    return Attack(
        name,
        float(tpr[best] - fpr[best]),
        float(tpr[best]),
        float(fpr[best]),
        dp.epsilon_lower_bound(tp, inside.size, fp, outside.size),
        pd.DataFrame({"fpr": grid, "tpr": roc_tpr, "curve": name}),
    )


def study(seed: int = ATTACK_SEED) -> tuple[np.ndarray, np.ndarray]:
    d = data()
    rows = np.random.default_rng(seed).choice(len(d.y_train), size=ATTACK_N, replace=False)
    return d.x_train[rows], d.y_train[rows]


def attack_steps() -> int:
    return round(ATTACK_PRIVATE_EPOCHS / ATTACK_RATE)


def attack_noise(epsilon: float) -> float:
    return ATTACK_NOISE[epsilon]


def attack_models(seed: int = ATTACK_SEED) -> tuple[Attack, ...]:
    x, y = study(seed)
    plain = train(
        0.0, math.inf, sample_rate=1.0, epochs=ATTACK_EPOCHS, learning_rate=1.0, x=x, y=y, seed=seed
    )
    out = [_attack("non-private", plain, x, y)]
    for epsilon in ATTACK_EPSILONS:
        weights = train(
            attack_noise(epsilon),
            DEFAULT_CLIP,
            sample_rate=ATTACK_RATE,
            epochs=ATTACK_PRIVATE_EPOCHS,
            learning_rate=1.0,
            x=x,
            y=y,
            seed=seed,
        )
        out.append(_attack(f"DP-SGD, ε = {text.number(epsilon)}", weights, x, y))
    return tuple(out)


@datasets.cached(census_only=True, max_entries=2)
def attacks() -> tuple[Attack, ...]:
    return attack_models()


# --- words and frames for the page ---------------------------------------------------------------


def arrow_length(frame: pd.DataFrame, arrow: str) -> float:
    row = frame[frame["arrow"] == arrow].iloc[0]
    return float(math.hypot(row["x"], row["y"]))


def series_of(curve: pd.DataFrame, name: str) -> pd.Series:
    return curve[curve["model"] == name].set_index("epsilon")["accuracy"]


NOISE_Z = 2.0  # a difference within two standard errors is "about the same"


def clear_winners(curve: pd.DataFrame) -> pd.Series:
    """Per ε: +1 where DP-SGD predicts clearly better than the RR model, −1 where RR does,
    0 where the difference is within NOISE_Z standard errors of it: DP-SGD's from its SEEDS
    trainings (the curve's ± 1 SE band), the RR model's that of an accuracy measured on the
    test set's people, sqrt(p(1 − p)/n)."""
    ours, theirs = series_of(curve, MODELS[0]), series_of(curve, MODELS[2])
    band = curve[curve["model"] == MODELS[0]].set_index("epsilon")
    se_ours = (band["high"] - band["low"]) / 2
    se_theirs = np.sqrt(theirs * (1 - theirs) / len(data().y_test))
    noise = NOISE_Z * np.sqrt(se_ours**2 + se_theirs**2)
    difference = ours - theirs
    return pd.Series(np.where(difference.abs() <= noise, 0, np.sign(difference)), index=ours.index)


def prediction_answer() -> int:
    """0 if DP-SGD wins wherever the two differ beyond the noise, 1 if RR does, 2 if each
    wins somewhere (it depends on ε), 3 if they are within the noise at every ε."""
    wins = clear_winners(accuracy_curve())
    if (wins == 0).all():
        return 3
    if (wins >= 0).all():
        return 0
    return 1 if (wins <= 0).all() else 2


def attack_roc(results: tuple[Attack, ...]) -> pd.DataFrame:
    return pd.concat([a.roc for a in results], ignore_index=True)


def fpr_rule() -> pd.DataFrame:
    return pd.DataFrame({"x": [FPR_TARGET], "label": [f"FPR {text.percent(FPR_TARGET)}"]})


def below_diagonal(attack: Attack) -> float:
    """The share of the ROC's false-positive grid where it runs below the diagonal (TPR <
    FPR): the attack does worse than guessing there."""
    roc = attack.roc
    return float(np.mean(roc["tpr"] < roc["fpr"] - 1e-9))


@datasets.cached(census_only=True, max_entries=1)
def study_difficulty() -> tuple[float, float]:
    """Mean log-loss of the study's 60 people and of the held-out census under the model
    trained on the whole training set (none of it private): how hard these 60 are to fit,
    compared with everyone."""
    x, y = study()
    d = data()
    weights = non_private()
    return float(losses(weights, x, y).mean()), float(losses(weights, d.x_test, d.y_test).mean())


# --- 7. your file --------------------------------------------------------------------------------
# An uploaded CSV file: predict one yes/no question about a row ("column = value") from the
# other columns, with the same trainer, schedule and σ table as the census (q = 0.01, 300
# steps, δ = 1e-5; δ stays below 1/n because at most MAX_ROWS rows are used). It trains only
# when the student presses the button, reporting progress; the result stays in this session.
MAX_ROWS = 30_000  # a random MAX_ROWS of a larger file (about the census's size)
MAX_FEATURES = 100  # columns of the model, in the file's column order, until this many
MIN_TRAIN = 50
MIN_TEST = 20
UPLOAD_SEED = 7
UPLOAD_MODELS = ("DP-SGD", "non-private", "always the more common answer")
UPLOAD_TRAININGS = 1 + len(EPSILONS) * SEEDS  # the non-private model, then DP-SGD


@dataclass(frozen=True)
class Prepared:
    """The upload as a learning problem: `data` is None when it cannot be trained on, and
    `problem` says why (plain text); `note` says what was used and what was left out."""

    data: Data | None
    problem: str
    note: str


def prepare(frame: pd.DataFrame, target: Condition) -> Prepared:
    """One-hot text columns (2 to MAX_CATEGORIES values; missing: no category), standardized
    numeric ones (with the training rows' mean and spread; missing: the mean), in the file's
    column order up to MAX_FEATURES features; the target's own column is never a feature."""
    rng = np.random.default_rng(UPLOAD_SEED)
    total = len(frame)
    if total > MAX_ROWS:
        frame = frame.iloc[np.sort(rng.choice(total, size=MAX_ROWS, replace=False))]
    y = target.mask(frame).to_numpy().astype(float)
    test = rng.random(len(frame)) < TEST_SHARE
    blocks: list[np.ndarray] = []
    names: list[str] = []
    left_out: list[str] = []
    for column in frame.columns:
        if str(column) == target.column:
            continue
        series = frame[column]
        if pd.api.types.is_bool_dtype(series) or pd.api.types.is_numeric_dtype(series):
            values = series.to_numpy(dtype=float, na_value=np.nan)
            seen = values[~test & ~np.isnan(values)]
            spread = float(seen.std()) if seen.size else 0.0
            if not spread > 0:
                left_out.append(f"{column} (one value)")
                continue
            new = [np.nan_to_num((values - seen.mean()) / spread, nan=0.0)]
            new_names = [f"{column} (standardized)"]
        elif pd.api.types.is_datetime64_any_dtype(series):
            left_out.append(f"{column} (dates)")
            continue
        else:
            text_values = series.astype("string")
            categories = sorted(text_values.dropna().unique())
            if not 2 <= len(categories) <= MAX_CATEGORIES:
                left_out.append(f"{column} ({len(categories):,} values)")
                continue
            as_array = text_values.to_numpy(dtype=object, na_value=None)
            new = [(as_array == category).astype(float) for category in categories]
            new_names = [f"{column} = {category}" for category in categories]
        if len(names) + len(new) > MAX_FEATURES:
            left_out.append(f"{column} (past the {MAX_FEATURES} features a model may have)")
            continue
        blocks += new
        names += new_names
    sampled = (
        f"a random {text.number(MAX_ROWS)} of its {text.number(total)} rows"
        if total > MAX_ROWS
        else f"its {text.number(total)} rows"
    )
    standardized = sum(name.endswith(" (standardized)") for name in names)
    note = (
        f"Predicting “{target.label}” from {len(names)} features of the file's other columns, "
        f"using {sampled}."
        + (f" Left out: {'; '.join(left_out)}." if left_out else "")
        + (
            f" {standardized} numeric {'column is' if standardized == 1 else 'columns are'} "
            "standardized with the training rows' own mean and spread: a file has no public "
            "ranges to use here, so that step reads the rows outside the ε shown (sections "
            "1–6 scale from public ranges instead)."
            if standardized
            else ""
        )
    )
    if not names:
        why = "; ".join(left_out) or "the file has one column"
        return Prepared(None, f"No other column of this file can be a feature: {why}.", note)
    x = np.column_stack(blocks)
    train_y, test_y = y[~test], y[test]
    if train_y.size < MIN_TRAIN or test_y.size < MIN_TEST:
        return Prepared(
            None,
            f"The file is too small to train and test a model: it needs at "
            f"least {MIN_TRAIN + MIN_TEST} rows, better hundreds.",
            note,
        )
    if train_y.min() == train_y.max():
        return Prepared(
            None,
            f"Every training row answers “{target.label}” the same way: "
            "there is nothing to learn. Pick another question.",
            note,
        )
    return Prepared(Data(tuple(names), x[~test], train_y, x[test], test_y), "", note)


@datasets.cached(max_entries=1)
def upload_problem(target: Condition) -> Prepared:
    """The active file (only ever an upload here) prepared for `target`, kept in the session:
    only the last question's (up to 30,000 × 100 numbers, 24 MB), so that a student trying
    questions does not pile them up."""
    return prepare(datasets.active().frame, target)


_PROGRESS: contextvars.ContextVar[Callable[[float, str], None] | None] = contextvars.ContextVar(
    "dpsgd_progress", default=None
)


@contextlib.contextmanager
def reporting(callback: Callable[[float, str], None]):
    """Within this block, the upload's trainings call `callback(share done, message)`."""
    token = _PROGRESS.set(callback)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def _report(done: int, message: str) -> None:
    callback = _PROGRESS.get()
    if callback is not None:
        callback(done / UPLOAD_TRAININGS, message)


def upload_curve(d: Data) -> pd.DataFrame:
    """Section 3's curve on the file: DP-SGD at every ε (SEEDS trainings each), the
    non-private model, and the baseline that always answers the training rows' majority."""
    majority = float(d.y_train.mean() >= 0.5)
    baseline = float(np.mean(d.y_test == majority))
    _report(0, "Training the non-private model…")
    base = accuracy(
        train(0.0, math.inf, seed=SEED_TRAIN, x=d.x_train, y=d.y_train), d.x_test, d.y_test
    )
    rows, done = [], 1
    for epsilon in EPSILONS:
        runs = []
        for run in range(SEEDS):
            _report(
                done,
                f"Training DP-SGD at ε = {text.number(epsilon)} "
                f"({done + 1} of {UPLOAD_TRAININGS})…",
            )
            weights = train(
                noise_for(epsilon),
                DEFAULT_CLIP,
                seed=SEED_TRAIN + 100 * (run + 1),
                x=d.x_train,
                y=d.y_train,
            )
            runs.append(accuracy(weights, d.x_test, d.y_test))
            done += 1
        values = np.array(runs)
        se = values.std(ddof=1) / math.sqrt(SEEDS)
        rows += [
            (epsilon, UPLOAD_MODELS[0], values.mean(), values.mean() - se, values.mean() + se),
            (epsilon, UPLOAD_MODELS[1], base, base, base),
            (epsilon, UPLOAD_MODELS[2], baseline, baseline, baseline),
        ]
    _report(UPLOAD_TRAININGS, "Done.")
    return pd.DataFrame(rows, columns=["epsilon", "model", "accuracy", "low", "high"])
