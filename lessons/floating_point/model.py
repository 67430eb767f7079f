"""When code breaks the proof (the numbers behind the page): the textbook
Laplace sampler in doubles against a count of 0 and a count of 1, the outputs only one of
the two can produce (decided exactly by dp.possible_outputs, which inverts the sampler on
the double grid), the same attack on Mironov's snapping mechanism and on the discrete
Laplace, and two other implementation leaks in numbers.

Neighbours: a count of 0 or 1 (one person added or removed). Nothing here reads the data,
so the results are computed once and shared by every session (`census_only`), an upload or
not. Every sampler is dp/'s:
dp.float_laplace and dp.possible_outputs (dp/floating.py), dp.discrete_laplace_mechanism
and dp.laplace_mechanism (dp/laplace.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, text

EPSILONS: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 1.5, 2.0, 5.0)
DEFAULT_EPSILON = 1.0
SAMPLES = 20_000  # outputs drawn from each count, for each mechanism
COUNTS = (0.0, 1.0)
SEED_TEXTBOOK = 10  # offsets added to controls.seed()
SEED_SNAPPING = 20
SEED_DISCRETE = 30

TEXTBOOK = "textbook, in doubles"
SNAPPING = "snapping (Mironov)"
DISCRETE = "discrete Laplace"
MECHANISMS = (TEXTBOOK, SNAPPING, DISCRETE)

BOTH = "possible from both counts"
ONLY_0 = "only from a count of 0"
ONLY_1 = "only from a count of 1"
VERDICTS = (BOTH, ONLY_0, ONLY_1)
DRAWN = ("drawn from a count of 0", "drawn from a count of 1")


def scale(epsilon: float) -> float:
    """b = Δ/ε for a count (Δ = 1)."""
    return dp.laplace_scale(1.0, epsilon)


# --- 1. the textbook sampler ---------------------------------------------------------------------
@dataclass(frozen=True)
class Attack:
    mechanism: str
    epsilon: float
    samples: int  # outputs drawn from each count
    # per count drawn from: how many of its outputs each verdict got (BOTH, ONLY_0, ONLY_1)
    verdicts: tuple[tuple[int, int, int], tuple[int, int, int]]

    @property
    def named(self) -> float:
        """The share of all outputs that only the count they came from can produce."""
        (_, from_0, _), (_, _, from_1) = self.verdicts
        return (from_0 + from_1) / (2 * self.samples)

    @property
    def advantage(self) -> float:
        """TPR − FPR of the test "count 1 when the output is impossible from 0": its FPR is
        0 (an output of count 0 is always possible from 0)."""
        return self.verdicts[1][2] / self.samples - self.verdicts[0][2] / self.samples


def _verdicts(possible_0: np.ndarray, possible_1: np.ndarray) -> tuple[int, int, int]:
    return (
        int(np.sum(possible_0 & possible_1)),
        int(np.sum(possible_0 & ~possible_1)),
        int(np.sum(~possible_0 & possible_1)),
    )


def _float_attack(mechanism: str, epsilon: float, seed: int, bound: float | None) -> Attack:
    b = scale(epsilon)
    kind = dp.floating.TEXTBOOK if mechanism == TEXTBOOK else dp.floating.SNAPPING
    rng = np.random.default_rng(seed)
    verdicts = []
    for count in COUNTS:
        outputs = dp.float_laplace(count, b, mechanism=kind, bound=bound, size=SAMPLES, rng=rng)
        possible = [
            dp.possible_outputs(outputs, other, b, mechanism=kind, bound=bound) for other in COUNTS
        ]
        verdicts.append(_verdicts(*possible))
    return Attack(mechanism, epsilon, SAMPLES, (verdicts[0], verdicts[1]))


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def textbook_attack(epsilon: float, seed: int) -> Attack:
    """The attack on SAMPLES outputs of the textbook sampler from each count."""
    return _float_attack(TEXTBOOK, epsilon, seed, None)


def ceiling(epsilon: float) -> float:
    """The most any test may tell the two counts apart under ε-DP: tanh(ε/2)."""
    return dp.advantage_bound(epsilon)


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def verdict_frame(epsilon: float, seed: int) -> pd.DataFrame:
    """Per count drawn from, the share of its outputs with each verdict."""
    attack = textbook_attack(epsilon, seed)
    rows = [
        (drawn, verdict, counts[i] / attack.samples)
        for drawn, counts in zip(DRAWN, attack.verdicts, strict=True)
        for i, verdict in enumerate(VERDICTS)
    ]
    return pd.DataFrame(rows, columns=["drawn", "verdict", "share"])


NAMED_BANDS = (
    "none: ε-DP forbids it",
    "under 10%",
    "10% to 50%",
    "more than half",
)


def named_band(share: float) -> int:
    if share == 0:
        return 0
    return 1 if share < 0.1 else 2 if share <= 0.5 else 3


# --- the microscope: consecutive doubles near an output -----------------------------------------
NEAR: tuple[float, ...] = (-0.5, 0.3, 0.75, 1.0, 1.3, 2.0, 3.0)
DEFAULT_NEAR = 1.0
CELLS = 32  # consecutive doubles shown
ROWS = ("from a count of 0", "from a count of 1")  # the microscope's rows
REACHED = "an output"
NOT_REACHED = "never an output"


def doubles_from(start: float, count: int = CELLS) -> np.ndarray:
    """`count` consecutive doubles from `start` upward."""
    found = [float(start)]
    for _ in range(count - 1):
        found.append(float(np.nextafter(found[-1], math.inf)))
    return np.array(found)


@datasets.cached(census_only=True, max_entries=len(EPSILONS) * len(NEAR))
def microscope(epsilon: float, near: float) -> pd.DataFrame:
    """For CELLS consecutive doubles from `near`: whether the textbook sampler can output
    each from a count of 0 and from a count of 1 (exact, dp.possible_outputs)."""
    values = doubles_from(near)
    rows = []
    for count, drawn in zip(COUNTS, ROWS, strict=True):
        possible = dp.possible_outputs(values, count, scale(epsilon))
        rows += [
            (i, drawn, REACHED if p else NOT_REACHED, repr(float(v)))
            for i, (v, p) in enumerate(zip(values, possible, strict=True))
        ]
    return pd.DataFrame(rows, columns=["double", "drawn", "reached", "value"])


def microscope_counts(frame: pd.DataFrame) -> dict[str, int]:
    """How many of the doubles each count can output, and how many only one of them can."""
    pivot = frame.pivot(index="double", columns="drawn", values="reached") == REACHED
    zero, one = pivot[ROWS[0]], pivot[ROWS[1]]
    return {
        "from 0": int(zero.sum()),
        "from 1": int(one.sum()),
        "only one": int((zero ^ one).sum()),
    }


# --- 2. the fixes --------------------------------------------------------------------------------
# B: above b at every ε of the slider (b = 10 at ε = 0.1), as Mironov's theorem needs
BOUNDS: tuple[float, ...] = (20.0, 50.0, 100.0)
DEFAULT_BOUND = 20.0


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def snapping_attack(epsilon: float, bound: float, seed: int) -> Attack:
    """The same attack on Mironov's snapping mechanism with clamp bound B (its outputs are
    multiples of Λ in [−B, B])."""
    return _float_attack(SNAPPING, epsilon, seed, bound)


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def discrete_attack(epsilon: float, seed: int) -> Attack:
    """The same question for the discrete Laplace: its outputs are whole numbers, and
    P[K = k] ∝ e^(−ε|k|) > 0 for every whole k, so every output of either count is possible
    from the other (checked on each output: a whole, finite number)."""
    rng = np.random.default_rng(seed)
    verdicts = []
    for count in COUNTS:
        outputs = np.asarray(
            dp.discrete_laplace_mechanism(int(count), epsilon, size=SAMPLES, rng=rng), dtype=float
        )
        whole = np.isfinite(outputs) & (outputs == np.round(outputs))
        verdicts.append(_verdicts(whole, whole))
    return Attack(DISCRETE, epsilon, SAMPLES, (verdicts[0], verdicts[1]))


def snapping_excess(epsilon: float, bound: float) -> float:
    """Mironov's Theorem 1: snapping with b = 1/ε and clamp B is (1/b + 2⁻⁴⁹·B/b)-DP for a
    sensitivity-1 query when b < B < 2⁴⁶·b; this is the 2⁻⁴⁹·B/b it adds to ε."""
    return 2.0**-49 * bound / scale(epsilon)


@datasets.cached(max_entries=len(EPSILONS) * 3, census_only=True)  # no data: one for all
def snapping_guarantee(epsilon: float, bound: float) -> tuple[float, float]:
    """(ε, δ) that the course's snapping sampler has between the counts 0 and 1: Mironov's
    ε (1/b + 2⁻⁴⁹·B/b) and, at that ε, the exact δ from its output probabilities
    (dp.snapping_delta). His Theorem 1 makes δ = 0 for U over every double in (0, 1]; on the
    2⁻⁵³ grid the noise stops at ±36.7·b and the tail's draws are few, so δ > 0."""
    total = epsilon + snapping_excess(epsilon, bound)
    return total, dp.snapping_delta(COUNTS[0], COUNTS[1], scale(epsilon), bound, total)


def snapping_promise(epsilon: float, bound: float) -> str:
    total, delta = snapping_guarantee(epsilon, bound)
    said = "0" if delta == 0 else text.power_of_ten(delta)
    return (
        f"(ε = {text.number(epsilon)} + {text.power_of_ten(snapping_excess(epsilon, bound))}, "
        f"δ = {said}) between counts 0 and 1, δ counted from its draws"
    )


def attacks(epsilon: float, bound: float, seed: int) -> tuple[Attack, Attack, Attack]:
    """The same attack on the three samplers (seed: the page's; each adds its offset)."""
    return (
        textbook_attack(epsilon, seed + SEED_TEXTBOOK),
        snapping_attack(epsilon, bound, seed + SEED_SNAPPING),
        discrete_attack(epsilon, seed + SEED_DISCRETE),
    )


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def fixes_frame(epsilon: float, bound: float, seed: int) -> pd.DataFrame:
    """Each mechanism's share of outputs that name their count ("named"), and where its
    value is written (value_place)."""
    found = attacks(epsilon, bound, seed)
    places = [value_place(a.named, ceiling(epsilon)) for a in found]
    return pd.DataFrame(
        {
            "mechanism": [a.mechanism for a in found],
            "named": [a.named for a in found],
            "at": [at for at, _ in places],
            "left": [left for _, left in places],
        }
    )


# A bar's value ("81.3%") takes up to this share of the x axis on a phone's narrow plot
VALUE_REACH = 0.25


def value_place(named: float, top: float) -> tuple[float, bool]:
    """Where a bar's value goes, (x, left of it): right of the bar's end, unless the
    ceiling's rule at `top` runs through it there ("0.0%" at ε = 0.1, the rule at 5%; "96.3%"
    at ε = 5, the rule at 98.7%): then right of the rule, or, with no room there, left of
    the bar's end (or of the rule, if that comes first)."""
    if not named - 0.01 <= top <= named + VALUE_REACH:
        return named, False
    if top + VALUE_REACH <= 1.0:
        return top, False
    return min(named, top), True


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def fixes_table(epsilon: float, bound: float, seed: int) -> pd.DataFrame:
    found = attacks(epsilon, bound, seed)
    promises = {
        TEXTBOOK: f"ε = {text.number(epsilon)} on paper; none in fact",
        SNAPPING: snapping_promise(epsilon, bound),
        DISCRETE: f"ε = {text.number(epsilon)}",
    }
    return pd.DataFrame(
        {
            "mechanism": [a.mechanism for a in found],
            "outputs examined": [f"{2 * a.samples:,}" for a in found],
            "outputs that name their count": [
                f"{sum(a.verdicts[0][1:]) + sum(a.verdicts[1][1:]):,} ({text.percent(a.named)})"
                for a in found
            ],
            "what it promises": [promises[a.mechanism] for a in found],
        }
    )


@datasets.cached(max_entries=len(EPSILONS))
def ceiling_rule(epsilon: float) -> pd.DataFrame:
    return pd.DataFrame(
        {"x": [ceiling(epsilon)], "label": [f"tanh(ε/2) = {text.percent(ceiling(epsilon))}"]}
    )


# --- 3. other ways an implementation leaks -------------------------------------------------------
SEED_REUSED = 7
REUSE_COUNT = 4_180  # a count, released twice: with and without one person


def reused_seed() -> tuple[float, float]:
    """Two releases of neighbouring counts (n and n + 1) with the same seed: the same noise,
    so their difference is the person."""
    first = float(dp.laplace_mechanism(REUSE_COUNT, 1.0, 1.0, rng=SEED_REUSED))
    second = float(dp.laplace_mechanism(REUSE_COUNT + 1, 1.0, 1.0, rng=SEED_REUSED))
    return first, second


def snapping_grid(epsilon: float) -> float:
    return dp.floating.snapping_grid(scale(epsilon))


# --- the page's sentences, from the numbers -------------------------------------------------------
def textbook_words(attack: Attack) -> str:
    """The attack against ε's two promises, from its counts."""
    epsilon = attack.epsilon
    beats = attack.advantage > ceiling(epsilon)
    return (
        f"**{text.percent(attack.named)} of the outputs name their count.** At ε = "
        f"{text.number(epsilon)} an output may be at most {text.number(math.exp(epsilon))} "
        "times likelier from one count than from the other, so no output can ever be "
        "impossible from one of them. Here an output that a count of 0 never produces is "
        "infinitely likelier from 1. The test \u201csay 1 when the output is impossible from "
        f"0\u201d finds {text.percent(attack.verdicts[1][2] / attack.samples)} of the outputs "
        "of a count of 1 and never accuses a count of 0: an advantage of "
        f"{text.percent(attack.advantage)}, "
        + (
            f"above the {text.percent(ceiling(epsilon))} that no test may pass under "
            f"ε = {text.number(epsilon)}. The sampler is not ε-DP for any ε."
            if beats
            else f"under the {text.percent(ceiling(epsilon))} ceiling here, yet the "
            "certain outputs alone show that the sampler is not ε-DP for any ε."
        )
    )


def microscope_words(near: float, found: dict[str, int]) -> str:
    return (
        f"Of {CELLS} consecutive doubles from {text.number(near)}, a count of 0 can output "
        f"{found['from 0']} and a count of 1 can output {found['from 1']}; "
        f"{found['only one']} can "
        "come from only one count, and seeing one names it. The gaps come from rounding: "
        "u takes only multiples of 2⁻⁵³, and the logarithm, the product by b and the sum "
        "x + noise each land on the doubles near their exact value, in patterns that differ "
        "between x = 0 and x = 1."
    )


def fixes_words(attacks: tuple[Attack, ...], bound: float) -> str:
    textbook, snapping, discrete = attacks
    epsilon = textbook.epsilon
    lam = snapping_grid(epsilon)
    return (
        f"Over {2 * textbook.samples:,} outputs each, the attack names the count from "
        f"{text.percent(textbook.named)} of the textbook sampler's, "
        f"{text.percent(snapping.named)} of snapping's and "
        f"{text.percent(discrete.named)} of the discrete Laplace's. Snapping's outputs are "
        f"multiples of Λ = {text.number(lam)} between −{text.number(bound)} and "
        f"{text.number(bound)}, and what it guarantees here is {snapping_promise(epsilon, bound)}"
        f": a hair above ε = {text.number(epsilon)}, with a δ far below any attack's reach. "
        "Its price is the rounding to Λ and the clamp. Finding nothing is not a proof: the "
        "proofs are Mironov's (for U over every double; on this grid, the δ above is what "
        "remains) and the discrete Laplace's, whose "
        "outputs are exact whole numbers. It does show that this attack is gone."
    )
