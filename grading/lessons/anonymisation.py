"""The grader's half of "Why anonymisation fails"'s homework: the grades of its fixed answers
and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import dp
from homework.core import Result, number_in
from homework.lessons.anonymisation import UNIQUE_TABLE


def grade_unique(value) -> Result:
    """The share of people alone in their class in UNIQUE_TABLE (dp.share_unique)."""
    rows = [tuple(r) for r in UNIQUE_TABLE]
    sizes = [rows.count(r) for r in rows]  # each person's class size
    answer = dp.share_unique(sizes)
    return number_in(
        value,
        answer - 1e-9,
        answer + 1e-9,
        what="share_unique",
        too_low="Too low: count every person whose (age, ZIP) no one else has.",
        too_high="Too high: a person is unique only when no other row has the same values.",
    )


HIDDEN_SEED = 152_122  # the cases a function's grade draws when the autograder grades


GRADES = {
    "anonymisation.unique": grade_unique,
}


SOLUTIONS = {
    "anonymisation.k": "from collections import Counter\n"
    "\n"
    "def k_of(rows):\n"
    "    return min(Counter(rows).values())\n",
    "anonymisation.unique": "rows = ((30, '0214'), (30, '0214'), (31, '0214'), (45, '0301'), (45, "
    "'0301'), (45, '0301'), (52, '0214'), (30, '0301'))\n"
    "share_unique = sum(rows.count(r) == 1 for r in rows) / len(rows)\n",
}
