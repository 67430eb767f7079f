"""Every lesson's homework: importing this package registers their exercises."""

from homework.lessons import coin_flip, composition, laplace  # noqa: F401

LESSONS = (
    "laplace",
    "composition",
    "coin_flip",
)  # the lessons with homework, in the course's order
