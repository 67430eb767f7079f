"""The one dataset-aware cache (ui/datasets.py): census results may be shared by every
session; nothing computed while a file is active ever enters st.cache_data or
st.cache_resource. (Reading the caches' contents uses Streamlit internals: tests only.)"""

import pandas as pd
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
# and the survey's and quiz's storage handles (not data).
ALLOWED = {"census", "class_store", "activity_store"}


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


@pytest.mark.slow
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
    census_only = {name.rsplit(".", 1)[-1] for name in datasets.census_only_names()}
    leaked = {
        k: v for k, v in shared_cache_entries().items() if k not in ALLOWED | census_only
    }  # a census-only function computes on the census whatever is uploaded (tested below)
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


def test_is_cached_says_whether_a_call_would_compute() -> None:
    @datasets.cached()
    def cube(x: int, *, sign: int = 1) -> int:
        return sign * x**3

    assert not datasets.is_cached(cube, 2)
    cube(2)
    assert datasets.is_cached(cube, 2)
    assert not datasets.is_cached(cube, 3) and not datasets.is_cached(cube, 2, sign=-1)
    cube(2, sign=-1)
    assert datasets.is_cached(cube, 2, sign=-1)
    datasets.clear_shared()
    assert not datasets.is_cached(cube, 2)
    # (on an upload it asks this session's memo: tests/lessons/dpsgd, section 7's button)


def test_cached_keys_name_the_type_so_a_check_inside_runs_for_each() -> None:
    # Python finds True == 1 == 1.0, (1, 2) == [1, 2] and -0.0 == 0.0: a key by equality
    # alone served `flag(1)` the result of `flag(True)`, skipping the check (session 50's
    # class-heist chart). Each call here must reach the function.
    @datasets.cached()
    def flag(on: object) -> str:
        if not isinstance(on, bool):
            raise TypeError(f"on must be True or False, not {on!r}")
        return "on" if on else "off"

    assert flag(True) == "on"
    with pytest.raises(TypeError, match="on must be"):
        flag(1)
    with pytest.raises(TypeError, match="on must be"):
        flag(1.0)
    assert flag(False) == "off"
    with pytest.raises(TypeError, match="on must be"):
        flag(0)
    with pytest.raises(TypeError, match="on must be"):
        flag(on=1)

    @datasets.cached()
    def kind(value: object) -> str:
        return f"{type(value).__name__} {value!r}"

    for value in ((1, 2), [1, 2], 0.0, -0.0, 2, 2.0, "2", ("a", 1), ("a", True)):
        assert kind(value) == f"{type(value).__name__} {value!r}"
    frame = pd.DataFrame({"x": [1, 2]})
    assert kind(frame.astype(float)).startswith("DataFrame") and kind(frame) == kind(frame)


def test_shared_results_are_bounded() -> None:
    @datasets.cached(max_entries=3)
    def double(x: int) -> int:
        return 2 * x

    for x in range(10):
        double(x)
    assert datasets.shared_entries()[f"{__name__}.{double.__qualname__}"] == 3


def test_result_bytes_counts_buffers_and_object_columns() -> None:
    import numpy as np
    import pandas as pd

    array = np.zeros(100_000)  # 800,000 bytes
    assert 800_000 <= datasets.result_bytes(array) < 801_000
    names = [f"person number {i}" for i in range(10_000)]  # 15-18 characters each
    frame = pd.DataFrame({"x": np.zeros(10_000), "name": names})
    # 80,000 for the floats; the text deeply (at least its characters), plus the index
    assert 80_000 + 10_000 * 15 < datasets.result_bytes(frame) < 80_000 + 10_000 * 100
    pair = (array, frame)
    assert datasets.result_bytes(pair) >= datasets.result_bytes(array) + datasets.result_bytes(
        frame
    )


def test_all_shared_results_stay_within_the_byte_budget(monkeypatch) -> None:
    import numpy as np

    datasets.clear_shared()
    monkeypatch.setattr(datasets, "SHARED_BYTES", 5 * 2**20)

    @datasets.cached()
    def block(seed: int) -> np.ndarray:  # 1 MB each
        return np.full(2**17, seed, dtype=np.int64)

    @datasets.cached()
    def other(seed: int) -> np.ndarray:
        return np.full(2**17, -seed, dtype=np.int64)

    other(1)  # the least recently used result of all: the first to go
    for seed in range(20):
        assert block(seed)[0] == seed
        assert datasets.shared_bytes() <= 5 * 2**20
    entries = datasets.shared_entries()
    assert entries[f"{__name__}.{block.__qualname__}"] == 4
    assert f"{__name__}.{other.__qualname__}" not in entries
    # The most recent results are kept, and an evicted one is computed again, equal.
    assert block(19)[0] == 19 and block(0)[0] == 0
    assert datasets.shared_bytes() <= 5 * 2**20
    datasets.clear_shared()
    assert datasets.shared_bytes() == 0


def test_results_keyed_by_the_seed_keep_at_most_seed_entries() -> None:
    # A crawler trying 200 seeds on a lesson leaves SEED_ENTRIES per
    # function, whatever the functions are.
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    seeded = []
    for path in sorted((root / "lessons").glob("*/model.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            decorators = [ast.unparse(d) for d in node.decorator_list]
            if any("cached" in d for d in decorators) and "seed" in {a.arg for a in node.args.args}:
                seeded.append(f"lessons.{path.parent.name}.model.{node.name}")
    assert len(seeded) >= 15  # the scan sees them
    import importlib

    for name in seeded:
        importlib.import_module(name.rsplit(".", 1)[0])
    # Laplace's histogram and clamping's releases are small frames swept by sliders
    # (ε × bounds × seed); the byte budget bounds them.
    swept = {
        "lessons.laplace.model.histogram",
        "lessons.clamping.model.clamped_sum",
        "lessons.clamping.model.mean_release",
    }
    bounds = {name: datasets._SHARED[name].max_entries for name in seeded if name not in swept}
    assert bounds and all(b <= datasets.SEED_ENTRIES for b in bounds.values()), bounds


@pytest.mark.slow
def test_every_lessons_defaults_fit_the_shared_budget_together(monkeypatch) -> None:
    """What every lesson computes at its defaults stays shared when a class walks through
    the whole course, and the next student's visit draws from it: nothing is evicted, with
    room to spare (a quarter of the budget, for the few seeds a class uses). Before,
    membership's question matrix alone took 36 MB of the 48, so a walk through the lessons
    pushed reconstruction's and others' defaults out and every visit recomputed them (a
    first render of 1 s instead of 0.09 s, measured with bench/room_client.py)."""
    from apptest_helpers import run_lesson

    datasets.clear_shared()
    evicted: list[tuple[str, object]] = []
    forget = datasets._forget
    monkeypatch.setattr(datasets, "_forget", lambda *key: (evicted.append(key), forget(*key)))
    for lesson in LESSONS:
        if not lesson.activity:
            run_lesson(f"{lesson.folder}/page.py")
    assert evicted == []
    assert datasets.shared_bytes() <= 0.75 * datasets.SHARED_BYTES, datasets.shared_bytes()

    # The next student's first render of every lesson converts no chart or table data: what
    # a chart draws at the defaults is a cached result (or derived from one), so its Arrow
    # form is the one made for the first student (the room's ≤ 50 ms of CPU per first render;
    # before, coin-flip rebuilt its histograms every time, choosing 8 frames, membership 9).
    from ui import tables, template

    converted: dict[str, int] = {}
    current = [""]

    def counting(convert):
        def wrapper(frame):
            converted[current[0]] = converted.get(current[0], 0) + 1
            return convert(frame)

        return wrapper

    monkeypatch.setattr(template, "arrow_table", counting(template.arrow_table))
    monkeypatch.setattr(tables, "_convert", counting(tables._convert))
    for lesson in LESSONS:
        if not lesson.activity:
            current[0] = lesson.folder
            run_lesson(f"{lesson.folder}/page.py")
    assert converted == {}
    datasets.clear_shared()


def _census_only_script() -> None:
    import types

    import pandas as pd
    import streamlit as st

    from ui import datasets

    st.session_state[datasets.UPLOAD_KEY] = types.SimpleNamespace(
        filename="planets.csv", frame=pd.DataFrame({"Planet": ["Zorbax", "Quillon"]})
    )

    @datasets.cached(census_only=True)
    def taught_on_the_census() -> tuple[bool, str, int]:
        return datasets.on_census(), datasets.active().name, len(datasets.active().frame)

    @datasets.cached()
    def on_the_active_dataset() -> tuple[bool, str, int]:
        return datasets.on_census(), datasets.active().name, len(datasets.active().frame)

    st.session_state["census_only"] = taught_on_the_census()
    st.session_state["active"] = on_the_active_dataset()
    st.session_state["is_cached"] = datasets.is_cached(taught_on_the_census)
    st.session_state["on_census_after"] = datasets.on_census()


def test_a_census_only_function_computes_on_the_census_and_shares_while_a_file_is_active():
    """Inside it the census is the active dataset (for everything it calls), so its result
    is the census's and is shared; outside it the session's file is still active, and a
    plain cached function keeps its file result in the session."""
    from streamlit.testing.v1 import AppTest

    clear_all()
    at = AppTest.from_function(_census_only_script, default_timeout=60).run()
    assert not at.exception, at.exception
    people = len(datasets.census())
    on_census, name, rows = at.session_state["census_only"]
    assert on_census and name.endswith(f"({people:,} people)") and rows == people
    assert at.session_state["active"] == (False, "Your file: planets.csv (2 rows)", 2)
    assert at.session_state["is_cached"] and not at.session_state["on_census_after"]
    shared = {name.rsplit(".", 1)[-1] for name in datasets.shared_entries()}
    assert "taught_on_the_census" in shared and "on_the_active_dataset" not in shared
    assert any(n.endswith("taught_on_the_census") for n in datasets.census_only_names())
    clear_all()


def test_derived_is_made_once_per_result_object_and_goes_with_it():
    """What a page derives from a cached result (the same object for every session)
    is derived once per object and arguments; an equal but other object, or other arguments,
    get their own; an entry goes with its object; a list (no weak reference) is recomputed."""
    import gc

    calls = []

    @datasets.derived
    def labelled(frame: pd.DataFrame, suffix: str = "") -> pd.DataFrame:
        calls.append(suffix)
        return frame.assign(label=frame["x"].astype(str) + suffix)

    frame = pd.DataFrame({"x": [1, 2]})
    first = labelled(frame, "!")
    assert labelled(frame, "!") is first and calls == ["!"]
    assert labelled(frame, suffix="?")["label"].tolist() == ["1?", "2?"]
    assert labelled(frame.copy(), "!") is not first and len(calls) == 3
    mine = [key for key in datasets._DERIVED if key[0] == id(frame)]
    assert len(mine) == 2  # "!" and "?"; the copy's went with the copy
    del frame, first
    gc.collect()
    assert not any(key in datasets._DERIVED for key in mine)

    total = datasets.derived(lambda values: sum(values))
    assert total([1, 2]) == 3 and total([1, 2]) == 3
