"""A widget label that holds outside text (ui/controls.with_plain_label): the visible label is
plain text, and the label a screen reader hears is the text as written. Streamlit hands a
widget's label to the browser as its aria-label unchanged, so a label escaped for Markdown
("Capital gain \\(\\$\\)") was read out with its backslashes, and a visible label must be
escaped, or a file's column named `**Pay**` would be bold. Every lesson that reads an
uploaded file runs here on a file whose names and values are Markdown."""

from __future__ import annotations

import pytest

from apptest_helpers import hosted_page
from lessons.catalogue import LESSONS
from ui import text

KINDS = (
    "button_group",
    "checkbox",
    "multiselect",
    "number_input",
    "radio",
    "select_slider",
    "selectbox",
    "slider",
    "text_area",
    "text_input",
    "toggle",
)
ROWS = 300
HOSTILE = (
    "odd (1).csv",
    (
        "Pay ($),Job *x*,Town_[a],Age\n"
        + "\n".join(
            f"{i * 7 % 90},{('Sales', 'Clerk', '**Cook**')[i % 3]},{('Leeds', 'York')[i % 2]},"
            f"{20 + i % 50}"
            for i in range(ROWS)
        )
    ).encode(),
)
READS_UPLOADS = [
    lesson for lesson in LESSONS if not lesson.activity and "userdata" in lesson.path.read_text()
]


def labels(at) -> list[tuple[str, str, int]]:
    """Every widget's (kind, label, label visibility) in the run."""
    return [
        (kind, widget.proto.label, widget.proto.label_visibility.value)
        for kind in KINDS
        for widget in at.get(kind)
    ]


@pytest.mark.parametrize("lesson", READS_UPLOADS, ids=[lesson.folder for lesson in READS_UPLOADS])
def test_no_widget_label_is_read_out_with_markdown_escapes(lesson) -> None:
    at = hosted_page(f"{lesson.folder}/page.py", upload=HOSTILE, timeout_s=120)
    escaped = [found for found in labels(at) if "\\" in found[1]]
    assert escaped == []


def test_an_outside_label_is_plain_text_above_a_collapsed_widget() -> None:
    at = hosted_page("clamping/page.py", upload=HOSTILE, timeout_s=120)
    at.selectbox(key="clamp_col").set_value("Pay ($)").run()
    assert not at.exception
    raw = "A newcomer joins with Pay ($) ="
    (widget,) = [w for w in at.number_input if w.key == "clamp_newcomer"]
    assert widget.proto.label == raw
    assert widget.proto.label_visibility.value == 2  # collapsed: the text above names it
    assert text.plain(raw) in [block.value for block in at.markdown]


def test_the_lessons_that_read_uploads_are_found() -> None:
    folders = {lesson.folder for lesson in READS_UPLOADS}
    assert {"clamping", "unary_encoding", "laplace", "choosing"} <= folders
