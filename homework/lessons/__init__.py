"""Every lesson's homework: importing this package registers their exercises."""

from homework.lessons import (  # noqa: F401
    approximate_dp,
    clamping,
    coin_flip,
    composition,
    kary_rr,
    laplace,
    membership,
    more,
    outer,
    ring,
)

# the lessons with homework, in the course's order
LESSONS = (
    "anonymisation",
    "beyond_k_anonymity",
    "definition",
    "laplace",
    "clamping",
    "composition",
    "approximate_dp",
    "membership",
    "uncertainty",
    "epsilon_meaning",
    "choosing",
    "group_by",
    "beyond_global",
    "sparse_vector",
    "counting_over_time",
    "coin_flip",
    "binary_rr",
    "kary_rr",
    "unary_encoding",
    "large_domains",
    "central_vs_local",
    "dpsgd",
    "subsampling",
)
