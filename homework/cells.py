"""A lesson's homework as notebook cells: each exercise's prompt, its starter (or solution)
cell and its `check(...)` cell. The one source of them for the homework notebooks of `make
homework` (homework/build.py) and for the tail of a lesson's own notebook, downloaded from
the app (ui/notebook.py). No Streamlit, nothing of lessons/."""

from __future__ import annotations

import nbformat
from nbformat import v4

from homework import exercises

IMPORTS = "from homework import check, unanswered\n"  # the cell before the exercises


def exercise_cells(lesson: str, *, solutions: bool, level: int = 2) -> list[nbformat.NotebookNode]:
    """Each exercise of `lesson`: its prompt under a heading of `level`, its starter (or
    solution) cell, and the `check(...)` cell."""
    cells = []
    for exercise in exercises(lesson):
        heading = "#" * level
        cells.append(v4.new_markdown_cell(f"{heading} {exercise.title}\n\n{exercise.prompt}"))
        cells.append(v4.new_code_cell(exercise.solution if solutions else exercise.starter))
        # the semicolon: Jupyter shows the printed verdict only, not the returned Result
        cells.append(v4.new_code_cell(f"check({exercise.id!r}, {exercise.name});"))
    return cells
