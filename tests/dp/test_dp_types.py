"""Returned types and shapes, array-like inputs, and the rng convention (None, int, Generator)."""

import numpy as np
import pytest

import dp

# --- every random function, called with a given rng -------------------------------------------

RANDOM_CALLS = {
    "laplace_mechanism": lambda rng: dp.laplace_mechanism(5.0, 1.0, 0.5, size=50, rng=rng),
    "randomized_response": lambda rng: dp.randomized_response([0, 1] * 25, 0.75, 0.75, rng=rng),
    "sample_rr_counts": lambda rng: dp.sample_rr_counts(30, 100, 0.75, 0.75, size=20, rng=rng),
    "grr_perturb": lambda rng: dp.grr_perturb([0, 1, 2, 3] * 10, 4, 1.0, rng=rng),
    "sample_grr_counts": lambda rng: dp.sample_grr_counts([10, 20, 30], 1.0, size=20, rng=rng),
    "ue_perturb": lambda rng: dp.ue_perturb(dp.ue_encode([0, 1, 2] * 10, 3), 0.5, 0.25, rng=rng),
    "sample_ue_counts": lambda rng: dp.sample_ue_counts([10, 20, 30], 0.5, 0.25, size=20, rng=rng),
}


@pytest.mark.parametrize("name", sorted(RANDOM_CALLS))
def test_same_int_seed_gives_the_same_output(name):
    call = RANDOM_CALLS[name]
    np.testing.assert_array_equal(call(12345), call(12345))


@pytest.mark.parametrize("name", sorted(RANDOM_CALLS))
def test_same_seeded_generator_gives_the_same_output(name):
    call = RANDOM_CALLS[name]
    first = call(np.random.default_rng(7))
    second = call(np.random.default_rng(7))
    np.testing.assert_array_equal(first, second)


@pytest.mark.parametrize("name", sorted(RANDOM_CALLS))
def test_a_generator_is_used_and_advanced(name):
    # two calls on one Generator give different draws (collision chance is negligible
    # for these sizes: every output has >= 20 independent random components)
    call = RANDOM_CALLS[name]
    rng = np.random.default_rng(8)
    assert not np.array_equal(call(rng), call(rng))


@pytest.mark.parametrize("name", sorted(RANDOM_CALLS))
def test_rng_none_works(name):
    out = np.asarray(RANDOM_CALLS[name](None))
    assert out.size > 0


@pytest.mark.parametrize("name", sorted(RANDOM_CALLS))
def test_different_seeds_give_different_outputs(name):
    call = RANDOM_CALLS[name]
    assert not np.array_equal(call(1), call(2))


# --- Laplace ------------------------------------------------------------------------------------


def test_laplace_mechanism_without_size_returns_a_float():
    out = dp.laplace_mechanism(5.0, 1.0, 1.0, rng=0)
    assert isinstance(out, float)


def test_laplace_mechanism_with_size_returns_an_array_of_that_size():
    out = dp.laplace_mechanism(5.0, 1.0, 1.0, size=7, rng=0)
    assert isinstance(out, np.ndarray)
    assert out.shape == (7,)
    assert np.issubdtype(out.dtype, np.floating)


@pytest.mark.parametrize(
    "function",
    [
        lambda: dp.laplace_scale(1, 2),
        lambda: dp.laplace_variance(1, 2),
        lambda: dp.laplace_interval_probability(-1, 1, loc=0, scale=1),
        lambda: dp.sequential_composition([1, 2]),
        lambda: dp.parallel_composition([1, 2]),
        lambda: dp.group_privacy(1, 3),
        lambda: dp.rr_epsilon(0.75, 0.75),
        lambda: dp.rr_keep_probability(1),
        lambda: dp.estimate_proportion([0, 1], 0.75, 0.75),
        lambda: dp.estimate_count([0, 1], 0.75, 0.75),
        lambda: dp.rr_variance(0.5, 10, 0.75, 0.75),
        lambda: dp.grr_variance(10, 1, 3),
        lambda: dp.ue_epsilon(0.75, 0.25),
        lambda: dp.ue_variance(10, 0.5, 0.25),
        lambda: dp.audit_epsilon([0, 1], [0, 1]),
    ],
)
def test_scalar_functions_return_floats_given_ints(function):
    assert isinstance(function(), float)


@pytest.mark.parametrize(
    "function",
    [
        lambda: dp.coin_flip_probabilities(),
        lambda: dp.grr_probabilities(1, 3),
        lambda: dp.sue_probabilities(1),
        lambda: dp.oue_probabilities(1),
    ],
)
def test_probability_pairs_are_two_floats(function):
    p, q = function()
    assert isinstance(p, float)
    assert isinstance(q, float)


# --- binary RR ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "truth",
    [[0, 1, 1, 0], (0, 1, 1, 0), np.array([0, 1, 1, 0]), np.array([0, 1, 1, 0], dtype=np.int8)],
    ids=["list", "tuple", "int64", "int8"],
)
def test_randomized_response_accepts_array_likes_and_returns_ints(truth):
    out = dp.randomized_response(truth, 0.75, 0.75, rng=0)
    assert isinstance(out, np.ndarray)
    assert out.shape == (4,)
    assert np.issubdtype(out.dtype, np.integer)
    assert set(np.unique(out)) <= {0, 1}


def test_randomized_response_with_keep_probability_one_is_the_identity():
    truth = np.array([0, 1, 1, 0, 1])
    np.testing.assert_array_equal(dp.randomized_response(truth, 1.0, 1.0, rng=0), truth)


def test_randomized_response_with_keep_probability_zero_always_lies():
    truth = np.array([0, 1, 1, 0, 1])
    np.testing.assert_array_equal(dp.randomized_response(truth, 0.0, 0.0, rng=0), 1 - truth)


def test_estimators_accept_lists_and_arrays_alike():
    responses = [1, 0, 1, 1, 0, 1]
    assert dp.estimate_proportion(responses, 0.7, 0.6) == pytest.approx(
        dp.estimate_proportion(np.array(responses), 0.7, 0.6), rel=1e-12
    )


def test_sample_rr_counts_without_size_is_an_int():
    out = dp.sample_rr_counts(3, 10, 0.75, 0.75, rng=0)
    assert isinstance(out, int | np.integer)
    assert 0 <= out <= 10


def test_sample_rr_counts_with_size_is_an_int_array():
    out = dp.sample_rr_counts(3, 10, 0.75, 0.75, size=6, rng=0)
    assert isinstance(out, np.ndarray)
    assert out.shape == (6,)
    assert np.issubdtype(out.dtype, np.integer)
    assert np.all((out >= 0) & (out <= 10))


# --- k-ary RR -----------------------------------------------------------------------------------


@pytest.mark.parametrize("values", [[0, 3, 2, 1, 3], np.array([0, 3, 2, 1, 3], dtype=np.int32)])
def test_grr_perturb_returns_ints_in_the_domain(values):
    out = dp.grr_perturb(values, 4, 1.0, rng=0)
    assert isinstance(out, np.ndarray)
    assert out.shape == (5,)
    assert np.issubdtype(out.dtype, np.integer)
    assert np.all((out >= 0) & (out < 4))


def test_grr_estimate_returns_k_floats():
    out = dp.grr_estimate([0, 1, 1, 2], 5, 1.0)
    assert isinstance(out, np.ndarray)
    assert out.shape == (5,)
    assert np.issubdtype(out.dtype, np.floating)


def test_grr_estimate_sums_to_n():
    # sum_v (C_v - n q)/(p - q) = (n - k n q)/(p - q) = n (1 - kq)/(p - q) = n since p + (k-1)q = 1
    out = dp.grr_estimate(np.array([0, 1, 1, 2, 4, 4, 4]), 5, 0.7)
    assert out.sum() == pytest.approx(7, rel=1e-9)


def test_sample_grr_counts_shapes():
    one = dp.sample_grr_counts([10, 20, 30], 1.0, rng=0)
    many = dp.sample_grr_counts(np.array([10, 20, 30]), 1.0, size=4, rng=0)
    assert np.asarray(one).shape == (3,)
    assert np.asarray(many).shape == (4, 3)
    assert np.issubdtype(np.asarray(one).dtype, np.integer)
    assert np.issubdtype(np.asarray(many).dtype, np.integer)
    assert np.asarray(one).sum() == 60


# --- unary encoding -----------------------------------------------------------------------------


@pytest.mark.parametrize("values", [[2, 0, 1], np.array([2, 0, 1]), (2, 0, 1)])
def test_ue_encode_returns_a_bool_matrix(values):
    out = dp.ue_encode(values, 4)
    assert isinstance(out, np.ndarray)
    assert out.dtype == np.bool_
    assert out.shape == (3, 4)
    np.testing.assert_array_equal(out.sum(axis=1), [1, 1, 1])


def test_ue_perturb_returns_bools_of_the_same_shape():
    bits = dp.ue_encode([0, 1, 2, 3, 0], 4)
    out = dp.ue_perturb(bits, 0.5, 0.25, rng=0)
    assert isinstance(out, np.ndarray)
    assert out.dtype == np.bool_
    assert out.shape == (5, 4)


def test_ue_perturb_accepts_int_bits():
    out = dp.ue_perturb([[1, 0, 0], [0, 0, 1]], 1.0, 0.0, rng=0)
    np.testing.assert_array_equal(out, np.array([[1, 0, 0], [0, 0, 1]], dtype=bool))


def test_ue_aggregate_returns_k_floats_from_bools_or_ints():
    bits = [[1, 0, 0], [0, 1, 1], [1, 1, 0]]
    as_ints = dp.ue_aggregate(bits, 0.75, 0.25)
    as_bools = dp.ue_aggregate(np.array(bits, dtype=bool), 0.75, 0.25)
    assert isinstance(as_ints, np.ndarray)
    assert as_ints.shape == (3,)
    assert np.issubdtype(as_ints.dtype, np.floating)
    np.testing.assert_allclose(as_ints, as_bools)


def test_sample_ue_counts_shapes():
    one = dp.sample_ue_counts([10, 20, 30], 0.5, 0.25, rng=0)
    many = dp.sample_ue_counts([10, 20, 30], 0.5, 0.25, size=4, rng=0)
    assert np.asarray(one).shape == (3,)
    assert np.asarray(many).shape == (4, 3)
    assert np.issubdtype(np.asarray(many).dtype, np.integer)
    assert np.all((np.asarray(many) >= 0) & (np.asarray(many) <= 60))


# --- post-processing ----------------------------------------------------------------------------


@pytest.mark.parametrize("estimates", [[3.0, -1.0, 2.0], np.array([3, -1, 2]), (3.0, -1.0, 2.0)])
def test_project_counts_returns_floats_of_the_same_length(estimates):
    out = dp.project_counts(estimates, 4)
    assert isinstance(out, np.ndarray)
    assert out.shape == (3,)
    assert np.issubdtype(out.dtype, np.floating)


def test_project_counts_does_not_modify_its_input():
    estimates = np.array([3.0, -1.0, 2.0])
    dp.project_counts(estimates, 4)
    np.testing.assert_array_equal(estimates, [3.0, -1.0, 2.0])


def test_randomized_response_accepts_booleans_as_zero_one():
    # A yes/no condition such as `df.Occupation == "Sales"` is a boolean array; with
    # p = q = 1 the reports are the truth itself, as 0/1 ints.
    truth = np.array([True, False, True])
    reports = dp.randomized_response(truth, p=1.0, q=1.0, rng=0)
    assert reports.tolist() == [1, 0, 1]
    assert dp.randomized_response(True, p=1.0, q=1.0, rng=0).tolist() == [1]
