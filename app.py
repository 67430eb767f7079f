"""Privacy Playground: the frame and the router. Lessons live in lessons/."""

from pathlib import Path

import streamlit as st

from lessons.catalogue import HOME, MOVED, all_pages, by_folder
from ui import classroom, links, userdata

st.set_page_config(page_title="Privacy Playground", page_icon="🔒", layout="wide")
st.html(Path(__file__).parent / "ui" / "style.css")
links.guard_start()
classroom.sidebar()
userdata.dataset_picker()

sections: dict[str, list] = {}
pages: dict[str, st.Page] = {}
for lesson in all_pages():
    pages[lesson.folder] = st.Page(
        lesson.path,
        title=lesson.title,
        icon=lesson.icon,
        url_path=lesson.url_path,
        default=lesson is HOME,
    )
    sections.setdefault(lesson.section, []).append(pages[lesson.folder])


def _forward(target: st.Page):
    """A hidden page at an old URL path: open the lesson that replaced it, link kept."""

    def forward() -> None:
        st.switch_page(target, query_params=st.query_params.to_dict())

    return forward


for old_path, folder in MOVED.items():
    sections[by_folder(folder).section].append(
        st.Page(
            _forward(pages[folder]),
            title=by_folder(folder).title,
            url_path=old_path,
            visibility="hidden",
        )
    )

st.navigation(sections).run()
links.guard_end()
