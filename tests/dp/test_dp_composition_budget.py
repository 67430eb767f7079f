"""dp/composition.py: PrivacyBudget, sequential composition as bookkeeping (spent, remaining,
request)."""

import math

import pytest

import dp
from dp.composition import BudgetExceeded


def test_requests_add_up_and_an_overspend_is_refused_whole():
    budget = dp.PrivacyBudget(1.0)
    assert budget.request(0.5) == 0.5
    assert budget.remaining == 0.5
    with pytest.raises(BudgetExceeded, match="0.5 of the budget of 1 is left"):
        budget.request(0.75)
    assert budget.spent == 0.5  # the refused request spent nothing
    assert budget.request(0.5) == 1.0
    assert budget.remaining == 0.0
    assert not budget.allows(1e-6)


def test_tenths_add_up_to_the_budget_despite_round_off():
    budget = dp.PrivacyBudget(0.3)
    for _ in range(3):
        budget.request(0.1)  # 0.1 + 0.1 + 0.1 = 0.30000000000000004
    assert not budget.allows(0.1)


def test_no_budget_grants_everything():
    budget = dp.PrivacyBudget(None)
    assert budget.request(1e6) == 1e6
    assert math.isinf(budget.remaining)


def test_a_spend_already_over_the_total_is_refused():
    with pytest.raises(ValueError, match="spent"):
        dp.PrivacyBudget(1.0, spent=1.5)
    assert dp.BudgetExceeded is BudgetExceeded and issubclass(BudgetExceeded, ValueError)
