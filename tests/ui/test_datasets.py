"""The one dataset-aware cache (ui/datasets.py): census results may be shared by every
session; nothing computed while a file is active ever enters st.cache_data or
st.cache_resource. (Reading the caches' contents uses Streamlit internals: tests only.)"""

import pytest
import streamlit as st
from streamlit.runtime.caching import cache_data_api, cache_resource_api

from apptest_helpers import hosted_lesson, upload_csv
from lessons.catalogue import LESSONS
from ui import datasets

# A file whose every value is its own: nothing derived from it can be mistaken for the census.
ROWS = ["Planet,Moon,Weight"] + [
    f"{planet},{moon},{weight}"
    for planet, moon, weight in [("Zorbax", "Io", 3), ("Quillon", "Nix", 5), ("Zorbax", "Nix", 8)]
    * 40
]
FILE = ("planets.csv", ("\n".join(ROWS) + "\n").encode())
# What may be in a shared cache while a file is active: the bundled census itself (public),
# and the survey's storage handles (not data).
ALLOWED = {"census", "survey_store", "rate_limiter"}


def clear_all() -> None:
    st.cache_data.clear()
    st.cache_resource.clear()
    datasets.clear_shared()


def shared_cache_entries() -> dict[str, int]:
    """Entries per cached function, over the dataset cache's shared results and every
    st.cache_data and st.cache_resource."""
    counts = {name.rsplit(".", 1)[-1]: n for name, n in datasets.shared_entries().items()}
    for manager in (cache_data_api._data_caches, cache_resource_api._resource_caches):
        for stats in manager.get_stats().values():
            for stat in stats:
                name = stat.cache_name.rsplit(".", 1)[-1]
                counts[name] = counts.get(name, 0) + 1
    return counts


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.folder for lesson in LESSONS])
def test_an_upload_leaves_nothing_in_a_cache_shared_between_sessions(lesson) -> None:
    clear_all()
    at = hosted_lesson(lesson.file, sidebar=False, timeout_s=60)
    before = shared_cache_entries()  # the census run: shared results are allowed
    clear_all()
    upload_csv(at, *FILE)
    assert not at.exception, at.exception
    for slider in at.select_slider:  # move every ε slider: new results on the file
        if (slider.key or "").endswith("eps"):
            slider.set_value(0.5 if slider.value != 0.5 else 2.0)
    at.run()
    assert not at.exception, at.exception
    leaked = {k: v for k, v in shared_cache_entries().items() if k not in ALLOWED}
    assert leaked == {}, f"{lesson.folder}: computed on the upload and shared: {leaked}"
    assert before or lesson.folder in ("class_survey",)  # the check itself can see entries


def test_the_census_does_share_its_results() -> None:
    # The other half of the rule, and proof that the scan above sees real entries.
    clear_all()
    hosted_lesson("laplace/page.py", sidebar=False, timeout_s=60)
    assert {"histogram", "people_aged_at_least"} <= set(shared_cache_entries())


def test_cached_keeps_a_files_results_in_its_session_only() -> None:
    calls = []

    @datasets.cached()
    def square(x: int) -> int:
        calls.append(x)
        return x * x

    # Outside a session, on the census: the shared results answer the second call.
    assert square(3) == 9 and square(3) == 9
    assert calls == [3]
    assert datasets.shared_entries()[f"{__name__}.{square.__qualname__}"] == 1


def test_shared_results_are_bounded() -> None:
    @datasets.cached(max_entries=3)
    def double(x: int) -> int:
        return 2 * x

    for x in range(10):
        double(x)
    assert datasets.shared_entries()[f"{__name__}.{double.__qualname__}"] == 3
