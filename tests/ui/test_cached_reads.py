"""A shared cached result (ui.datasets.cached) is one answer for every session, so what it
computes may depend on its arguments only: never on what this session holds (presenter
mode, its widgets, its link). Each page is drawn in AppTest in presenter mode (a read is
the same in either mode; there pages also take their presenter branches), each cached
result computed afresh once, while Streamlit's session state and link proxies report a
read made while a cached function computes. Found: Group by's "shown half the time" placed by the
first session's text size for every other (charts.half_place read presenter mode; now its
text scale is an argument). The dataset rule's own reads (which dataset is active, this
session's memo) are by design."""

from __future__ import annotations

import sys
import threading

import pytest
from streamlit.runtime.state.query_params_proxy import QueryParamsProxy
from streamlit.runtime.state.session_state_proxy import SessionStateProxy

from conftest import page_apptest
from lessons.catalogue import LESSONS
from ui import classroom, datasets

# how a page reads what tells one session from another: its session state (presenter mode
# among it) and its link
READS = {
    SessionStateProxy: ("__getitem__", "get", "__contains__", "__getattr__", "setdefault"),
    QueryParamsProxy: ("__getitem__", "get", "__contains__", "__getattr__", "get_all", "to_dict"),
}
# the dataset rule's reads (ui.datasets: the active dataset, this session's memo)
BY_DESIGN = {"upload", "on_census", "active", "_session_memo"}


@pytest.mark.parametrize("folder", sorted(lesson.folder for lesson in LESSONS))
def test_no_cached_function_reads_this_sessions_state(folder: str, monkeypatch) -> None:
    # the cached functions this thread is computing now, innermost last (a lesson may warm
    # its results in a thread of its own meanwhile)
    here = threading.local()
    found: set[tuple[str, str]] = set()
    shared_get = datasets._SharedResults.get
    fresh: set = set()

    def computed_once_here(results, token, compute):
        """Every result computes once here, even where another test left it, and what it
        computes is watched."""
        if (results.name, token) in fresh:
            return shared_get(results, token, compute)
        fresh.add((results.name, token))
        computing = here.__dict__.setdefault("names", [])
        computing.append(results.name)
        try:
            return compute()
        finally:
            computing.pop()

    monkeypatch.setattr(datasets._SharedResults, "get", computed_once_here)

    def watched(kind, name):
        read = getattr(kind, name)

        def reading(self, *args, **kwargs):
            computing = getattr(here, "names", None)
            if computing and not _by_design():
                found.add((computing[-1], f"{kind.__name__}.{name}"))
            return read(self, *args, **kwargs)

        return reading

    for kind, names in READS.items():
        for name in names:
            monkeypatch.setattr(kind, name, watched(kind, name))
    at = page_apptest(f"{folder}/page.py")
    at.session_state[classroom.PRESENT_KEY] = True  # where a page has presenter branches
    at.run()
    assert not at.exception, at.exception
    assert not found, sorted(found)


def _by_design() -> bool:
    """Whether the read comes through the dataset rule's own functions."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name in BY_DESIGN:
            return True
        frame = frame.f_back
    return False
