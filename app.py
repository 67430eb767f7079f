"""Privacy Playground: the frame and the router. Lessons live in lessons/."""

import os

# One thread a linear-algebra call, set before numpy loads (deploy/serve.py's
# one_thread_per_call says why): Streamlit Community Cloud runs this file without serve.py,
# and numpy is first imported below.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from pathlib import Path
from urllib.parse import urlsplit

import streamlit as st

import lessons.preload  # noqa: F401  (imported once per process, it freezes the lessons' code)
from lessons.catalogue import HOME, MOVED, PROGRESS, Lesson, all_pages, by_folder, neighbours
from ui import browser, classroom, links, menu, notebook, pace, progress, userdata

# Presenter mode gives the projector the whole width: the sidebar starts collapsed (its
# ">" button still opens it; presenter mode itself is in the classroom fold atop the page).
st.set_page_config(
    page_title="Privacy Playground",
    page_icon="🔒",
    layout="wide",
    initial_sidebar_state="collapsed" if classroom.presenting_at_start() else "auto",
)
if not pace.allow_run():  # one session flooding reruns must not stall the room
    pace.slow_down()
st.html(Path(__file__).parent / "ui" / "style.css")
links.guard_start()


def _student_on_a_phone() -> bool:
    """A student who opened a class activity's join link (`/class-survey?join=CODE`,
    `/class-quiz?join=CODE`): their page shows the question and its buttons only, without
    the course's menu and sidebar."""
    if "join" not in st.query_params:
        return False
    path = urlsplit(st.context.url or "").path.rstrip("/")
    return not path or any(
        path.endswith(f"/{lesson.url_path}") for lesson in all_pages() if lesson.activity
    )


STUDENT = _student_on_a_phone()
# Wide formulas fit a phone, scrolling boxes are tab stops, metrics are live regions; and,
# in the same element (one more would push every page down by a gap), this browser's own
# record of the course, never sent (ui/progress.py). A phone in a class activity keeps none.
browser.fit_formulas(
    also=""
    if STUDENT
    else progress.script(
        (lesson.folder, lesson.url_path, lesson.title, lesson.main_control)
        for lesson in all_pages()
        if lesson is not HOME and not lesson.activity
    )
)

HOME_INTERNAL_PATH = "start"  # never shown: the default page lives at the root URL
sections: dict[str, list] = {}
pages: dict[str, st.Page] = {}
for lesson in all_pages():
    pages[lesson.folder] = st.Page(
        lesson.path,
        title=lesson.title,
        icon=lesson.icon,
        # Home is served at the root; its own path goes to a forward below, so that a
        # typed /home opens Home instead of "Page not found".
        url_path=HOME_INTERNAL_PATH if lesson is HOME else lesson.url_path,
        default=lesson is HOME,
    )
    sections.setdefault(lesson.section, []).append(pages[lesson.folder])
# "Your progress" (kept in this browser, ui/progress.py): after Home, outside teaching order.
pages[PROGRESS.folder] = st.Page(
    PROGRESS.path, title=PROGRESS.title, icon=PROGRESS.icon, url_path=PROGRESS.url_path
)
sections[PROGRESS.section].insert(1, pages[PROGRESS.folder])
menu_sections = {name: list(listed) for name, listed in sections.items()}  # before the forwards


def _forward(target: st.Page):
    """A hidden page at an old URL path: open the lesson that replaced it, link kept."""

    def forward() -> None:
        st.switch_page(target, query_params=links.unbound_params())

    return forward


sections[HOME.section].append(
    st.Page(
        _forward(pages[HOME.folder]), title=HOME.title, url_path=HOME.url_path, visibility="hidden"
    )
)
for old_path, folder in MOVED.items():
    sections[by_folder(folder).section].append(
        st.Page(
            _forward(pages[folder]),
            title=by_folder(folder).title,
            url_path=old_path,
            visibility="hidden",
        )
    )


def _previous_and_next(lesson: Lesson) -> None:
    """The end of every page: links to the lessons before and after it in teaching order.
    (A page that stops early, e.g. for a file it cannot use, ends without them.)"""
    before, after = neighbours(lesson)
    st.divider()
    left, right = st.columns(2)
    if before is not None:
        left.page_link(pages[before.folder], label=f"Previous: {before.title}", icon=before.icon)
    if after is not None:
        right.page_link(pages[after.folder], label=f"Next: {after.title}", icon=after.icon)


if not STUDENT:
    menu.sidebar_menu(menu_sections)  # the course's menu (st.navigation's own is hidden)
    userdata.dataset_picker()  # the dataset and its upload, in the sidebar
    classroom.panel()  # presenter mode, seed, link: at the top of the page
current = st.navigation(sections, position="hidden")
# A page switch starts at the top (Streamlit may keep the last page's scroll position).
LAST_PAGE_KEY = "app_last_page"
if st.session_state.get(LAST_PAGE_KEY, current.url_path) != current.url_path:
    st.session_state["app_page_switches"] = st.session_state.get("app_page_switches", 0) + 1
    browser.scroll_to_top(f"page-{st.session_state['app_page_switches']}")
st.session_state[LAST_PAGE_KEY] = current.url_path
notebook.forget()  # the page's run keeps a new record of what it shows (ui/notebook.py)
shown = next((lesson for lesson in all_pages() if pages[lesson.folder] is current), None)
lesson_on_show = shown is not None and shown is not HOME and not shown.activity
if lesson_on_show and not STUDENT and not classroom.presenting():  # the projector: no record
    progress.here(shown.folder)  # this lesson's line of the browser's own record
current.run()
if shown is not None and not STUDENT:
    if shown is not HOME and not shown.activity:  # a class activity: nothing to run at home
        notebook.download_button()
    _previous_and_next(shown)
links.guard_end()
