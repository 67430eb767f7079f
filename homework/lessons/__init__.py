"""Every lesson's homework: importing this package registers their exercises."""

from homework.lessons import coin_flip, laplace  # noqa: F401

LESSONS = ("laplace", "coin_flip")  # the lessons with homework, in the course's order
