"""Home's tables: five people from the census as a static table (the data grid's component
costs ~0.35 s of a Chromium first visit, and Home is where most visits start)."""

from __future__ import annotations

from apptest_helpers import rows_table, run_lesson
from data.census import SYNTHETIC_COLUMNS
from ui.datasets import census


def test_five_people_are_a_static_table_with_the_invented_identifiers_first():
    at = run_lesson("home/page.py")
    assert not at.dataframe
    shown = rows_table(at, "five-people")
    people = census().head(5)
    assert list(shown.columns[: len(SYNTHETIC_COLUMNS)]) == list(SYNTHETIC_COLUMNS)
    assert set(shown.columns) == set(people.columns)
    assert list(shown["Name"]) == people["Name"].astype(str).tolist()
    assert list(shown["DOB"]) == people["DOB"].dt.strftime("%Y-%m-%d").tolist()
    # Counts and money through the one formatter: thousands separators, never "77516.0".
    assert list(shown["Fnlwgt"]) == [f"{v:,}" for v in people["Fnlwgt"]]
    assert list(shown["Zip"]) == people["Zip"].astype(str).tolist()  # leading zeros kept


def test_home_names_the_courses_sections_in_the_catalogues_order() -> None:
    """Home said the course "finishes in the local model" while machine learning and the
    classroom follow: the sections are listed from the catalogue, in its order."""
    from apptest_helpers import prose, run_lesson
    from lessons.catalogue import LESSONS

    words = prose(run_lesson("home/page.py"))
    sections = list(dict.fromkeys(lesson.section for lesson in LESSONS))
    assert f"The sections, in order: {', '.join(sections)}." in words
    assert "finish in the local model" not in words


def test_no_column_of_the_lesson_grid_runs_far_below_the_others() -> None:
    """Finding: the central model's column listed 16 lessons while the others were short,
    leaving large empty areas at 1280×800. A long section goes on in the next column."""
    from apptest_helpers import run_lesson
    from lessons.catalogue import LESSONS

    at = run_lesson("home/page.py")
    titles = [h.value for h in at.subheader]
    assert "The central model, continued" in titles
    grid = titles[: titles.index("In the classroom") + 1]
    sections = list(dict.fromkeys(lesson.section for lesson in LESSONS))
    assert [t for t in grid if not t.endswith(", continued")] == sections  # catalogue order
    summaries = {lesson.summary for lesson in LESSONS}
    per_column = [
        sum(caption.value in summaries for caption in column.caption) for column in at.columns
    ]
    assert sum(per_column) == len(LESSONS) and max(per_column) <= 8
