"""st.table reads every cell, column label and row label as Markdown, so text in a table
must reach it as plain text (ui.text.plain): a label such as ">50K" drew as a block quote
(the rule: outside text is shown as plain text on every surface). Every lesson's
tables at their defaults, and the whole of each table."""

from __future__ import annotations

import re

import pytest

from apptest_helpers import run_lesson
from lessons.catalogue import LESSONS

# What Markdown reads as a block at the start of a cell: a quote, a heading, a list item, a
# numbered item, a rule or a fence.
BLOCK_START = re.compile(r"^\s*(>|#{1,6}\s|[-*+]\s|\d+[.)]\s|([-*_]\s*){3,}$|```|~~~)")


def cell_texts(frame) -> list[str]:
    texts = [str(label) for label in frame.columns]
    texts += [str(label) for label in frame.index if isinstance(label, str)]
    for column in frame.columns:
        texts += [value for value in frame[column].tolist() if isinstance(value, str)]
    return texts


def test_the_pattern_catches_what_markdown_would_turn_into_a_block():
    for text in (">50K", "# 1", "- a", "1. first", "---", "```"):
        assert BLOCK_START.match(text), text
    for text in (r"\>50K", "≤50K", "± 14.14", "1,000", "0.1", "17–24", "-0.5", "yes"):
        assert not BLOCK_START.match(text), text


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.url_path)
def test_no_table_cell_starts_a_markdown_block(lesson):
    at = run_lesson(lesson.file)
    for table in at.table:
        bad = [text for text in cell_texts(table.value) if BLOCK_START.match(text)]
        assert not bad, f"{lesson.url_path}: cells Markdown reads as a block: {bad[:5]}"
