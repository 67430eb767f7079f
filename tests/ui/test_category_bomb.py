"""A "category bomb" upload: 200 text columns × 50 values each is 10,000
yes/no questions. One selectbox of them all was resent on every rerun (2,000 × 50: 11 MB and
6.2 s per slider move). Now the pages ask for a column first, then a value: no selectbox
offers more than 200 options, and a whole page stays small."""

from __future__ import annotations

import pytest

from apptest_helpers import run_lesson_with_upload
from ui import userdata

COLUMNS, VALUES = 200, 50
PAGES = ["laplace/page.py", "coin_flip/page.py", "central_vs_local/page.py"]


def bomb() -> bytes:
    header = ",".join(f"c{j}" for j in range(COLUMNS))
    rows = [",".join(f"v{i % VALUES}" for _ in range(COLUMNS)) for i in range(2 * VALUES)]
    return ("\n".join([header, *rows]) + "\n").encode()


def leaves(node):
    children = getattr(node, "children", None)
    if children:
        for child in children.values():
            yield from leaves(child)
    elif getattr(node, "proto", None) is not None:
        yield node


def sent_bytes(at) -> int:
    """The serialized size of every element the page sent."""
    return sum(
        len(n.proto.SerializeToString()) for root in (at.main, at.sidebar) for n in leaves(root)
    )


@pytest.mark.parametrize("page_file", PAGES)
def test_a_category_bomb_offers_a_column_then_a_value(page_file):
    at = run_lesson_with_upload(page_file, bomb(), "bomb.csv", max_bytes=25 * 2**20)
    sizes = {box.label: len(box.options) for box in at.selectbox}
    assert max(sizes.values()) <= COLUMNS, sizes
    (column_box,) = [b for b in at.selectbox if b.label.startswith("Column (200 with yes/no")]
    (question,) = [b for b in at.selectbox if b.options and " = " in b.options[0]]
    assert len(question.options) == VALUES
    assert {o.split(" = ")[0] for o in question.options} == {column_box.value}
    assert sent_bytes(at) < 200_000  # was ~10,000 options in one box on every rerun

    column_box.set_value("c137").run()
    assert not at.exception
    (question,) = [b for b in at.selectbox if b.options and " = " in b.options[0]]
    assert question.options[0].startswith("c137 = ")
    question.set_value("c137 = v3").run()
    assert not at.exception
    assert question.value == "c137 = v3"


def test_a_small_file_keeps_the_single_question_box():
    data = b"Job,Town\n" + b"Sales,Leeds\nClerk,York\nSales,York\nClerk,Leeds\n" * 3
    at = run_lesson_with_upload("laplace/page.py", data, "jobs.csv", max_bytes=2**20)
    assert not any(b.label.startswith("Column (") for b in at.selectbox)
    (question,) = [b for b in at.selectbox if b.options and " = " in b.options[0]]
    assert len(question.options) == 4


def test_the_two_step_choice_starts_beyond_the_threshold():
    assert COLUMNS * VALUES > userdata.MAX_CONDITION_OPTIONS >= 100
