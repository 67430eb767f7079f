"""What an autograder carries besides the notebook: the course's own code a student has too,
the grader's half, and the packages grading installs (at this repository's pins). Both
builders use it: Gradescope's zip (homework/build.py) and Otter's (homework/otter.py)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRADING_PACKAGES = ("numpy", "scipy", "nbformat", "nbclient", "ipykernel")
VENDORED = ("dp", "homework")  # packages a student has too, copied whole into the autograder
GRADER = ("grading",)  # the grader's alone: solutions, fixed answers' grades, hidden seeds
VENDORED_FILES = ("ui/__init__.py", "ui/text.py")  # the setup cell's number formatter


def requirements() -> str:
    """The grading packages at the versions installed here (this repository's pins)."""
    return "".join(f"{p}=={importlib.metadata.version(p)}\n" for p in GRADING_PACKAGES)
