"""The grader's half of each homework module of homework/lessons/: `GRADES` (a fixed answer's
grade, by exercise id) and `SOLUTIONS` (every exercise's solution cell, by id). A new
lesson's module is named here."""

import importlib

NAMES = (
    "approximate_dp",
    "clamping",
    "coin_flip",
    "composition",
    "kary_rr",
    "laplace",
    "last",
    "membership",
    "more",
    "outer",
    "ring",
)
MODULES = tuple(importlib.import_module(f"grading.lessons.{name}") for name in NAMES)
GRADES = {key: grade for module in MODULES for key, grade in module.GRADES.items()}
SOLUTIONS = {key: code for module in MODULES for key, code in module.SOLUTIONS.items()}
