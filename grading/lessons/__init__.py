"""The grader's half of each homework module of homework/lessons/, one module per lesson of
the same name: `GRADES` (a fixed answer's grade, by exercise id), `SOLUTIONS` (every
exercise's solution cell, by id) and `HIDDEN_SEED` (the cases a function's grade draws when
the autograder grades)."""

import importlib

from homework.lessons import LESSONS

MODULES = {name: importlib.import_module(f"grading.lessons.{name}") for name in LESSONS}
GRADES = {key: grade for module in MODULES.values() for key, grade in module.GRADES.items()}
SOLUTIONS = {key: code for module in MODULES.values() for key, code in module.SOLUTIONS.items()}
