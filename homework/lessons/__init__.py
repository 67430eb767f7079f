"""Every lesson's homework: importing this package registers their exercises."""

from homework.lessons import approximate_dp, coin_flip, composition, kary_rr, laplace  # noqa: F401

LESSONS = (
    "laplace",
    "composition",
    "coin_flip",
)  # the lessons with homework, in the course's order
