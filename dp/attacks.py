r"""Attacks on "anonymised" data: re-identification by uniqueness, and the differencing attack.

Uniqueness. Give every person a row of quasi-identifier codes (ZIP, date of birth, sex, …).
People with the same row form an *equivalence class*; a release is k-anonymous when every
class has at least k people (Samarati & Sweeney 1998). A person alone in their class
(size 1) is unique: anyone who knows those attributes finds their row. Sweeney (2000) found
87% of the US population unique on (ZIP, date of birth, sex).

Differencing. Two counts that differ only by person X — "how many earn >50K" and "how many
not named X earn >50K" — differ by exactly X's bit. With Laplace noise Lap(b), b = 1/ε, on
each count the difference is x + L₁ - L₂; the attacker guesses x = 1 iff it exceeds ½.
(Dinur & Nissim 2003; Dwork & Roth 2014, §1.)

Beyond k-anonymity. A k-anonymous class whose people share one sensitive value (every one of
them has the same diagnosis) tells an attacker that value: the homogeneity attack.
l-diversity asks for at least l distinct sensitive values in every class (Machanavajjhala,
Kifer, Gehrke & Venkitasubramaniam 2007). A class can be diverse and still skewed (90% of it
one value where the table has 10%); t-closeness asks that every class's distribution of the
sensitive value be within t of the whole table's (Li, Li & Venkatasubramanian 2007), measured
here by the earth mover's distance with equal ground distance, which is the total-variation
distance ½·Σ|p_class − p_all|.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    _as_numeric_array,
    as_rng,
    check_epsilon,
    check_id_columns,
    check_integer,
    check_magnitude,
    check_real_array,
    check_size,
)
from .laplace import laplace_difference_cdf, laplace_mechanism, laplace_scale

# People per class-size bucket: [1], [2], [3, 5], [6, 10], [11, 50], [51, ∞).
DEFAULT_CLASS_SIZE_EDGES: tuple[int, ...] = (1, 2, 3, 6, 11, 51)


def _check_codes(codes: object) -> np.ndarray:
    """Rows of integer codes: shape (n, m) with n >= 1 (a 1-D array is one column)."""
    arr = _as_numeric_array("codes", codes)
    if arr.dtype == bool:
        arr = arr.astype(np.int64)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"codes must be 1-D or 2-D (people x attributes), got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError("codes must hold at least one person (row)")
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr)):
            raise ValueError("codes must hold whole numbers (integer category codes)")
        if np.all(np.abs(arr) < 2.0**62):  # else kept as floats: int64 would wrap them
            arr = arr.astype(np.int64)
    return arr


def equivalence_classes(codes: object) -> tuple[np.ndarray, np.ndarray]:
    r"""Group people by their row of quasi-identifier codes.

    Returns (class_of_person, class_sizes): class_of_person[i] is the index of person i's
    class, class_sizes[c] = |{i : row_i = row of class c}|. With zero columns everyone is
    in one class of size n. (np.unique over rows, with return_inverse and return_counts.)"""
    arr = _check_codes(codes)
    n, m = arr.shape
    if m == 0:
        return np.zeros(n, dtype=np.int64), np.array([n], dtype=np.int64)
    lows = arr.min(axis=0)
    # spans as Python ints: max − min of int64 codes can overflow int64 itself
    spans = [int(hi) - int(lo) + 1 for lo, hi in zip(lows, arr.max(axis=0), strict=True)]
    if np.issubdtype(arr.dtype, np.integer) and math.prod(spans) < 2**62:
        lows, spans = lows.astype(np.int64), np.asarray(spans, dtype=np.int64)
        # Fast path: one mixed-radix int64 key per row, key = Σ_j (c_j - min_j) Π_{l<j} span_l.
        radix = np.cumprod(np.concatenate(([1], spans[:-1]))).astype(np.int64)
        keys = (arr.astype(np.int64) - lows) @ radix
        _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    else:
        _, inverse, counts = np.unique(arr, axis=0, return_inverse=True, return_counts=True)
    return inverse.reshape(-1).astype(np.int64), counts.astype(np.int64)


def class_size_per_person(codes: object) -> np.ndarray:
    r"""For each person, how many people share their combination: s_i = |{j : row_j = row_i}|.

    s_i = 1 means person i is unique; min_i s_i is the k of k-anonymity."""
    inverse, counts = equivalence_classes(codes)
    return counts[inverse]


def _check_sizes(class_sizes: object) -> np.ndarray:
    arr = check_real_array("class_sizes", class_sizes, allow_inf=False)
    arr = np.atleast_1d(arr)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("class_sizes must be a non-empty 1-D array of class sizes")
    if np.any(arr < 1) or np.any(arr != np.floor(arr)) or np.any(arr > 2.0**53):
        raise ValueError("class_sizes must hold whole numbers from 1 to 2^53 (people counts)")
    return arr.astype(np.int64)


def share_unique(class_sizes: object) -> float:
    r"""Share of people alone in their class: (1/n) Σ_i [s_i = 1], from per-person sizes s_i
    (as returned by `class_size_per_person`)."""
    sizes = _check_sizes(class_sizes)
    return float(np.count_nonzero(sizes == 1) / sizes.size)


def k_anonymity(class_sizes: object) -> int:
    r"""The k for which the data are k-anonymous: k = min_i s_i (1 means someone is unique)."""
    return int(_check_sizes(class_sizes).min())


def people_by_class_size(
    class_sizes: object, edges: tuple[int, ...] = DEFAULT_CLASS_SIZE_EDGES
) -> np.ndarray:
    r"""How many people have a class size in each bucket [e_j, e_{j+1}), the last one
    [e_last, ∞): c_j = |{i : e_j <= s_i < e_{j+1}}|. The counts sum to n.

    `edges` are strictly increasing whole numbers starting at 1 (default: 1, 2, 3–5,
    6–10, 11–50, 51+)."""
    sizes = _check_sizes(class_sizes)
    edge_list = [check_integer("edges", e, low=1) for e in edges]
    if not edge_list or edge_list[0] != 1:
        raise ValueError("edges must start at 1 so that every class size falls in a bucket")
    if any(b <= a for a, b in zip(edge_list, edge_list[1:], strict=False)):
        raise ValueError(f"edges must be strictly increasing, got {tuple(edge_list)}")
    bins = np.searchsorted(np.asarray(edge_list), sizes, side="right") - 1
    return np.bincount(bins, minlength=len(edge_list)).astype(np.int64)


def differencing_success_probability(epsilon: float, sensitivity: float = 1.0) -> float:
    r"""Exact chance that the differencing attack guesses X's bit right when each of the two
    counts gets its own Lap(b) noise, b = Δ/ε, and the rule is "guess 1 iff the difference
    of the noisy answers exceeds ½":

    P[success] = P[L₁ - L₂ > -½] = F(½) = 1 - (2 + ε/2) e^(-ε/2) / 4      (Δ = 1)

    (the same for x = 1 and x = 0 by symmetry). It rises from ½ (a coin toss) as ε → 0 to
    1 as ε → ∞. The attacker spends 2ε in total (sequential composition)."""
    b = laplace_scale(sensitivity, epsilon)
    return float(laplace_difference_cdf(0.5, scale=b))


def differencing_attack_successes(
    count_all: int,
    count_without: int,
    epsilon: float,
    *,
    tries: int,
    rng=None,
) -> int:
    r"""Run the differencing attack `tries` times and count the right guesses.

    Each try answers both counts with fresh noise from `laplace_mechanism` (Δ = 1, ε each)
    and guesses x̂ = [ (count_all + L₁) - (count_without + L₂) > ½ ]; the truth is
    x = count_all - count_without, which must be 0 or 1. E[successes] = tries · P[success]."""
    count_all = check_integer("count_all", count_all, low=0)
    count_without = check_integer("count_without", count_without, low=0)
    truth = count_all - count_without
    if truth not in (0, 1):
        raise ValueError(
            "count_all - count_without must be 0 or 1 (the two counts differ by one person), "
            f"got {truth}"
        )
    epsilon = check_epsilon(epsilon)
    tries = check_size(tries, "tries")
    generator = as_rng(rng)
    answers_all = laplace_mechanism(count_all, 1.0, epsilon, size=tries, rng=generator)
    answers_without = laplace_mechanism(count_without, 1.0, epsilon, size=tries, rng=generator)
    guesses = (answers_all - answers_without) > 0.5
    return int(np.count_nonzero(guesses == bool(truth)))


# --- Tracing from published means (Homer et al. 2008; Dwork, Smith, Steinke, Ullman & Vadhan 2015)


def tracing_score(targets, released_means, reference_means):
    r"""The tracing attack's score of each target against a release of d attribute means:

        score(t) = Σ_j (t_j − r_j)(m_j − r_j)

    t the target's attributes, m the released means, r the same means over a reference
    sample of non-members (Homer et al. 2008, in the inner-product form of Dwork, Smith,
    Steinke, Ullman & Vadhan 2015). A member pulls m toward themselves, so members score
    higher. `targets` 1-D (one person) gives a float; 2-D (one row per person) an array."""
    t = check_real_array("targets", targets, allow_inf=False)
    m = check_real_array("released_means", released_means, allow_inf=False)
    r = check_real_array("reference_means", reference_means, allow_inf=False)
    if m.ndim != 1 or m.size == 0:
        raise ValueError(f"released_means must be a non-empty 1-D array, got shape {m.shape}")
    if r.shape != m.shape:
        raise ValueError(
            f"reference_means must have the shape of released_means {m.shape}, got {r.shape}"
        )
    if t.ndim not in (1, 2) or t.shape[-1] != m.size:
        raise ValueError(
            f"targets must be 1-D or 2-D with {m.size} attributes per row, got shape {t.shape}"
        )
    for name, values in (("targets", t), ("released_means", m), ("reference_means", r)):
        check_magnitude(name, values, 1e100)  # a score multiplies and sums them
    scores = (t - r) @ (m - r)
    return float(scores) if t.ndim == 1 else scores


def _class_and_sensitive(class_codes: object, sensitive_codes: object):
    classes, sensitive = check_id_columns(
        "class_codes", class_codes, "sensitive_codes", sensitive_codes
    )
    table = np.zeros((int(classes.max()) + 1, int(sensitive.max()) + 1), dtype=np.int64)
    np.add.at(table, (classes, sensitive), 1)
    return table  # people per (class, sensitive value)


def l_diversity(class_codes: object, sensitive_codes: object) -> int:
    r"""The l of l-diversity (distinct values): the fewest distinct sensitive values in any
    equivalence class (Machanavajjhala et al. 2007). 1 means some class reveals its value.
    `class_codes`: one class per person (e.g. `equivalence_classes(codes)[0]`);
    `sensitive_codes`: one value per person, the same length."""
    table = _class_and_sensitive(class_codes, sensitive_codes)
    return int(np.min(np.count_nonzero(table, axis=1)))


def class_distances(class_codes: object, sensitive_codes: object) -> np.ndarray:
    r"""Each class's distance from the whole table: ½·Σ|p_class − p_all| over the sensitive
    values (the earth mover's distance with equal ground distance; Li, Li &
    Venkatasubramanian 2007), one per distinct class, in the sorted order of the codes."""
    table = _class_and_sensitive(class_codes, sensitive_codes).astype(float)
    overall = table.sum(axis=0) / table.sum()
    within = table / table.sum(axis=1, keepdims=True)
    return 0.5 * np.abs(within - overall).sum(axis=1)


def t_closeness(class_codes: object, sensitive_codes: object) -> float:
    r"""The t of t-closeness: the largest distance between a class's distribution of the
    sensitive value and the whole table's (`class_distances`). 0: every class looks like
    the table; near 1: some class is nothing like it."""
    return float(np.max(class_distances(class_codes, sensitive_codes)))
