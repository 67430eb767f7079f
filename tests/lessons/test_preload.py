"""lessons/preload.py: once per server process, the lessons' code is imported and frozen out of
the cycle collector, so Streamlit's full collection after every run stays cheap.

Each check runs in a fresh interpreter: the test process has imported much more."""

import json
import os
import subprocess
import sys
import tomllib

import pytest

from conftest import ROOT
from lessons import preload
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
        if lesson.folder in preload.LEFT_TO_FIRST_VISIT:  # the classroom's store waits
            assert not any(name.startswith(f"lessons.{lesson.folder}.") for name in modules)
            continue
        for part in ("model", "charts"):
            if (ROOT / "lessons" / lesson.folder / f"{part}.py").exists():
                assert f"lessons.{lesson.folder}.{part}" in modules


def test_scikit_learn_and_the_survey_store_wait_for_the_lessons_that_need_them():
    """0.4 s and ~37 MB, and ~12 MB: imported on first use, not at start."""
    found = probe()
    assert found["sklearn"] is False
    assert found["survey"] is False


CYCLE_PROBE = """
import gc, json, time, weakref
import lessons.preload as preload
gc.disable()  # only the collector thread may free the cycle below
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a
alive = weakref.ref(a)
del a, b
deadline = time.monotonic() + 4 * preload.COLLECT_EVERY_S
while alive() is not None and time.monotonic() < deadline:
    time.sleep(0.1)
import threading
print(json.dumps({
    "freed": alive() is None,
    "thread": any(t.name == preload.COLLECTOR_THREAD and t.daemon for t in threading.enumerate()),
}))
"""


@pytest.mark.slow
def test_a_thread_collects_cycles_every_few_seconds_instead_of_after_every_run():
    """`runner.postScriptGC` is off (a full collection per run grew with the room);
    a daemon thread frees what sessions leave in reference cycles instead."""
    done = subprocess.run(
        [sys.executable, "-c", CYCLE_PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout.splitlines()[-1])
    assert found == {"freed": True, "thread": True}
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_no_page_relies_on_magic_which_is_off():
    """`runner.magicEnabled = false` (a new session recompiles the scripts, and the
    magic rewrite was 16% of a first render): a bare expression or a string that is not a
    docstring would silently show nothing, so none may exist in app.py or a page."""
    import ast

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["magicEnabled"] is False
    scripts = [ROOT / "app.py", *(lesson.path for lesson in all_pages())]
    found = []
    for script in scripts:
        tree = ast.parse(script.read_text())
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if not isinstance(body, list):
                continue
            for index, statement in enumerate(body):
                if not isinstance(statement, ast.Expr) or isinstance(
                    statement.value, ast.Call | ast.Await
                ):
                    continue
                docstring = (
                    index == 0
                    and isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
                    and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)
                )
                if not docstring:
                    found.append(f"{script.name}:{statement.lineno}")
    assert found == []


def test_streamlit_reads_the_file_watcher_as_off():
    """With Streamlit's file watcher on (its default, what `make run` served),
    every new session walked every imported module against the watch blacklist: 1.5 s of
    server CPU per first visit instead of 0.05 s. Streamlit itself, started in the
    repository, must read it as off from .streamlit/config.toml (no command-line flag)."""
    probe = (
        "from streamlit import config\n"
        "config.get_config_options(force_reparse=True)\n"
        "print(config.get_option('server.fileWatcherType'))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert done.stdout.split()[-1] == "none"


LAUNCHER_PROBE = """
import json, os, sys
from streamlit.web import cli
seen = {}
def main(args=None, prog_name=None):  # stands in for the `streamlit` command
    seen.update(args=args, prog_name=prog_name, cwd=os.getcwd(),
                laplace="lessons.laplace.model" in sys.modules)
    return 0
cli.main = main
sys.argv = [sys.argv[1], "--server.port", "8599"]
import runpy
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as stop:
    seen["exit"] = stop.code
print(json.dumps(seen))
"""

LIFESPAN_PROBE = """
import asyncio, gc, json, sys
import deploy.asgi as server
seen = {"before": "lessons.laplace.model" in sys.modules}
async def start():
    async with server.lifespan(server.app):
        seen.update(frozen=gc.get_freeze_count(), laplace="lessons.laplace.model" in sys.modules)
asyncio.run(start())
print(json.dumps(seen))
"""


def test_the_launcher_runs_the_course_server_from_the_repository():
    """deploy/serve.py (make run, make room, the Dockerfile, the browser tests) is
    `streamlit run deploy/asgi.py`, from the repository's folder, where Streamlit finds
    .streamlit/config.toml; it imports no lesson itself."""
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHER_PROBE, str(ROOT / "deploy" / "serve.py")],
        cwd="/",
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["args"] == ["run", str(ROOT / "deploy" / "asgi.py"), "--server.port", "8599"]
    assert seen["prog_name"] == "streamlit"
    assert seen["cwd"] == str(ROOT)
    assert seen["laplace"] is False
    assert seen["exit"] == 0


def test_the_server_preloads_in_its_lifespan_before_the_first_visitor():
    """deploy/asgi.py's lifespan, which uvicorn completes before it accepts a connection:
    every lesson's code imported and frozen (the first student after a restart would
    otherwise wait for it on Home)."""
    done = subprocess.run(
        [sys.executable, "-c", LIFESPAN_PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["before"] is False
    assert seen["laplace"] is True
    assert seen["frozen"] > 100_000
