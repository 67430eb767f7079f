r"""Private empirical risk minimisation for L2-regularised logistic regression (Chaudhuri,
Monteleoni & Sarwate 2011, "Differentially private empirical risk minimization", JMLR 12,
CMS below).

Data: X of shape (n, d) whose rows have L2 norm at most 1, labels y in {−1, +1}; the
objective, for λ > 0,

    J(w) = (1/n)·Σ ln(1 + e^(−y_i·wᵀx_i)) + (λ/2)·‖w‖².

J is λ-strongly convex and its loss 1-Lipschitz in w (rows in the unit ball), so the
minimiser moves by at most 2/(nλ) when one person's row is replaced (CMS Cor. 8):
- output perturbation adds a vector with density ∝ e^(−β‖b‖), β = nλε/2 (CMS Alg. 1);
- objective perturbation adds bᵀw/n to the objective instead (and (Δ/2)‖w‖² when ε is too
  small for the regulariser), β = ε'/2 (CMS Alg. 2, with c = 1/4 for the logistic loss).

Every minimiser here is found by Newton's method to an L2 gradient norm ≤ 1e-8.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit

from ._validate import (
    MAX_DRAWS,
    as_rng,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
    check_squarable,
)

GRADIENT_TOLERANCE = 1e-8
ROW_NORM_SLACK = 1e-12  # rows of norm ≤ 1 + this count as in the unit ball (round-off)
LOGISTIC_C = 0.25  # the logistic loss's second derivative is at most 1/4 (CMS §3.2)
MAX_NEWTON_STEPS = 200


def _check_data(X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    features = check_finite_array("X", X)
    if features.ndim != 2:
        raise ValueError(f"X must be 2-D (n rows, d features), got shape {features.shape}")
    labels = check_finite_array("y", y)
    if labels.ndim != 1 or labels.size != features.shape[0]:
        raise ValueError(
            f"y must be 1-D with one label per row of X ({features.shape[0]}), got "
            f"shape {labels.shape}"
        )
    if not np.all((labels == 1.0) | (labels == -1.0)):
        raise ValueError("y must hold only −1 and +1")
    largest = float(np.max(np.abs(features))) if features.size else 0.0
    unit = largest if largest > 0.0 else 1.0  # norms as largest·‖x/largest‖: no square overflows
    with np.errstate(over="ignore"):
        norms = unit * np.linalg.norm(features / unit, axis=1)
    if np.any(norms > 1.0 + ROW_NORM_SLACK):
        raise ValueError(
            f"X's rows must have L2 norm at most 1 (scale them first), got {norms.max():.6g}"
        )
    return features, labels


def _minimise(X: np.ndarray, y: np.ndarray, lam: float, linear: np.ndarray, extra: float):
    """argmin (1/n)·Σ ln(1 + e^(−y_i wᵀx_i)) + ((λ + extra)/2)‖w‖² + linearᵀw, by Newton's
    method (the objective is (λ + extra)-strongly convex) with a backtracking line search."""
    n, d = X.shape
    strength = lam + extra
    w = np.zeros(d)

    def objective(v: np.ndarray) -> float:
        margins = y * (X @ v)
        return float(np.mean(np.logaddexp(0.0, -margins)) + 0.5 * strength * v @ v + linear @ v)

    for _ in range(MAX_NEWTON_STEPS):
        margins = y * (X @ w)
        weights = expit(-margins)  # σ(−m): the loss's slope at each row
        gradient = -(X.T @ (y * weights)) / n + strength * w + linear
        if np.linalg.norm(gradient) <= GRADIENT_TOLERANCE:
            return w
        curvature = weights * (1.0 - weights)
        hessian = (X.T * curvature) @ X / n + strength * np.eye(d)
        step = np.linalg.solve(hessian, gradient)
        size, before = 1.0, objective(w)
        while objective(w - size * step) > before and size > 1e-10:
            size /= 2.0
        w = w - size * step
    raise RuntimeError("Newton's method did not reach the gradient tolerance")  # never seen


def logistic_erm(X: object, y: object, lam: float) -> np.ndarray:
    r"""argmin J(w), to an L2 gradient norm ≤ 1e-8 (not private)."""
    features, labels = _check_data(X, y)
    lam = check_positive("lam", lam)
    return _minimise(features, labels, lam, np.zeros(features.shape[1]), 0.0)


def l2_laplace_vector(dim: int, beta: float, *, rng: object = None) -> np.ndarray:
    r"""A vector b in R^dim with density ∝ e^(−β‖b‖): its norm ~ Gamma(shape = dim,
    scale = 1/β) and its direction uniform on the sphere (CMS §3)."""
    dim = check_integer("dim", dim, low=1)
    if dim > MAX_DRAWS:
        raise ValueError(f"dim must be at most {MAX_DRAWS:,} here, got {dim:,}")
    beta = check_positive("beta", beta)
    generator = as_rng(rng)
    norm = generator.gamma(shape=dim, scale=1.0 / beta)
    direction = generator.standard_normal(dim)
    while not np.any(direction):  # probability 0: a normal vector is never exactly zero
        direction = generator.standard_normal(dim)
    return norm * direction / np.linalg.norm(direction)


def output_perturbation(
    X: object, y: object, epsilon: float, lam: float, *, rng: object = None
) -> np.ndarray:
    r"""CMS Alg. 1: logistic_erm(X, y, λ) + b, b with density ∝ e^(−β‖b‖), β = nλε/2 (the
    minimiser's L2 sensitivity is 2/(nλ) under the replacement of one row): ε-DP."""
    features, labels = _check_data(X, y)
    epsilon = check_epsilon(epsilon)
    lam = check_positive("lam", lam)
    n, d = features.shape
    w = _minimise(features, labels, lam, np.zeros(d), 0.0)
    return w + l2_laplace_vector(d, n * lam * epsilon / 2.0, rng=rng)


def objective_perturbation(
    X: object, y: object, epsilon: float, lam: float, *, rng: object = None
) -> np.ndarray:
    r"""CMS Alg. 2 with c = 1/4: ε' = ε − ln(1 + 2c/(nλ) + c²/(n²λ²)); if ε' > 0, Δ = 0,
    else Δ = c/(n(e^(ε/4) − 1)) − λ and ε' = ε/2; b with density ∝ e^(−β‖b‖), β = ε'/2;
    returns argmin J(w) + bᵀw/n + (Δ/2)‖w‖²: ε-DP."""
    features, labels = _check_data(X, y)
    epsilon = check_squarable("epsilon", check_epsilon(epsilon))
    lam = check_positive("lam", lam)
    n, d = features.shape
    c = LOGISTIC_C
    ratio = check_squarable("1/(4·n·lam)", c / (n * lam))  # c/(nλ), c = 1/4
    reduced = epsilon - math.log1p(2.0 * ratio + ratio * ratio)
    extra = 0.0
    if reduced <= 0.0:
        extra = c / (n * math.expm1(epsilon / 4.0)) - lam
        reduced = epsilon / 2.0
    b = l2_laplace_vector(d, reduced / 2.0, rng=rng)
    return _minimise(features, labels, lam, b / n, extra)
