"""A lesson's homework as notebook cells: each exercise's prompt, its starter (or solution)
cell and its `check(...)` cell. The one source of them for the homework notebooks of `make
homework` (homework/build.py) and for the tail of a lesson's own notebook, downloaded from
the app (ui/notebook.py). No Streamlit, nothing of lessons/."""

from __future__ import annotations

import nbformat
from nbformat import v4

from homework import exercises
from homework.core import DP_NOTE

IMPORTS = "from homework import check, unanswered\n"  # the cell before the exercises


def exercise_cells(lesson: str, *, solutions: bool, level: int = 2) -> list[nbformat.NotebookNode]:
    """Each exercise of `lesson`: its prompt under a heading of `level`, its starter (or
    solution: the lecturer's build only, from grading/) cell, and the `check(...)` cell."""
    cells = []
    for exercise in exercises(lesson):
        heading = "#" * level
        cells.append(v4.new_markdown_cell(f"{heading} {exercise.title}\n\n{prompt(exercise)}"))
        cells.append(v4.new_code_cell(solution(exercise.id) if solutions else exercise.starter))
        # the semicolon: Jupyter shows the printed verdict only, not the returned Result
        cells.append(v4.new_code_cell(f"check({exercise.id!r}, {exercise.name});"))
    return cells


def prompt(exercise) -> str:
    """The exercise's prompt as a student reads it: a function to write says that calling
    dp/ for it scores 0."""
    return f"{exercise.prompt} {DP_NOTE}" if exercise.grade is not None else exercise.prompt


def solution(exercise_id: str) -> str:
    """The solution cell: only where grading/ is (a clone, the lecturer's build)."""
    import grading

    return grading.solution(exercise_id)
