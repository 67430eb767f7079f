"""The reusable holdout (the numbers behind the page): Dwork et al.'s experiment (Science
2015, Fig. 2) at 5,000 rows a set, data with no signal at all, an analyst who chooses
features by looking at the training set and the holdout, the same analyst through
Thresholdout, and what Thresholdout promises.

The data. Three sets of N = 5,000 rows (training, holdout and fresh data from the same
population); each row has a label and 10,000 features, every one a fair coin flip, drawn
independently: no feature says anything about the label, and every classifier's accuracy on
the population is exactly 50%. A feature's **agreement** on a set is the share of its rows
where the feature equals the label: about ½ ± 1/(2√N) by chance.

The analyst (the paper's, in rounds). It goes through the features from the strongest on
the training set down, keeps only those whose training agreement is beyond ½ ± 1/(2√N)
(the paper's 1/√N on the correlation 2·agreement − 1) and asks for each one its agreement
on the holdout; a feature joins the classifier when the holdout's answer is beyond the same
bar on the same side. Every ROUND features, the classifier (a majority vote of the chosen
features, each turned to agree with the label on the training set; a tie counts half
right) is scored on the training set, on the holdout (a question to the holdout too) and on
fresh data (which the analyst never sees).

Every query is a mean over a set's rows of a value in [0, 1] (an agreement, an accuracy), so
one holdout row changes its answer by at most Δ = 1/N. Thresholdout is dp.Thresholdout;
its privacy dp.thresholdout_epsilon.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

import dp
from ui import datasets, text

N = 5_000  # rows in each set: training, holdout, fresh
FEATURES = 10_000
SEED = 2015  # the data: one draw, the same for everyone (the year of the paper)
SETS = ("training", "holdout", "fresh")
BAR = 1.0 / (2.0 * math.sqrt(N))  # the analyst's bar on |agreement − ½|: about 0.0071
ROUND = 10  # features added between two looks at the accuracies
MOST = 400  # the classifier's largest size
KS: tuple[int, ...] = tuple(range(ROUND, MOST + 1, ROUND))
DEFAULT_K = 200
SENSITIVITY = 1.0 / N  # of every query, on the holdout

# How the analyst checks a feature (section 1)
TRAINING_ONLY = "the training set only"
BOTH = "the training set and the holdout"
CHECKS = (BOTH, TRAINING_ONLY)

# Thresholdout (section 2). SD of the gap between a useless feature's training and holdout
# agreement: √(2 · ¼ / N) = 0.01; the threshold is four of them.
GAP_SD = math.sqrt(0.5 / N)
THRESHOLD = 0.04
TOLERANCES: tuple[float, ...] = (0.00125, 0.0025, 0.005, 0.01, 0.02)
DEFAULT_TOLERANCE = 0.01
BUDGETS: tuple[int, ...] = (10, 20, 40, 60, 100, 200, 400)
DEFAULT_BUDGET = 200
THRESHOLDOUT_SEED = 36  # Thresholdout's noise: one fixed draw per (σ, B), so the page is
# the same for everyone and the projector matches the handout

# The chart
ACCURACY_DOMAIN = (0.4, 0.8)
TRAINING, HOLDOUT_SEEN, FRESH = "training set", "holdout, as the analyst sees it", "fresh data"
TRUTH = "the truth: 50% on the population"
LINES = (TRAINING, HOLDOUT_SEEN, FRESH, TRUTH)
CHANCE = 0.5
# 95% of a 5,000-row accuracy's draws lie within 1.96 · ½/√N of 50% when nothing is there
# (the binomial's normal approximation at p = ½; ties counted half only narrow it)
CHANCE_HALF_WIDTH = 1.959964 * 0.5 / math.sqrt(N)


class Data(NamedTuple):
    """The features the analyst may ever reach (training agreement beyond the bar), strongest
    on the training set first: their agreement on each set (rows: training, holdout, fresh)
    and, for each set, which rows agree with the label (bits packed along the rows)."""

    agreement: np.ndarray  # (3, candidates)
    agrees: np.ndarray  # (3, candidates, N/8) uint8
    features: int  # how many features were drawn (FEATURES)


def data() -> Data:
    """The three sets, drawn from SEED: bits packed 8 rows a byte (a feature agrees with the
    label on a row where their bits are equal), agreements counted with popcount. Not kept:
    6 MB of bits that only the analyses read (`runs` keeps what they found); 80 ms."""
    rng = np.random.default_rng(SEED)
    width = N // 8
    agreement, agrees = [], []
    for _ in SETS:
        features = np.frombuffer(rng.bytes(FEATURES * width), np.uint8).reshape(FEATURES, width)
        labels = np.frombuffer(rng.bytes(width), np.uint8)
        same = ~(features ^ labels)  # 1 where the feature equals the label
        agrees.append(same)
        agreement.append(np.bitwise_count(same).sum(axis=1, dtype=np.int64) / N)
    training = agreement[0]
    order = np.argsort(-np.abs(training - 0.5), kind="stable")
    order = order[np.abs(training[order] - 0.5) > BAR]
    return Data(
        np.stack([a[order] for a in agreement]),
        np.stack([a[order] for a in agrees]),
        FEATURES,
    )


def _side(agreement: float) -> int:
    """+1 beyond the bar above ½, −1 beyond it below, 0 within it (or no answer)."""
    if not agreement - 0.5 > BAR and not 0.5 - agreement > BAR:
        return 0
    return 1 if agreement > 0.5 else -1


def _accuracy(scores: np.ndarray) -> float:
    """A majority vote's accuracy from its rows' scores (agreeing − disagreeing votes): a
    positive score is right, a tie half right."""
    return float(((scores > 0).sum() + 0.5 * (scores == 0).sum()) / scores.size)


class Run(NamedTuple):
    """An analysis, round by round: the classifier's size k and its accuracies (on the
    training set, on the holdout as the analyst was told, on the holdout in truth, on fresh
    data), the questions it asked the holdout, and why it stopped before MOST features (""
    if it did not)."""

    k: tuple[int, ...]
    training: tuple[float, ...]
    seen: tuple[float, ...]  # NaN where the holdout answered nothing (its budget spent)
    holdout: tuple[float, ...]
    fresh: tuple[float, ...]
    checked: tuple[int, ...]  # features checked (questions about a feature) by each round
    questions: int
    answered_by_holdout: int
    stopped: str

    def at(self, k: int) -> int | None:
        """The index of the round with k features, None if the analysis never got there."""
        return self.k.index(k) if k in self.k else None


Ask = Callable[[float, float], float]  # (training value, holdout value) → the answer


def analyse(found: Data, ask_feature: Ask, ask_accuracy: Ask) -> Run:
    """The analyst of the module docstring, on `found`. `ask_feature` and `ask_accuracy`
    answer its questions to the holdout (the holdout's value, the training set's, or
    Thresholdout's); a NaN answer (Thresholdout's ⊥) ends the analysis."""
    scores = np.zeros((len(SETS), N), dtype=np.int32)
    names = ("k", "training", "seen", "holdout", "fresh", "checked")
    rounds: dict[str, list] = {name: [] for name in names}
    questions = kept = 0
    stopped = ""
    for j in range(found.agreement.shape[1]):
        training, holdout, _ = found.agreement[:, j]
        questions += 1
        answer = ask_feature(training, holdout)
        if math.isnan(answer):
            stopped = "budget"
            break
        side = _side(training)
        if _side(answer) != side:
            continue
        votes = np.unpackbits(found.agrees[:, j], axis=1).astype(np.int32)  # 1: agrees
        scores += side * (2 * votes - 1)
        kept += 1
        if kept % ROUND:
            continue
        accuracy = [_accuracy(row) for row in scores]
        checked = j + 1
        questions += 1
        seen = ask_accuracy(accuracy[0], accuracy[1])
        values = (kept, accuracy[0], seen, *accuracy[1:], checked)
        for name, value in zip(names, values, strict=True):
            rounds[name].append(value)
        if math.isnan(seen):
            stopped = "budget"
            break
        if kept == MOST:
            break
    else:
        stopped = "features"
    return Run(
        **{name: tuple(values) for name, values in rounds.items()},
        questions=questions,
        answered_by_holdout=0,
        stopped=stopped,
    )


def _holdout(training: float, holdout: float) -> float:
    return holdout


def _training(training: float, holdout: float) -> float:
    return training


def _standard(found: Data, check: str) -> Run:
    """The analyst with the holdout answering exactly: features checked on the holdout too
    (BOTH), or on the training set only (the holdout asked only for the accuracies)."""
    run = analyse(found, _holdout if check == BOTH else _training, _holdout)
    asked = run.questions if check == BOTH else len(run.k)
    return run._replace(answered_by_holdout=asked)


def _thresholdout(found: Data, tolerance: float, budget: int) -> Run:
    """The same analyst, every question to the holdout answered by one Thresholdout with
    threshold THRESHOLD, tolerance σ and budget B (its noise drawn from THRESHOLDOUT_SEED)."""
    mechanism = dp.Thresholdout(THRESHOLD, tolerance, budget, rng=THRESHOLDOUT_SEED)

    def ask(training: float, holdout: float) -> float:
        return float(mechanism.answer([training], [holdout])[0][0])

    run = analyse(found, ask, ask)
    return run._replace(answered_by_holdout=mechanism.spent)


@datasets.cached(max_entries=1, census_only=True)
def runs() -> dict[tuple, Run]:
    """Every analysis the page can show, computed once (about 0.7 s on the 2-core test
    machine) from one draw of the data, which is then let go: by (check,) for the exact
    holdout and (σ, B) for Thresholdout. No slider press computes anything."""
    found = data()
    done: dict[tuple, Run] = {(check,): _standard(found, check) for check in CHECKS}
    for tolerance in TOLERANCES:
        for budget in BUDGETS:
            done[(tolerance, budget)] = _thresholdout(found, tolerance, budget)
    return done


def standard(check: str) -> Run:
    """The analyst with the exact holdout (see `_standard`)."""
    return runs()[(check,)]


def thresholdout(tolerance: float, budget: int) -> Run:
    """The analyst through Thresholdout at σ and B (see `_thresholdout`)."""
    return runs()[(tolerance, budget)]


def epsilon(tolerance: float, budget: int) -> float:
    """The holdout's privacy under Thresholdout with this σ and B: 2BΔ/σ, Δ = 1/N."""
    return dp.thresholdout_epsilon(budget, tolerance, SENSITIVITY)


def curves(run: Run) -> pd.DataFrame:
    """The chart's lines: accuracy against k for the training set, the holdout as the analyst
    saw it and fresh data, from k = 0 (50%: a vote of no features is a tie on every row) to
    where the run stopped (NaN where Thresholdout answered nothing is dropped: the analyst's
    line ends there), and the truth, 50% at every k."""
    k = (0, *run.k)
    frames = [
        pd.DataFrame({"k": k, "accuracy": (CHANCE, *values), "line": name})
        for name, values in ((TRAINING, run.training), (HOLDOUT_SEEN, run.seen), (FRESH, run.fresh))
    ]
    # the truth first: it is drawn under the lines that run along it
    frames.insert(0, pd.DataFrame({"k": (0, MOST), "accuracy": (CHANCE, CHANCE), "line": TRUTH}))
    frame = pd.concat(frames, ignore_index=True)
    return frame[frame["accuracy"].notna()].reset_index(drop=True)


@datasets.cached(max_entries=len(CHECKS), census_only=True)
def standard_curves(check: str) -> pd.DataFrame:
    """The first chart's lines (one frame per check, shared: a first render converts none)."""
    return curves(standard(check))


@datasets.cached(max_entries=len(TOLERANCES) * len(BUDGETS), census_only=True)
def thresholdout_curves(tolerance: float, budget: int) -> pd.DataFrame:
    """The second chart's lines at σ and B."""
    return curves(thresholdout(tolerance, budget))


def holdout_questions(run: Run, check: str, k: int) -> int:
    """The questions the analyst had asked the holdout by the round with k features: every
    feature it checked there (BOTH) and one accuracy a round."""
    i = run.at(k)
    return (run.checked[i] if check == BOTH else 0) + i + 1


def last_seen(run: Run) -> str:
    """The holdout's last answer about the classifier's accuracy ("–" if none)."""
    seen = [value for value in run.seen if not math.isnan(value)]
    return text.percent(seen[-1], 3) if seen else "–"


def _at(run: Run, i: int) -> str:
    return (
        f"training {text.percent(run.training[i], 3)}, holdout "
        + ("no answer" if math.isnan(run.seen[i]) else text.percent(run.seen[i], 3))
        + f", fresh {text.percent(run.fresh[i], 3)}"
    )


def accuracy_words(run: Run, k: int) -> str:
    """The first chart's description (its alt) in this state."""
    return (
        f"The classifier's accuracy against its number of features k, from 0 to {MOST}, on "
        "the training set, on the holdout as the analyst sees it and on fresh data, with 50% "
        f"(the truth) as a dashed line. At k = {k}: {_at(run, run.at(k))}."
    )


def overfitting_words(run: Run, check: str, k: int) -> str:
    """What the first chart shows at k, from the numbers: is the holdout still honest?"""
    i = run.at(k)
    holdout, fresh, training = run.seen[i], run.fresh[i], run.training[i]
    asked = holdout_questions(run, check, k)
    words = (
        f"after {asked:,} questions to the holdout, the classifier of {k} features scores "
        f"{text.percent(training, 3)} on the training set; "
        + chance_words(holdout, "the holdout's")
        + "; "
        + chance_words(fresh, "fresh data's")
        + ". "
    )
    band = _agree_band(0.0)
    if holdout - fresh > band:
        return words + (
            "The holdout now overstates the classifier by "
            f"{text.number(100 * (holdout - fresh), 2)} points against fresh data (more than "
            f"the ±\u00a0{text.number(100 * band, 2)} two honest 5,000-row scores differ by, 95% "
            "of the time): it was asked about every feature and chose them, so it is no "
            "longer fresh. Its verdict is part of the fit."
        )
    if check == TRAINING_ONLY:
        return words + (
            f"No choice depended on the holdout, so it tells the truth; the training set's "
            f"{text.percent(training, 3)} is the overfitted number."
        )
    return words + (
        f"Holdout and fresh data agree within ±\u00a0{text.number(100 * band, 2)} points here, "
        "as two honest scores would: no sign yet that the holdout has been overfitted (a gap "
        "this small does not prove there is none)."
    )


def _agree_band(tolerance: float) -> float:
    """95% of the gap between the holdout's answer and fresh data's accuracy when both are
    50% in truth: 1.96 · √(2 · ¼/N + 2σ²) (two independent 5,000-row accuracies, and Lap(σ)
    noise of variance 2σ²; σ = 0 for the exact holdout)."""
    return 1.959964 * math.sqrt(0.5 / N + 2.0 * tolerance**2)


def thresholdout_alt(run: Run, tolerance: float, budget: int) -> str:
    """The second chart's description (its alt) in this state."""
    end = (
        f"It stops at k = {run.k[-1] if run.k else 0}, its budget spent."
        if run.stopped == "budget"
        else f"At k = {run.k[-1]}: {_at(run, len(run.k) - 1)}."
    )
    return (
        f"The classifier's accuracy against k through Thresholdout with σ = "
        f"{text.number(tolerance)} and B = {budget:,}: on the training set, on the holdout "
        "as the analyst sees it and on fresh data, with 50% (the truth) dashed. " + end
    )


def thresholdout_words(run: Run, tolerance: float, budget: int) -> str:
    """What Thresholdout did in this state: its spending, whether the budget lasted, and
    whether the analyst's holdout and fresh data agree, from the numbers."""
    epsilon_here = text.number(epsilon(tolerance, budget), 3)
    spent = (
        f"Thresholdout answered {run.answered_by_holdout:,} of the analyst's "
        f"{run.questions:,} questions from the holdout and the rest from the training set. "
    )
    if run.stopped == "budget":
        spent += (
            f"Its budget of {budget:,} ran out at k = {run.k[-1] if run.k else 0}: from there "
            "it answers ⊥, and the analysis can only stop or get a fresh holdout. "
        )
    else:
        spent += f"Its budget lasted to k = {run.k[-1]}. "
    from_training = sum(s == t for s, t in zip(run.seen, run.training, strict=True))
    if from_training:
        spent += (
            f"{from_training} of its {len(run.k)} answers about the classifier's accuracy "
            + ("was" if from_training == 1 else "were")
            + " the training set's own: there the noisy test let the gap through, and the "
            "analyst's line jumps to the training line. "
        )
    seen = [(s, f) for s, f in zip(run.seen, run.fresh, strict=True) if not math.isnan(s)]
    if seen:
        last, fresh = seen[-1]
        band = _agree_band(tolerance)
        agree = abs(last - fresh) <= band
        spent += (
            f"The holdout's last answer, {text.percent(last, 3)}, and fresh data's "
            f"{text.percent(fresh, 3)} "
            + (
                "agree within what chance and the noise allow "
                f"(±\u00a0{text.number(100 * band, 2)} "
                "points, 95%). "
                if agree
                else f"differ by more than chance and the noise allow (± "
                f"{text.number(100 * band, 2)} points, 95%). "
            )
        )
    return spent + (
        f"The holdout's {N:,} rows are protected at ε = {epsilon_here} (2B/(σn), section 3)."
    )


@datasets.cached(max_entries=len(KS) + 1)
def k_rule(k: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(k)], "label": [f"k = {k}"]})


def outside_chance(accuracy: float) -> bool:
    """Whether a 5,000-row accuracy is further from 50% than chance allows 95% of the time."""
    return abs(accuracy - CHANCE) > CHANCE_HALF_WIDTH


def chance_words(accuracy: float, where: str) -> str:
    """Whether an accuracy could be chance, from the number."""
    shown = text.percent(accuracy, 3)
    band = text.number(100 * CHANCE_HALF_WIDTH, 2)
    if outside_chance(accuracy):
        return (
            f"{where} {shown} is outside 50%\u00a0±\u00a0{band} points, the range a 5,000-row "
            "accuracy "
            "stays in 95% of the time when there is nothing to find (one look in twenty "
            "lands outside it by chance)"
        )
    return f"{where} {shown} is within 50%\u00a0±\u00a0{band} points: what chance alone gives"


# --- predict first -----------------------------------------------------------------------------
PREDICT_K = 200
PREDICT_OPTIONS = (
    "About 50%: there is nothing to find",
    "Between 53% and 58%",
    "Between 58% and 63%",
    "Between 63% and 68%",
    "Above 68%",
)
_PREDICT_EDGES = (0.53, 0.58, 0.63, 0.68)


def prediction() -> tuple[float, float]:
    """The holdout's and fresh data's accuracy of the analyst who checks on both, at
    PREDICT_K features: what the prediction asks about."""
    run = standard(BOTH)
    i = run.at(PREDICT_K)
    return run.seen[i], run.fresh[i]


def predicted_option(accuracy: float) -> str:
    """The option an accuracy falls in (below 53%: "about 50%")."""
    return PREDICT_OPTIONS[sum(accuracy >= edge for edge in _PREDICT_EDGES)]
