"""dp/attacks.py: equivalence classes, uniqueness, and the differencing attack's exact success
rate (derivations in the comments), checked against Monte Carlo within 6 standard errors."""

import math

import numpy as np
import pytest

import dp
from dp.attacks import DEFAULT_CLASS_SIZE_EDGES


def close(expected):
    return pytest.approx(expected, rel=1e-9, abs=1e-12)


# --- equivalence classes --------------------------------------------------------------------

ROWS = np.array(
    [
        [0, 0],  # class A (3 people)
        [0, 1],  # class B (2 people)
        [1, 0],  # unique
        [0, 0],
        [0, 1],
        [0, 0],
        [2, 2],  # unique
    ]
)


def test_class_size_per_person_counts_identical_rows():
    assert dp.class_size_per_person(ROWS).tolist() == [3, 2, 1, 3, 2, 3, 1]


def test_equivalence_classes_sizes_sum_to_n_and_map_back():
    inverse, counts = dp.equivalence_classes(ROWS)
    assert sorted(counts.tolist()) == [1, 1, 2, 3]
    assert counts.sum() == len(ROWS)
    # people with equal rows share a class, people with different rows do not
    for i in range(len(ROWS)):
        for j in range(len(ROWS)):
            assert (inverse[i] == inverse[j]) == bool(np.all(ROWS[i] == ROWS[j]))


def test_one_dimensional_codes_are_one_column():
    assert dp.class_size_per_person([5, 5, 7]).tolist() == [2, 2, 1]


def test_no_columns_puts_everyone_in_one_class():
    assert dp.class_size_per_person(np.empty((4, 0), dtype=int)).tolist() == [4, 4, 4, 4]


def test_negative_codes_are_categories_too():
    # pandas codes missing values as -1: it is one more category
    assert dp.class_size_per_person([[-1, 0], [-1, 0], [3, 0]]).tolist() == [2, 2, 1]


def test_share_unique_and_k_anonymity_at_hand_counted_points():
    sizes = dp.class_size_per_person(ROWS)
    assert dp.share_unique(sizes) == close(2 / 7)  # two of seven people are alone
    assert dp.k_anonymity(sizes) == 1
    assert dp.k_anonymity([3, 3, 3, 2, 2]) == 2
    assert dp.share_unique([3, 3, 3]) == 0.0


def test_adding_a_column_never_lowers_uniqueness():
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 4, size=(500, 3))
    shares = [dp.share_unique(dp.class_size_per_person(codes[:, :m])) for m in (1, 2, 3)]
    assert shares == sorted(shares)


def test_people_by_class_size_uses_the_default_buckets():
    # sizes: 1,1 | 2,2 | 3,5 | 6,10 | 11,50 | 51,1000
    sizes = [1, 1, 2, 2, 3, 5, 6, 10, 11, 50, 51, 1000]
    assert DEFAULT_CLASS_SIZE_EDGES == (1, 2, 3, 6, 11, 51)
    assert dp.people_by_class_size(sizes).tolist() == [2, 2, 2, 2, 2, 2]


def test_people_by_class_size_counts_sum_to_n_on_random_data():
    codes = np.random.default_rng(4).integers(0, 30, size=(2_000, 2))
    sizes = dp.class_size_per_person(codes)
    buckets = dp.people_by_class_size(sizes)
    assert buckets.sum() == 2_000
    assert buckets[0] == np.count_nonzero(sizes == 1)


# --- the CDF of the difference of two Laplace noises -----------------------------------------


@pytest.mark.parametrize(
    ("t", "scale", "expected"),
    [
        (0.0, 1.0, 0.5),  # symmetric around 0
        (1.0, 1.0, 1 - 3 * math.exp(-1) / 4),  # s = 1: 1 - (2 + 1) e^-1 / 4
        (-1.0, 1.0, 3 * math.exp(-1) / 4),  # mirror image
        (2.0, 0.5, 1 - 6 * math.exp(-4) / 4),  # s = 2/0.5 = 4: 1 - (2 + 4) e^-4 / 4
        (math.inf, 1.0, 1.0),
        (-math.inf, 1.0, 0.0),
    ],
)
def test_laplace_difference_cdf_at_hand_derived_points(t, scale, expected):
    assert dp.laplace_difference_cdf(t, scale=scale) == close(expected)


def test_laplace_difference_pdf_at_zero_and_integrates_to_the_cdf():
    # f(0) = (1/4b)(1 + 0) = 1/(4b)
    assert dp.laplace_difference_pdf(0.0, scale=2.0) == close(1 / 8)
    grid = np.linspace(-40, 1.5, 400_001)
    density = dp.laplace_difference_pdf(grid, scale=1.5)
    integral = np.sum((density[1:] + density[:-1]) / 2 * np.diff(grid))  # trapezoid rule
    assert integral == pytest.approx(dp.laplace_difference_cdf(1.5, scale=1.5), abs=1e-6)


@pytest.mark.parametrize("scale", [0.3, 1.0, 7.0])
def test_laplace_difference_cdf_matches_monte_carlo(scale):
    rng = np.random.default_rng(11)
    reps = 200_000
    diffs = rng.laplace(0, scale, reps) - rng.laplace(0, scale, reps)
    for t in (-2 * scale, -0.5, 0.0, 0.5, scale, 3 * scale):
        p = dp.laplace_difference_cdf(t, scale=scale)
        se = math.sqrt(p * (1 - p) / reps)  # binomial SE of an empirical CDF value
        assert abs(np.mean(diffs <= t) - p) <= 6 * se + 1e-12, (scale, t)


# --- the differencing attack ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("epsilon", "expected"),
    [
        (2.0, 1 - 3 * math.exp(-1) / 4),  # b = 1/2, s = (1/2)/b = 1: 1 - 3/(4e) = 0.7241
        (2 * math.log(2), 1 - (2 + math.log(2)) / 8),  # s = ln 2: e^-s = 1/2
        (1.0, 1 - 2.5 * math.exp(-0.5) / 4),  # s = 1/2
    ],
)
def test_differencing_success_at_hand_derived_points(epsilon, expected):
    assert dp.differencing_success_probability(epsilon) == close(expected)


def test_differencing_success_scales_with_sensitivity():
    # b = Δ/ε, so (ε = 2, Δ = 2) has the same noise as ε = 1, Δ = 1
    assert dp.differencing_success_probability(2.0, 2.0) == close(
        dp.differencing_success_probability(1.0)
    )


def test_differencing_success_tends_to_a_coin_toss_and_to_certainty():
    assert dp.differencing_success_probability(1e-6) == pytest.approx(0.5, abs=1e-6)
    assert dp.differencing_success_probability(60.0) == pytest.approx(1.0, abs=1e-10)
    grid = np.geomspace(0.01, 30, 60)
    values = [dp.differencing_success_probability(e) for e in grid]
    assert all(0.5 < v < 1 for v in values)
    assert np.all(np.diff(values) > 0)  # more ε, better attack


@pytest.mark.parametrize(("count_all", "count_without"), [(7_841, 7_840), (7_841, 7_841)])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_simulated_attack_matches_the_exact_rate(count_all, count_without, epsilon):
    tries = 100_000
    p = dp.differencing_success_probability(epsilon)
    successes = dp.differencing_attack_successes(
        count_all, count_without, epsilon, tries=tries, rng=5
    )
    se = dp.proportion_standard_error(p, tries)
    assert abs(successes / tries - p) <= 6 * se


def test_simulated_attack_is_deterministic_given_a_seed():
    first = dp.differencing_attack_successes(10, 9, 1.0, tries=1_000, rng=42)
    assert first == dp.differencing_attack_successes(10, 9, 1.0, tries=1_000, rng=42)


def test_proportion_standard_error_at_a_hand_point():
    assert dp.proportion_standard_error(0.5, 100) == close(0.05)  # sqrt(0.25/100)
    assert dp.proportion_standard_error(1.0, 10) == 0.0


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "error", "word"),
    [
        (np.empty((0, 2), dtype=int), ValueError, "codes"),
        (np.zeros((2, 2, 2), dtype=int), ValueError, "codes"),
        ([[0.5, 1.0]], ValueError, "codes"),
        ([[np.nan, 1.0]], ValueError, "codes"),
        (["a", "b"], TypeError, "codes"),
    ],
)
def test_bad_codes_are_refused(codes, error, word):
    with pytest.raises(error, match=word):
        dp.class_size_per_person(codes)


@pytest.mark.parametrize("sizes", [[], [0, 1], [1.5], [np.nan], [[1, 2]]])
def test_bad_class_sizes_are_refused(sizes):
    with pytest.raises(ValueError, match="class_sizes"):
        dp.share_unique(sizes)


@pytest.mark.parametrize("edges", [(2, 3), (1, 1, 2), (1, 3, 2), ()])
def test_bad_edges_are_refused(edges):
    with pytest.raises(ValueError, match="edges"):
        dp.people_by_class_size([1, 2], edges)


@pytest.mark.parametrize(
    ("kwargs", "error", "word"),
    [
        ({"epsilon": 0.0}, ValueError, "epsilon"),
        ({"epsilon": -1.0}, ValueError, "epsilon"),
        ({"epsilon": math.inf}, ValueError, "epsilon"),
        ({"epsilon": "1"}, TypeError, "epsilon"),
        ({"epsilon": True}, TypeError, "epsilon"),
        ({"epsilon": 1.0, "sensitivity": 0.0}, ValueError, "sensitivity"),
    ],
)
def test_bad_success_probability_inputs(kwargs, error, word):
    with pytest.raises(error, match=word):
        dp.differencing_success_probability(**kwargs)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "word"),
    [
        ((10, 8, 1.0), {"tries": 10}, ValueError, "count_all - count_without"),
        ((10, 11, 1.0), {"tries": 10}, ValueError, "count_all - count_without"),
        ((-1, -1, 1.0), {"tries": 10}, ValueError, "count_all"),
        ((10, 9, 0.0), {"tries": 10}, ValueError, "epsilon"),
        ((10, 9, 1.0), {"tries": 0}, ValueError, "tries"),
        ((10, 9, 1.0), {"tries": 10, "rng": "x"}, TypeError, "rng"),
    ],
)
def test_bad_attack_inputs(args, kwargs, error, word):
    with pytest.raises(error, match=word):
        dp.differencing_attack_successes(*args, **kwargs)


@pytest.mark.parametrize(
    ("func", "kwargs", "error", "word"),
    [
        (dp.laplace_difference_cdf, {"t": 0.0, "scale": 0.0}, ValueError, "scale"),
        (dp.laplace_difference_cdf, {"t": np.nan, "scale": 1.0}, ValueError, "t"),
        (dp.laplace_difference_pdf, {"z": "a", "scale": 1.0}, TypeError, "z"),
        (dp.proportion_standard_error, {"proportion": 1.5, "tries": 10}, ValueError, "proportion"),
        (dp.proportion_standard_error, {"proportion": 0.5, "tries": 0}, ValueError, "tries"),
    ],
)
def test_bad_cdf_and_standard_error_inputs(func, kwargs, error, word):
    with pytest.raises(error, match=word):
        func(**kwargs)


def test_huge_code_ranges_take_the_row_wise_path_with_the_same_answer():
    # spans of 2^40 per column overflow the mixed-radix key, so np.unique(axis=0) is used
    big = np.array([[0, 0], [2**40, 5], [0, 0], [2**40, 5], [1, 2**40]], dtype=np.int64)
    assert dp.class_size_per_person(big).tolist() == [2, 2, 2, 2, 1]


def test_fast_and_row_wise_paths_agree_on_random_codes():
    codes = np.random.default_rng(8).integers(0, 6, size=(3_000, 4))
    shifted = codes.copy()
    shifted[0, 0] = 2**62  # forces the row-wise path; row 0 becomes unique
    fast = dp.class_size_per_person(codes)
    slow = dp.class_size_per_person(shifted)
    assert slow[0] == 1
    same_class_as_0 = np.all(codes == codes[0], axis=1)
    expected = fast - same_class_as_0  # everyone who shared row 0's class lost one member
    expected[0] = 1
    assert slow.tolist() == expected.tolist()


# --- l-diversity and t-closeness ----------------------------------------------------------------


def test_l_diversity_counts_the_fewest_distinct_values_in_a_class() -> None:
    # class 0: flu, flu, cancer (2 values); class 1: flu, flu (1 value: homogeneous)
    classes = [0, 0, 0, 1, 1]
    sensitive = ["flu", "flu", "cancer", "flu", "flu"]
    assert dp.l_diversity(classes, sensitive) == 1
    assert dp.l_diversity(classes[:3], sensitive[:3]) == 2
    # from equivalence_classes' codes, and with integer values
    codes, _ = dp.equivalence_classes([[1, 2], [1, 2], [3, 4], [3, 4]])
    assert dp.l_diversity(codes, [5, 6, 7, 8]) == 2


def test_t_closeness_is_the_largest_total_variation_from_the_table() -> None:
    # table: 3 of 4 flu; class 0 = {flu, flu}: ½(|1 − ¾| + |0 − ¼|) = ¼; class 1 = {flu,
    # cancer}: ½(|½ − ¾| + |½ − ¼|) = ¼
    assert dp.t_closeness([0, 0, 1, 1], ["flu", "flu", "flu", "cancer"]) == pytest.approx(0.25)
    # every class like the table: 0; one class all of a value the table rarely has: near 1
    assert dp.t_closeness([0, 0, 1, 1], ["a", "b", "a", "b"]) == pytest.approx(0.0)
    rare = [0] * 2 + [1] * 98
    values = ["rare"] * 2 + ["common"] * 98
    assert dp.t_closeness(rare, values) == pytest.approx(0.98)


def test_class_distances_are_each_classs_total_variation_and_t_their_largest() -> None:
    rng = np.random.default_rng(7)
    classes = rng.choice(["x", "y", "z"], size=60)
    values = rng.integers(0, 3, size=60)
    overall = np.bincount(values, minlength=3) / 60
    want = [
        0.5
        * np.abs(
            np.bincount(values[classes == c], minlength=3) / np.sum(classes == c) - overall
        ).sum()
        for c in ("x", "y", "z")  # the codes' sorted order
    ]
    found = dp.class_distances(classes, values)
    np.testing.assert_allclose(found, want, rtol=1e-12)
    assert dp.t_closeness(classes, values) == pytest.approx(max(want))


def test_l_and_t_refuse_tables_of_two_lengths() -> None:
    with pytest.raises(ValueError, match="same length"):
        dp.l_diversity([0, 1], [1])
    with pytest.raises(ValueError, match="same length"):
        dp.t_closeness([0, 1], [1, 2, 3])
