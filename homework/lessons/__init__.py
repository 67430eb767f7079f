"""Every lesson's homework: importing this package registers their exercises."""

from homework.lessons import approximate_dp, coin_flip, composition, kary_rr, laplace  # noqa: F401

# the lessons with homework, in the course's order
LESSONS = ("laplace", "composition", "approximate_dp", "coin_flip", "kary_rr")
