"""Privacy Playground: the frame and the router. Lessons live in lessons/."""

from pathlib import Path

import streamlit as st

from lessons.catalogue import HOME, all_pages
from ui import classroom, links, userdata

st.set_page_config(page_title="Privacy Playground", page_icon="🔒", layout="wide")
st.html(Path(__file__).parent / "ui" / "style.css")
links.guard_start()
classroom.sidebar()
userdata.dataset_picker()

sections: dict[str, list] = {}
for lesson in all_pages():
    page = st.Page(
        lesson.path,
        title=lesson.title,
        icon=lesson.icon,
        url_path=lesson.url_path,
        default=lesson is HOME,
    )
    sections.setdefault(lesson.section, []).append(page)

st.navigation(sections).run()
links.guard_end()
