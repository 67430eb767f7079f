"""Your progress: the student's own record of the course, kept in their browser only
(ui/progress.py draws it there; this page says what counts and what it proves)."""

import streamlit as st

from ui import classroom, progress

st.title("Your progress")
st.markdown(
    "**Kept on this device only.** Your record of the course lives in this browser's own "
    "storage. It is never sent to the server, never put in a link or a cookie, and the "
    "lecturer cannot see it: a course about privacy keeps yours. Another browser or device "
    "starts empty; export a file here and import it there to carry it over."
)
if classroom.presenting():
    st.info(
        "Your progress is not shown in presenter mode: the projector shows the room a lesson, "
        "not your own record. Turn presenter mode off to see it.",
        icon=":material/visibility_off:",
    )
else:
    progress.page()
st.subheader("What counts")
st.markdown(
    "- **Worked through**: you moved the lesson's main control (the slider named at its "
    "top) and checked every *Check yourself* question on its page, right or wrong.\n"
    "- **Started**: you opened the lesson.\n"
    "- **Homework passes** is your own tick: the notebook's `check()` runs on your machine "
    "and the autograder is the proof; the tick only reminds you which you have done.\n\n"
    "What this proves: nothing to anyone but you. The record is yours to keep, export, "
    "edit or wipe, so it cannot be evidence of work, and it is not meant to be."
)
st.caption(
    "While you use a lesson the server knows what any web app knows (which slider you "
    "moved, which answer you checked: that is how the page redraws) and forgets it when you "
    "leave. It is never told your record from another day or device."
)
