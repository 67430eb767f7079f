"""Every lesson's homework: importing this package registers their exercises."""

from homework.lessons import (  # noqa: F401
    approximate_dp,
    clamping,
    coin_flip,
    composition,
    kary_rr,
    laplace,
    membership,
)

# the lessons with homework, in the course's order
LESSONS = (
    "laplace",
    "clamping",
    "composition",
    "approximate_dp",
    "membership",
    "coin_flip",
    "kary_rr",
)
