"""The grader's half of "When code breaks the proof"'s homework: the grades of its fixed answers
and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import hashlib
import math

from homework.core import Result, number_in
from homework.lessons.floating_point import SEED_OPTIONS

SEED_SHA256 = hashlib.sha256(b"a").hexdigest()


def grade_doubles(value) -> Result:
    """How many doubles lie in [1, 2): the 52-bit mantissa's 2^52 (math.nextafter counts)."""
    answer = 2**52
    assert math.nextafter(1.0, 2.0) - 1.0 == 1.0 / answer
    return number_in(
        value,
        answer,
        answer,
        what="doubles_in_one_to_two",
        too_low="Too few: a double has a 52-bit fraction.",
        too_high="Too many: in [1, 2) the exponent is fixed; only the fraction varies.",
    )


def grade_seed(letter) -> Result:
    if letter is Ellipsis or letter is None:
        return Result(False, "Set reused_seed to your answer (a letter), then run the check again.")
    if not isinstance(letter, str) or letter.strip().lower() not in SEED_OPTIONS:
        return Result(False, f"reused_seed must be one of {sorted(SEED_OPTIONS)}.")
    if hashlib.sha256(letter.strip().lower().encode()).hexdigest() == SEED_SHA256:
        return Result(True, "")
    return Result(False, "Draw the same noise twice and subtract the two releases: what is left?")


HIDDEN_SEED = 304_619  # the cases a function's grade draws when the autograder grades


GRADES = {
    "floating_point.doubles": grade_doubles,
    "floating_point.seed": grade_seed,
}


SOLUTIONS = {
    "floating_point.doubles": "doubles_in_one_to_two = 2**52\n",
    "floating_point.seed": 'reused_seed = "a"  # the same noise twice: it cancels in the '
    "difference\n",
}
