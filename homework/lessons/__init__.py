"""Every lesson's homework: importing this package registers their exercises."""

from homework.lessons import laplace  # noqa: F401

LESSONS = ("laplace",)  # the lessons with homework, in the course's order
