"""audit_epsilon: a sound lower bound that stays below the claim for correct mechanisms and
catches broken ones.

Each audit runs the mechanism on two neighbouring inputs (truth 1 vs 0; value a vs b; loc 0
vs 1) with fixed seeds. "Expected bound" comments give ln(CP_lower(P_D[E]) / CP_upper(P_D'[E]))
for the most revealing event E, with one-sided Clopper-Pearson bounds at level
alpha / (2 * number of events) (alpha = 1e-6), computed with scipy.stats.beta.ppf. For a
correct mechanism the bound exceeds the true epsilon with probability at most alpha, so the
"does not exceed" tests cannot flake; for the broken ones the margin is given below.
"""

import math

import numpy as np
import pytest

import dp

N = 200_000  # draws per neighbouring input (discrete mechanisms)
N_LAPLACE = 1_000_000  # draws per neighbouring input (Laplace)
THRESHOLDS = np.arange(-2.0, 3.5, 0.5)  # 11 thresholds, fixed before any sampling


# --- broken mechanisms (written here, with numpy) ---


def leaky_randomized_response(truth, rng):
    """Keeps the truth with probability 0.80 while claiming ln 3 (which needs 0.75)."""
    truth = np.asarray(truth)
    return np.where(rng.random(truth.shape) < 0.80, truth, 1 - truth).astype(int)


def leaky_oue(values, k, p, q, rng):
    """OUE that forgets to redraw the true bit when the keep-coin fails.

    All bits are drawn Bernoulli(q); then the true bit is set to 1 with probability p, else left
    as drawn. The true bit is therefore 1 with probability p + (1 - p) q, not p.
    """
    values = np.asarray(values)
    bits = rng.random((len(values), k)) < q
    keep = rng.random(len(values)) < p
    bits[np.arange(len(values)), values] |= keep
    return bits


def leaky_laplace(value, epsilon, size, rng):
    """Laplace with 0.9 of the scale its epsilon needs (real epsilon = eps / 0.9)."""
    return value + rng.laplace(0.0, 0.9 / epsilon, size)


# --- binary RR ----------------------------------------------------------------------------------


def test_audit_of_correct_randomized_response_stays_below_ln3():
    # expected bound ~ 1.073 (true epsilon ln 3 = 1.0986)
    yes = dp.randomized_response(np.ones(N, dtype=int), 0.75, 0.75, rng=1)
    no = dp.randomized_response(np.zeros(N, dtype=int), 0.75, 0.75, rng=2)
    bound = dp.audit_epsilon(yes, no)
    assert 0.9 < bound <= math.log(3)


def test_audit_catches_randomized_response_that_keeps_the_truth_too_often():
    # real epsilon ln(0.8 / 0.2) = ln 4 = 1.386; expected bound ~ 1.358 > ln 3 = 1.099
    rng = np.random.default_rng(3)
    yes = leaky_randomized_response(np.ones(N, dtype=int), rng)
    no = leaky_randomized_response(np.zeros(N, dtype=int), rng)
    assert dp.audit_epsilon(yes, no) > math.log(3)


# --- k-ary RR -----------------------------------------------------------------------------------


def test_audit_of_correct_kary_rr_stays_below_its_epsilon():
    # k = 4, eps = 1: p = e/(e+3), q = 1/(e+3); expected bound ~ 0.96
    a = dp.grr_perturb(np.zeros(N, dtype=int), 4, 1.0, rng=4)
    b = dp.grr_perturb(np.ones(N, dtype=int), 4, 1.0, rng=5)
    bound = dp.audit_epsilon(a, b)
    assert 0.8 < bound <= 1.0


# --- unary encoding (outputs are bit rows: each distinct row is an event) ---


def test_audit_of_correct_oue_stays_below_its_epsilon():
    # k = 3, eps = 1; row (1,0,0): p(1-q)^2 vs q(1-p)(1-q), ratio e; expected bound ~ 0.945
    p, q = dp.oue_probabilities(1.0)
    a = dp.ue_perturb(dp.ue_encode(np.zeros(N, dtype=int), 3), p, q, rng=6)
    b = dp.ue_perturb(dp.ue_encode(np.ones(N, dtype=int), 3), p, q, rng=7)
    bound = dp.audit_epsilon(a, b)
    assert 0.8 < bound <= 1.0


def test_audit_catches_oue_that_leaves_the_true_bit_at_its_q_draw():
    # q = 1/(e+1) = 0.269, true bit 1 w.p. p' = .5 + .5 q = 0.634;
    # row (1,0,0): p'(1-q)^2 = 0.339 vs q(1-p')(1-q) = 0.072 -> real epsilon
    # ln(p'(1-q) / (q(1-p'))) = 1.551; expected bound ~ 1.49 > claim 1
    p, q = dp.oue_probabilities(1.0)
    rng = np.random.default_rng(8)
    a = leaky_oue(np.zeros(N, dtype=int), 3, p, q, rng)
    b = leaky_oue(np.ones(N, dtype=int), 3, p, q, rng)
    assert dp.audit_epsilon(a, b) > 1.0


# --- Laplace (continuous: threshold events on a grid fixed in advance) ---


def test_audit_of_correct_laplace_stays_below_its_epsilon():
    # sensitivity 1, eps 1 (b = 1), loc 0 vs 1: every threshold ratio is <= e
    a = dp.laplace_mechanism(0.0, 1, 1.0, size=N_LAPLACE, rng=9)
    b = dp.laplace_mechanism(1.0, 1, 1.0, size=N_LAPLACE, rng=10)
    bound = dp.audit_epsilon(a, b, thresholds=THRESHOLDS)
    assert 0.8 < bound <= 1.0


def test_audit_catches_laplace_with_too_little_noise():
    # scale 0.9: real epsilon 1/0.9 = 1.111. Best event {y > 1}: P = 0.5 at loc 1 vs
    # 0.5 e^{-1/0.9} = 0.1646 at loc 0; 44 events; expected bound ~ 1.093 > claim 1
    rng = np.random.default_rng(11)
    a = leaky_laplace(0.0, 1.0, N_LAPLACE, rng)
    b = leaky_laplace(1.0, 1.0, N_LAPLACE, rng)
    assert dp.audit_epsilon(a, b, thresholds=THRESHOLDS) > 1.0


# --- general properties ---


def test_audit_concludes_nothing_from_a_few_identical_samples():
    outputs = [0, 1] * 5
    assert dp.audit_epsilon(outputs, outputs) == 0.0


def test_audit_of_identical_distributions_is_near_zero():
    # both samples from the same fair coin: every ratio is 1, the bound must be ~0
    rng = np.random.default_rng(12)
    a = rng.integers(0, 2, N)
    b = rng.integers(0, 2, N)
    assert 0.0 <= dp.audit_epsilon(a, b) < 0.05


def test_audit_bound_shrinks_as_alpha_shrinks():
    # a lower confidence bound at a stricter level (smaller alpha) cannot be larger
    yes = dp.randomized_response(np.ones(20_000, dtype=int), 0.75, 0.75, rng=13)
    no = dp.randomized_response(np.zeros(20_000, dtype=int), 0.75, 0.75, rng=14)
    loose = dp.audit_epsilon(yes, no, alpha=1e-2)
    strict = dp.audit_epsilon(yes, no, alpha=1e-9)
    assert 0.0 < strict <= loose <= math.log(3)


def test_audit_is_symmetric_in_the_two_samples():
    # both directions are bounded, so swapping D and D' gives the same bound
    yes = dp.randomized_response(np.ones(20_000, dtype=int), 0.8, 0.7, rng=15)
    no = dp.randomized_response(np.zeros(20_000, dtype=int), 0.8, 0.7, rng=16)
    assert dp.audit_epsilon(yes, no) == pytest.approx(dp.audit_epsilon(no, yes), rel=1e-9)


def test_audit_of_a_deterministic_mechanism_is_large():
    # outputs 1 always vs 0 always: disjoint supports; with 10^4 draws the CP upper bound on
    # an unseen event is 1 - (alpha/4)^(1/n) ~ 1.6e-3, so the bound is ~ ln(1/1.6e-3) ~ 6.4
    ones = np.ones(10_000, dtype=int)
    zeros = np.zeros(10_000, dtype=int)
    assert dp.audit_epsilon(ones, zeros) > 5.0
