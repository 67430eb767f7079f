"""A shared cached result (ui.datasets.cached) is one answer for every session, so what it
computes may depend on its arguments only: never on what this session holds (presenter
mode, its widgets, its link). Each page is drawn in AppTest in presenter mode (a read is
the same in either mode; there pages also take their presenter branches), each cached
result computed afresh once, while a profiler watches for a read of this session's state
made from inside a cached function. Found: Group by's "shown half the time" placed by the
first session's text size for every other (charts.half_place read presenter mode; now its
text scale is an argument). The dataset rule's own reads (which dataset is active, this
session's memo) are by design."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from conftest import page_apptest
from lessons.catalogue import LESSONS
from ui import classroom, datasets

# what tells one session from another, read through ui/ or Streamlit's session state
SESSION_READS = {"current_text_scale", "presenting", "presenting_at_start", "_query_params"}
STATE_READS = {"__getitem__", "get", "__contains__", "__getattr__", "setdefault"}
# the dataset rule's reads (ui.datasets: the active dataset, this session's memo)
BY_DESIGN = {"upload", "on_census", "active", "_session_memo"}
CACHED_CODE = datasets.cached.__code__.co_filename
UI = str(Path(datasets.__file__).parent)


def _reads_inside_cached(run) -> set[tuple[str, str]]:
    """(cached function, what it read) for every read of session state made while a cached
    function computed, during `run()` on this thread and the script's."""
    found: set[tuple[str, str]] = set()

    def watch(frame, event, _arg):
        if event != "call":
            return
        code = frame.f_code
        name = code.co_name
        own = name in SESSION_READS and code.co_filename.startswith(UI)
        state = name in STATE_READS and "streamlit" in code.co_filename
        if not (own or (state and "session_state" in code.co_filename)):
            return
        seen = set()
        outer = frame.f_back
        while outer is not None:
            seen.add(outer.f_code.co_name)
            if outer.f_code.co_name == "wrapper" and outer.f_code.co_filename == CACHED_CODE:
                if not seen & BY_DESIGN:
                    fn = outer.f_locals.get("fn")
                    found.add((f"{fn.__module__}.{fn.__qualname__}", name))
                return
            outer = outer.f_back

    sys.setprofile(watch)
    threading.setprofile(watch)
    try:
        run()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return found


@pytest.mark.parametrize("folder", sorted(lesson.folder for lesson in LESSONS))
def test_no_cached_function_reads_this_sessions_state(folder: str, monkeypatch) -> None:
    # every result computes once here, even where another test left it
    shared_get = datasets._SharedResults.get
    fresh: set = set()

    def computed_once_here(results, token, compute):
        if (results.name, token) in fresh:
            return shared_get(results, token, compute)
        fresh.add((results.name, token))
        return compute()

    monkeypatch.setattr(datasets._SharedResults, "get", computed_once_here)
    at = page_apptest(f"{folder}/page.py")
    at.session_state[classroom.PRESENT_KEY] = True  # where a page has presenter branches
    found = _reads_inside_cached(at.run)
    assert not at.exception, at.exception
    assert not found, sorted(found)
