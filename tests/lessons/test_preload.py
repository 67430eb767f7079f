"""lessons/preload.py: once per server process, the lessons' code is imported and frozen out of
the cycle collector, so Streamlit's full collection after every run stays cheap.

Each check runs in a fresh interpreter: the test process has imported much more."""

import json
import subprocess
import sys

from conftest import ROOT
from lessons.catalogue import all_pages

PROBE = """
import gc, json, sys
import lessons.preload
tracked = len(gc.get_objects())
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "tracked": tracked,
    "modules": sorted(name for name in sys.modules if name.startswith("lessons.")),
    "sklearn": any(name == "sklearn" or name.startswith("sklearn.") for name in sys.modules),
    "survey": any(name == "survey" or name.startswith("survey.") for name in sys.modules),
}))
"""


def probe() -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_the_lessons_code_is_frozen_and_a_full_collection_walks_little():
    found = probe()
    # pandas, Altair, scipy, Streamlit and the lessons: well over 100,000 objects frozen.
    assert found["frozen"] > 100_000
    # What a full collection still walks is a small remainder (without the freeze: all).
    assert found["tracked"] < found["frozen"] / 20


def test_every_lesson_model_and_chart_module_is_imported_up_front():
    modules = set(probe()["modules"])
    for lesson in all_pages():
        if lesson.folder == "class_survey":
            assert not any(name.startswith("lessons.class_survey.") for name in modules)
            continue
        for part in ("model", "charts"):
            if (ROOT / "lessons" / lesson.folder / f"{part}.py").exists():
                assert f"lessons.{lesson.folder}.{part}" in modules


def test_scikit_learn_and_the_survey_store_wait_for_the_lessons_that_need_them():
    """0.4 s and ~37 MB, and ~12 MB: imported on first use, not at start."""
    found = probe()
    assert found["sklearn"] is False
    assert found["survey"] is False
