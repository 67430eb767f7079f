r"""Composition: what several DP releases cost together (Dwork & Roth 2014, §3.5, §2.3).

- Sequential: queries on the same data add up, ε = Σ εᵢ.
- Parallel: queries on disjoint parts of the data cost the largest, ε = max εᵢ.
- Group privacy: an ε-DP mechanism protects a group of g people with g·ε; an (ε, δ)-DP one
  with (g·ε, δ·Σ_{j<g} e^{jε}).
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    MAX_EXP_EPSILON,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_real,
    exact_sum,
)


def _check_epsilons(epsilons) -> np.ndarray:
    if isinstance(epsilons, str):
        raise TypeError("epsilons must be a list of numbers, got a string")
    if isinstance(epsilons, list | tuple):  # a short list: check each entry's type
        for entry in epsilons:
            check_epsilon(entry, "epsilons entry")
    arr = np.atleast_1d(check_finite_array("epsilons", epsilons))
    if arr.ndim != 1:
        raise ValueError(f"epsilons must be a flat list, got shape {arr.shape}")
    if np.any(arr <= 0):
        raise ValueError("every entry of epsilons must be finite and > 0")
    return arr


def sequential_composition(epsilons) -> float:
    r"""Total privacy loss of releases on the same data: ε = Σᵢ εᵢ, correctly rounded
    (`exact_sum`): shares that add up to 1 on paper, 0.1 + 0.1 + 0.5 + 0.2 + 0.1, spend
    exactly 1, not the 1 − 1.1·10⁻¹⁶ of a float sum (What ε means, "your split spends")."""
    return exact_sum("epsilons", _check_epsilons(epsilons))


def parallel_composition(epsilons) -> float:
    r"""Total privacy loss of releases on disjoint subsets: ε = maxᵢ εᵢ."""
    return float(np.max(_check_epsilons(epsilons)))


def group_privacy(epsilon: float, group_size: int) -> float:
    r"""Protection for a group of g people changed together: g·ε."""
    epsilon = check_epsilon(epsilon)
    group_size = check_integer("group_size", group_size, low=1)
    return group_size * epsilon


def _group_delta_factor(epsilon: float, group_size: int) -> float:
    r"""Σ_{j=0}^{g−1} e^{jε} = (e^{gε} − 1)/(e^ε − 1): what δ is multiplied by over g changes.
    The step from one neighbour to the next, P[M(D₀) ∈ S] ≤ e^ε·P[M(D₁) ∈ S] + δ, taken g
    times: each step's δ is multiplied by e^ε at every later step."""
    if group_size * epsilon > MAX_EXP_EPSILON:
        raise ValueError(
            f"group_size · epsilon must be <= {MAX_EXP_EPSILON:.2f} (e to that power would "
            f"overflow a float), got {group_size} · {epsilon:g}"
        )
    return math.expm1(group_size * epsilon) / math.expm1(epsilon)


def _check_group(epsilon, delta, group_size) -> tuple[float, float, int]:
    return (
        check_epsilon(epsilon),
        check_real("delta", delta, low=0.0, high=1.0, high_open=True),
        check_integer("group_size", group_size, low=1),
    )


def approx_group_privacy(epsilon: float, delta: float, group_size: int) -> tuple[float, float]:
    r"""An (ε, δ)-DP mechanism protects g people changed together with
    (g·ε, δ·Σ_{j=0}^{g−1} e^{jε}): the pure case's g·ε (Dwork & Roth 2014, Thm. 2.2), and a δ
    that grows along the chain of g neighbours (`_group_delta_factor`). One replaced row is a
    removal and an addition, g = 2: (2ε, (1 + e^ε)·δ). A δ of 1 or more promises nothing."""
    epsilon, delta, group_size = _check_group(epsilon, delta, group_size)
    return group_size * epsilon, delta * _group_delta_factor(epsilon, group_size)


def approx_group_privacy_per_change(
    epsilon: float, delta: float, group_size: int
) -> tuple[float, float]:
    r"""The (ε₁, δ₁) each single change must have for g changes together to be (ε, δ)-DP by
    `approx_group_privacy`: ε₁ = ε/g, δ₁ = δ / Σ_{j=0}^{g−1} e^{jε₁}. For a replaced row (g = 2)
    from an accountant of added or removed rows: (ε/2, δ/(1 + e^{ε/2}))."""
    epsilon, delta, group_size = _check_group(epsilon, delta, group_size)
    each = epsilon / group_size
    return each, delta / _group_delta_factor(each, group_size)


def split_budget(total_epsilon: float, queries: int) -> float:
    r"""ε per query when a total budget is split evenly over m queries: ε_total / m
    (sequential composition then adds the m shares back up to ε_total)."""
    total_epsilon = check_epsilon(total_epsilon, "total_epsilon")
    queries = check_integer("queries", queries, low=1)
    return total_epsilon / queries


def queries_within_budget(total_epsilon: float, epsilon_per_query: float) -> int:
    r"""How many queries at ε each fit in a budget: ⌊ε_total / ε⌋ (with a tolerance of
    1e-9 so that 0.3 / 0.1 counts as 3, not 2.999…)."""
    total_epsilon = check_epsilon(total_epsilon, "total_epsilon")
    epsilon_per_query = check_epsilon(epsilon_per_query, "epsilon_per_query")
    ratio = total_epsilon / epsilon_per_query
    if not math.isfinite(ratio):
        raise ValueError(
            f"total_epsilon / epsilon_per_query is too large to count "
            f"({total_epsilon:g} / {epsilon_per_query:g})"
        )
    return int(math.floor(ratio + 1e-9))


# Spending compared with a tolerance, so that 0.1 + 0.2 fits a budget of 0.3.
BUDGET_TOLERANCE = 1e-9


class BudgetExceeded(ValueError):
    """A request would spend more than what is left of a privacy budget."""


class PrivacyBudget:
    r"""A total ε, spent by sequential composition (Dwork & Roth 2014, Thm 3.16): after
    requests ε₁ … ε_m the spend is Σ εᵢ, and a request that would take it over the total is
    refused whole (nothing is spent). `total=None` is no budget: every request is granted.

    Pure bookkeeping, no storage: a caller that shares a budget between processes reads the
    spend and records a request in one atomic step (survey/heist.py does, under a row lock).
    """

    def __init__(self, total: float | None, spent: float = 0.0):
        self.total = None if total is None else check_epsilon(total, "total")
        spent = check_real("spent", spent, low=0.0)
        if self.total is not None and spent > self.total + BUDGET_TOLERANCE:
            raise ValueError(f"spent must be <= total ({self.total:g}), got {spent:g}")
        self.spent = spent

    @property
    def remaining(self) -> float:
        """What is left: total − spent (never below 0; inf without a budget)."""
        return math.inf if self.total is None else max(self.total - self.spent, 0.0)

    def allows(self, epsilon: float) -> bool:
        """Whether a request of ε fits what is left."""
        epsilon = check_epsilon(epsilon)
        return self.total is None or self.spent + epsilon <= self.total + BUDGET_TOLERANCE

    def request(self, epsilon: float) -> float:
        """Spend ε and return the new total spend; BudgetExceeded (nothing spent) when it
        does not fit."""
        if not self.allows(epsilon):
            raise BudgetExceeded(
                f"a request of ε = {epsilon:g} does not fit: {self.remaining:g} of the budget "
                f"of {self.total:g} is left"
            )
        self.spent += float(epsilon)
        return self.spent

    def __repr__(self) -> str:
        return f"PrivacyBudget(total={self.total!r}, spent={self.spent!r})"
