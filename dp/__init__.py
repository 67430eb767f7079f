"""dp: the math behind Privacy Playground — pure numpy, one module per mechanism.

Everything a page, a test or an outside check needs is importable as `from dp import NAME`.
"""

from .audit import audit_epsilon
from .composition import group_privacy, parallel_composition, sequential_composition
from .kary import (
    grr_estimate,
    grr_estimate_from_counts,
    grr_perturb,
    grr_probabilities,
    grr_variance,
    sample_grr_counts,
)
from .laplace import (
    laplace_cdf,
    laplace_interval_half_width,
    laplace_interval_probability,
    laplace_mechanism,
    laplace_pdf,
    laplace_privacy_loss,
    laplace_scale,
    laplace_variance,
)
from .postprocess import clip_counts, project_counts
from .randomized_response import (
    coin_flip_probabilities,
    estimate_count,
    estimate_proportion,
    estimate_proportion_from_counts,
    randomized_response,
    rr_epsilon,
    rr_keep_probability,
    rr_variance,
    sample_rr_counts,
)
from .unary import (
    oue_probabilities,
    sample_ue_counts,
    sue_probabilities,
    ue_aggregate,
    ue_encode,
    ue_epsilon,
    ue_estimate_from_counts,
    ue_perturb,
    ue_variance,
)

__all__ = [
    "audit_epsilon",
    "clip_counts",
    "coin_flip_probabilities",
    "estimate_count",
    "estimate_proportion",
    "estimate_proportion_from_counts",
    "group_privacy",
    "grr_estimate",
    "grr_estimate_from_counts",
    "grr_perturb",
    "grr_probabilities",
    "grr_variance",
    "laplace_cdf",
    "laplace_interval_half_width",
    "laplace_interval_probability",
    "laplace_mechanism",
    "laplace_pdf",
    "laplace_privacy_loss",
    "laplace_scale",
    "laplace_variance",
    "oue_probabilities",
    "parallel_composition",
    "project_counts",
    "randomized_response",
    "rr_epsilon",
    "rr_keep_probability",
    "rr_variance",
    "sample_grr_counts",
    "sample_rr_counts",
    "sample_ue_counts",
    "sequential_composition",
    "sue_probabilities",
    "ue_aggregate",
    "ue_encode",
    "ue_epsilon",
    "ue_estimate_from_counts",
    "ue_perturb",
    "ue_variance",
]
