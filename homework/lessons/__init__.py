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
)

# the lessons with homework, in the course's order
LESSONS = (
    "definition",
    "laplace",
    "clamping",
    "composition",
    "approximate_dp",
    "membership",
    "choosing",
    "counting_over_time",
    "coin_flip",
    "binary_rr",
    "kary_rr",
    "unary_encoding",
    "subsampling",
)
