"""Which modules a lesson may import (docs/ARCHITECTURE.md, "The lesson contract").

A file of lessons/<folder>/ may import, of lessons/: its own folder's modules and the
catalogue, never another lesson (what two lessons share lives in dp/, data/ or ui/), and
every such import at the top of the file, where a reader looks (not inside a function)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lesson_rules import problems
from lessons.catalogue import HOME, LESSONS, LESSONS_DIR

FILES = [
    (lesson.folder, path)
    for lesson in (HOME, *LESSONS)
    for path in sorted((LESSONS_DIR / lesson.folder).glob("*.py"))
]


@pytest.mark.parametrize(("folder", "path"), FILES, ids=[f"{f}/{p.name}" for f, p in FILES])
def test_a_lesson_imports_only_its_own_modules_and_earlier_lessons_models(
    folder: str, path: Path
) -> None:
    assert problems(folder, path.name, path.read_text(encoding="utf-8")) == []


def test_the_rule_catches_each_kind_of_breach() -> None:
    # the rule must be able to fail: each line below breaks it once
    source = "\n".join(
        [
            "from lessons.membership.charts import roc",  # another lesson's charts
            "from lessons.coin_flip import snippets",  # another lesson's snippets
            "import lessons.sparse_vector.model",  # another lesson's model
            "from lessons.nowhere import model",  # not a lesson
            "def f():",
            "    from lessons.choosing import model",  # its own model, but hidden
        ]
    )
    found = problems("choosing", "charts.py", source)
    assert len(found) == 5, found
    allowed = "\n".join(
        [
            "from lessons.catalogue import LESSONS",
            "from lessons.choosing import charts, model, snippets",
        ]
    )
    assert problems("choosing", "page.py", allowed) == []
    # another lesson's model, earlier in the course: no longer allowed
    assert len(problems("choosing", "page.py", "from lessons.clamping import model")) == 1
