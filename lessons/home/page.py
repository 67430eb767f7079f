"""Home: what the Privacy Playground teaches, who it is for, the lessons and the dataset."""

import streamlit as st

from data.census import SYNTHETIC_COLUMNS
from lessons.catalogue import LESSONS, Lesson
from lessons.home import model
from ui import controls, datasets, tables, text
from ui.controls import lesson_header
from ui.datasets import census


def lesson_link(lesson: Lesson) -> None:
    """A link to a lesson with its summary underneath; plain text when the page runs on
    its own (outside app.py's navigation there is no registered page to link to)."""
    controls.page_link(lesson.path, label=lesson.title, icon=lesson.icon)
    st.caption(lesson.summary)


SECTIONS = list(dict.fromkeys(lesson.section for lesson in LESSONS))  # catalogue order
lesson_header(
    "Privacy Playground",
    "A hands-on course in differential privacy. You start with why removing names does "
    "not protect anyone, meet the definition and the Laplace mechanism, learn how privacy "
    "losses add up under composition, meet the local model — randomized response and unary "
    "encoding — where you see what that stronger protection costs in accuracy, then train "
    "models privately and run it all live with your class. The sections, in order: "
    + ", ".join(SECTIONS)
    + ". Every lesson has sliders: move them and watch the noise, the error and ε change.",
)
st.markdown(
    "**Who it is for.** Students working alone, at their own pace, and lecturers presenting "
    "live from a projector. Every chart draws from a fixed random seed, so the screen in "
    "the lecture hall shows the same numbers as a student's laptop."
)

st.header("The lessons")
sections: dict[str, list[Lesson]] = {}
for lesson in LESSONS:
    sections.setdefault(lesson.section, []).append(lesson)

# Three columns a row (five at 1280 px cut the titles: "Why anonym…", "In the classroo / m"),
# read left to right in the catalogue's order. A section longer than COLUMN_LESSONS goes on in
# the next column ("continued"), so that no column runs far below the others (the central
# model's 16 lessons in one column left large empty areas beside them).
SECTIONS_PER_ROW = 3
COLUMN_LESSONS = 8
blocks: list[tuple[str, list[Lesson]]] = []
for section, section_lessons in sections.items():
    for first in range(0, len(section_lessons), COLUMN_LESSONS):
        title = section if first == 0 else f"{section}, continued"
        blocks.append((title, section_lessons[first : first + COLUMN_LESSONS]))
for start in range(0, len(blocks), SECTIONS_PER_ROW):
    row = blocks[start : start + SECTIONS_PER_ROW]
    for column, (title, block_lessons) in zip(
        st.columns(SECTIONS_PER_ROW, gap="large"), row, strict=False
    ):
        with column:
            st.subheader(title)
            for lesson in block_lessons:
                lesson_link(lesson)

st.header("The dataset")
people = census()
in_use = datasets.active().name
own_file = not datasets.on_census()
if own_file:
    st.info(
        f"In use now: {text.plain(in_use)}. The lessons that count a column run "
        "on it; the others, and the description below, use the bundled census. “Back to the "
        "census” in the sidebar switches back.",
        icon=":material/upload_file:",
    )
with st.container(border=True):
    count_column, credit_column = st.columns([1, 3], gap="large")
    with count_column:
        st.metric("People in the census extract", f"{len(people):,}")
        st.caption(f"{len(people.columns):,} columns, one row per person.")
    with credit_column:
        st.markdown(
            ("The bundled census" if own_file else "Every lesson queries the same table")
            + ": the **UCI Adult** data set, an extract of "
            "the 1994 US Census by Ronny Kohavi and Barry Becker, licensed "
            "[CC BY 4.0](https://creativecommons.org/licenses/by/4.0/) "
            "([source](https://archive.ics.uci.edu/dataset/2/adult))."
        )
        st.markdown(
            f"**{', '.join(SYNTHETIC_COLUMNS[:-1])} and {SYNTHETIC_COLUMNS[-1]} are invented.** "
            "We added them, from a seeded script, so that the attacks in the first lesson "
            "have something to find. No real person has these identifiers."
        )

st.subheader("Five people from the table")
tables.show(model.five_people(), key="five-people")

st.subheader("What the columns mean")
tables.written(model.column_meanings())
