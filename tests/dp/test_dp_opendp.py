"""Cross-check privacy parameters against OpenDP 0.16 (an independent reference, dev-only).

OpenDP conventions found by introspection (help(...) in the venv, OpenDP 0.16.0):
- `make_randomized_response_bool(prob)`: `prob` is the probability of returning the correct
  answer, in [0.5, 1]: a keep-probability p = q. `.map(1)` is its epsilon.
- `make_randomized_response(categories, prob)`: `prob` is again the probability of returning
  the *correct* category (in [1/k, 1]); a lie is uniform over the other k - 1 categories. So
  it is our generalized RR with p = prob and q = (1 - prob)/(k - 1), and .map(1) is
  ln(prob (k - 1) / (1 - prob)); OpenDP may round epsilon up by a few ulps (conservative).
- `make_laplace(atom_domain(T=float, nan=False), absolute_distance(T=float), scale=b)`:
  `.map(d_in)` = d_in / b, so for sensitivity 1 the epsilon is 1/b.
- `make_randomized_response_bitvec(bitvector_domain(max_weight=m), discrete_distance(), f)`:
  RAPPOR's flip probability f: each bit is replaced by a fair coin w.p. f, so p = 1 - f/2,
  q = f/2 (symmetric unary encoding); `.map(1)` = 2 m ln((2 - f)/f).
"""

import math

import pytest

import dp

odp = pytest.importorskip("opendp.prelude")
odp.enable_features("contrib")

# OpenDP rounds epsilons outward in floating point: allow a tiny relative slack
REL = 1e-9


@pytest.mark.parametrize("prob", [0.5, 0.6, 0.75, 0.881, 0.95, 0.999])
def test_binary_rr_epsilon_matches_opendp(prob):
    reference = odp.m.make_randomized_response_bool(prob).map(1)
    assert dp.rr_epsilon(prob, prob) == pytest.approx(reference, rel=REL, abs=1e-12)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 2.0, 4.0])
def test_rr_keep_probability_gives_opendp_the_same_epsilon(epsilon):
    prob = dp.rr_keep_probability(epsilon)
    assert odp.m.make_randomized_response_bool(prob).map(1) == pytest.approx(epsilon, rel=REL)


@pytest.mark.parametrize(("epsilon", "k"), [(0.5, 2), (1.0, 3), (1.0, 4), (2.0, 10), (3.0, 5)])
def test_kary_rr_keep_probability_gives_opendp_the_same_epsilon(epsilon, k):
    p, q = dp.grr_probabilities(epsilon, k)
    # OpenDP's prob is the probability of the correct answer = our keep-probability p
    measurement = odp.m.make_randomized_response(list(range(k)), p)
    assert measurement.map(1) == pytest.approx(epsilon, rel=REL)
    # and its lie probability per other category is our q
    assert (1 - p) / (k - 1) == pytest.approx(q, rel=1e-12)


@pytest.mark.parametrize("scale", [0.25, 0.5, 1.0, 2.0, 10.0])
def test_laplace_epsilon_for_a_scale_matches_opendp(scale):
    space = odp.atom_domain(T=float, nan=False), odp.absolute_distance(T=float)
    reference = odp.m.make_laplace(*space, scale=scale).map(1.0)
    # sensitivity 1: laplace_scale(1, eps) = scale  <=>  eps = 1 / scale
    assert reference == pytest.approx(1 / scale, rel=REL)
    assert dp.laplace_scale(1, reference) == pytest.approx(scale, rel=REL)


@pytest.mark.parametrize("f", [0.1, 0.5, 0.95])
def test_sue_epsilon_matches_opendp_rappor_bitvector(f):
    # one-hot vectors have weight 1; RAPPOR flip f -> p = 1 - f/2, q = f/2
    space = odp.bitvector_domain(max_weight=1), odp.discrete_distance()
    reference = odp.m.make_randomized_response_bitvec(*space, f=f).map(1)
    assert dp.ue_epsilon(1 - f / 2, f / 2) == pytest.approx(reference, rel=REL)


def test_sue_probabilities_match_opendp_at_its_flip_probability():
    # SUE at eps: p = e^{eps/2}/(e^{eps/2}+1); RAPPOR flip f = 2q gives OpenDP the same eps
    epsilon = 1.5
    p, q = dp.sue_probabilities(epsilon)
    space = odp.bitvector_domain(max_weight=1), odp.discrete_distance()
    assert odp.m.make_randomized_response_bitvec(*space, f=2 * q).map(1) == pytest.approx(
        epsilon, rel=REL
    )
    assert math.isclose(p, 1 - q, rel_tol=1e-12)


@pytest.mark.parametrize(("lower", "upper"), [(0, 10), (-3, 10), (-20, 5), (1, 99_999)])
def test_clamped_sum_sensitivity_matches_opendp(lower, upper):
    # add/remove one person = symmetric distance 1 on an unsized vector
    unsized = odp.vector_domain(odp.atom_domain(T=int)), odp.symmetric_distance()
    summed = unsized >> odp.t.then_clamp((lower, upper)) >> odp.t.then_sum()
    assert summed.map(1) == dp.sum_sensitivity(lower, upper)
    # replace one person = symmetric distance 2 on a vector of known size
    sized = odp.vector_domain(odp.atom_domain(T=int), size=100), odp.symmetric_distance()
    summed = sized >> odp.t.then_clamp((lower, upper)) >> odp.t.then_sum()
    assert summed.map(2) == dp.sum_sensitivity(lower, upper, neighbours="replace")


@pytest.mark.parametrize(
    ("lower", "upper", "epsilon"), [(0, 10, 1.0), (-20, 5, 0.5), (0, 100, 2.0)]
)
def test_noisy_sum_scale_gives_opendp_the_same_epsilon(lower, upper, epsilon):
    # the Laplace scale noisy_sum uses, b = Δ/ε, is ε-DP for OpenDP's clamped sum
    sensitivity = dp.sum_sensitivity(lower, upper)
    scale = dp.laplace_scale(sensitivity, epsilon)
    space = odp.vector_domain(odp.atom_domain(T=int)), odp.symmetric_distance()
    released = (
        space
        >> odp.t.then_clamp((lower, upper))
        >> odp.t.then_sum()
        >> odp.m.then_laplace(scale=scale)
    )
    assert released.map(1) == pytest.approx(epsilon, rel=REL)


@pytest.mark.parametrize(("epsilon", "delta"), [(1.0, 1e-5), (0.5, 1e-3), (2.0, 1e-8)])
def test_the_laplace_partition_threshold_gives_opendp_the_same_delta(epsilon, delta):
    # OpenDP's make_laplace_threshold over a map of counts, its privacy map at one user who
    # touches one partition once (l0, l1, l∞ = 1, 1, 1): (ε, δ) at our τ and scale 1/ε
    domain = odp.map_domain(odp.atom_domain(T=str), odp.atom_domain(T=float, nan=False))
    metric = odp.l01inf_distance(odp.absolute_distance(T=float))
    tau = dp.laplace_partition_threshold(epsilon, delta)
    release = odp.m.make_laplace_threshold(domain, metric, scale=1 / epsilon, threshold=tau)
    got_epsilon, got_delta = release.map((1, 1.0, 1.0))
    assert got_epsilon == pytest.approx(epsilon, rel=REL)
    assert got_delta == pytest.approx(delta, rel=1e-8)


@pytest.mark.parametrize("sigma", [0.8, 3.0])
def test_the_discrete_gaussian_is_opendps(sigma):
    """OpenDP's Gaussian on integers is the discrete Gaussian: its draws follow our pmf (a
    chi-square test), the same as ours (a two-sample chi-square test), and it charges
    ρ = 1/(2σ²) for a count, the ρ the census lesson splits over its levels."""
    import numpy as np
    from scipy import stats

    from dp_helpers import P_REJECT, goodness_of_fit_pvalue

    measurement = odp.m.make_gaussian(
        odp.atom_domain(T=int), odp.absolute_distance(T=int), scale=sigma
    )
    assert measurement.map(1) == pytest.approx(1 / (2 * sigma**2), rel=REL)
    theirs = np.array([measurement(0) for _ in range(8_000)])
    ours = dp.discrete_gaussian(sigma**2, size=8_000, rng=5)
    reach = int(max(np.abs(theirs).max(), np.abs(ours).max())) + 1
    support = np.arange(-reach, reach + 1)
    pmf = dp.discrete_gaussian_pmf(support, sigma**2)
    assert goodness_of_fit_pvalue(theirs + reach, pmf / pmf.sum()) > P_REJECT
    table = np.array(
        [
            np.bincount(theirs + reach, minlength=support.size),
            np.bincount(ours + reach, minlength=support.size),
        ]
    )
    table = table[:, table.sum(axis=0) >= 10]  # cells with enough draws for the test
    assert stats.chi2_contingency(table).pvalue > P_REJECT
