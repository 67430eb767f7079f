"""dp/erm.py: L2-regularised logistic regression and its private versions (Chaudhuri,
Monteleoni & Sarwate 2011): the minimiser against scikit-learn's, the L2-Laplace vector's
distribution, the minimiser's sensitivity 2/(nλ), output perturbation's noise, and objective
perturbation's optimality condition in both of its branches."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

import dp


def data(n: int = 400, d: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X @ np.linspace(1, -1, d) + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


def gradient(X, y, lam, w, linear=0.0, extra=0.0) -> np.ndarray:
    n = len(y)
    return -(X.T @ (y * expit(-y * (X @ w)))) / n + (lam + extra) * w + linear


@pytest.mark.parametrize("lam", [1e-3, 0.01, 1.0])
def test_the_minimiser_is_scikit_learns_and_meets_the_gradient_tolerance(lam) -> None:
    X, y = data()
    w = dp.logistic_erm(X, y, lam)
    assert np.linalg.norm(gradient(X, y, lam, w)) <= 1e-8
    reference = LogisticRegression(
        C=1 / (len(y) * lam), fit_intercept=False, tol=1e-12, max_iter=100_000
    ).fit(X, y)
    np.testing.assert_allclose(w, reference.coef_[0], atol=1e-6)


def test_replacing_one_row_moves_the_minimiser_by_at_most_2_over_n_lambda() -> None:
    X, y = data(200, 4, seed=1)
    lam = 0.05
    w = dp.logistic_erm(X, y, lam)
    rng = np.random.default_rng(2)
    worst = 0.0
    for _ in range(40):
        i = int(rng.integers(len(y)))
        other = rng.normal(size=4)
        X2, y2 = X.copy(), y.copy()
        X2[i], y2[i] = other / np.linalg.norm(other), -y[i]
        worst = max(worst, float(np.linalg.norm(dp.logistic_erm(X2, y2, lam) - w)))
    assert 0 < worst <= 2 / (len(y) * lam)


@pytest.mark.parametrize(("dim", "beta"), [(1, 2.0), (3, 0.5), (10, 5.0)])
def test_the_l2_laplace_vectors_norm_is_gamma_and_its_direction_uniform(dim, beta) -> None:
    rng = np.random.default_rng(3)
    draws = np.array([dp.l2_laplace_vector(dim, beta, rng=rng) for _ in range(4000)])
    norms = np.linalg.norm(draws, axis=1)
    assert stats.kstest(norms, stats.gamma(a=dim, scale=1 / beta).cdf).pvalue > 1e-6
    # a uniform direction: each coordinate of the unit vector has mean 0, variance 1/dim
    units = draws / norms[:, None]
    assert np.all(np.abs(units.mean(axis=0)) < 6 * math.sqrt(1 / dim / len(units)))
    # and the check refuses a norm at the wrong scale
    assert stats.kstest(2 * norms, stats.gamma(a=dim, scale=1 / beta).cdf).pvalue < 1e-6


def test_output_perturbation_adds_noise_of_norm_gamma_d_and_2_over_n_lambda_epsilon() -> None:
    X, y = data(300, 3, seed=4)
    lam, epsilon = 0.02, 0.5
    w = dp.logistic_erm(X, y, lam)
    rng = np.random.default_rng(5)
    noise = [
        np.linalg.norm(dp.output_perturbation(X, y, epsilon, lam, rng=rng) - w) for _ in range(1500)
    ]
    scale = 2 / (len(y) * lam * epsilon)
    assert stats.kstest(noise, stats.gamma(a=3, scale=scale).cdf).pvalue > 1e-6


@pytest.mark.parametrize(
    ("epsilon", "lam", "branch_extra"), [(1.0, 0.05, False), (0.01, 1e-4, True)]
)
def test_objective_perturbation_solves_its_perturbed_objective(epsilon, lam, branch_extra) -> None:
    """The output w meets ∇J(w) + b/n + Δw = 0 for the b drawn from the same seed and the Δ
    of CMS Alg. 2's branch (ε' > 0: Δ = 0; else Δ = c/(n(e^(ε/4) − 1)) − λ, ε' = ε/2)."""
    X, y = data(300, 3, seed=6)
    n, c = len(y), 0.25
    reduced = epsilon - math.log(1 + 2 * c / (n * lam) + c**2 / (n * lam) ** 2)
    extra = 0.0
    if reduced <= 0:
        extra, reduced = c / (n * math.expm1(epsilon / 4)) - lam, epsilon / 2
    assert (extra != 0.0) == branch_extra
    w = dp.objective_perturbation(X, y, epsilon, lam, rng=7)
    b = dp.l2_laplace_vector(3, reduced / 2, rng=7)
    assert np.linalg.norm(gradient(X, y, lam, w, b / n, extra)) <= 1e-7
