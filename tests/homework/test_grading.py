"""grading/autograder.py's parts, one by one: what passes between the processes (data only),
and the reading of a notebook's code for a function that calls dp/."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from homework import exercises, wire
from homework.reading import refused


def test_values_pass_as_data_and_come_back_equal() -> None:
    rng = np.random.default_rng(5)
    rng.random(3)
    value = [1, 2.5, float("inf"), None, True, "a", (1, 2), {"k": np.arange(4.0)}, ...]
    back = wire.decode(wire.encode(value))
    assert back[:7] == [1, 2.5, float("inf"), None, True, "a", (1, 2)]
    assert back[8] is Ellipsis
    np.testing.assert_array_equal(back[7]["k"], np.arange(4.0))
    copy = wire.decode(wire.encode(rng))
    assert copy.random() == rng.random()  # the same stream, from where it stood


@pytest.mark.parametrize(
    "value", [object(), {1: 2}, np.array(["a"]), lambda x: x, np.empty(2, dtype=object)]
)
def test_anything_else_is_refused_by_name(value) -> None:
    with pytest.raises(TypeError, match="a "):
        wire.encode(value)


@pytest.mark.parametrize(
    "data", [{"t": "pickle", "v": "..."}, {"t": "array", "dtype": "O", "shape": [1], "v": [1]}]
)
def test_decoding_never_builds_code_or_objects(data) -> None:
    with pytest.raises(ValueError):
        wire.decode(data)


@pytest.mark.parametrize(
    "data",
    [
        {"t": "dict", "v": [1]},  # AttributeError: a list has no .items()
        {"t": "rng", "state": 5},  # AttributeError
        {"t": "array", "dtype": "i1", "shape": [1], "v": [1000]},  # OverflowError
        {"t": "float", "v": 10**400},  # OverflowError
        {"t": "array", "dtype": "f8", "shape": [float("inf")], "v": [1.0]},  # OverflowError
        {"t": "array", "dtype": {"a": 1}, "shape": [1], "v": [1]},  # TypeError
        {"t": "tuple", "v": 5},  # TypeError
        {"t": "float"},  # KeyError
        {"t": "rng", "state": {"bit_generator": "PCG64", "state": 1}},  # numpy's own error
        [{"t": "dict", "v": {"k": {"t": "array", "dtype": "f8", "shape": [2], "v": [1]}}}],
    ],
)
def test_malformed_data_of_any_kind_is_a_value_error(data) -> None:
    """The grader reads what the notebook's process sends with one except clause: whatever
    is wrong with the data, decoding it raises ValueError (an AttributeError escaped it and
    stopped the whole grader, no results written)."""
    with pytest.raises(ValueError, match="not wire data|an array|nested|only NumPy|cannot"):
        wire.decode(data)


def _received(body: bytes, tmp_path) -> object:
    """What a Channel reads from a stream holding `body` as one length-prefixed message."""
    path = tmp_path / "stream"
    path.write_bytes(struct.pack(">I", len(body)) + body)
    with path.open("rb") as stream:
        return wire.Channel(stream.fileno(), -1).receive()


@pytest.mark.parametrize(
    "body",
    [
        b'{"ready": true, "errors": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # RecursionError
        b"not json",
        b"[1, 2]",  # JSON, but not a message
        b'{"a": "\xff"}',  # not UTF-8
    ],
    ids=["nested-100000-deep", "not-json", "a-list", "not-utf-8"],
)
def test_a_stream_that_holds_no_message_is_unreadable_not_a_crash(body, tmp_path) -> None:
    with pytest.raises(wire.Unreadable):
        _received(body, tmp_path)


def test_a_message_larger_than_the_grader_reads_is_refused_unread(tmp_path) -> None:
    """Its length alone refuses it: not a byte of its body is read (a 60 MB answer took the
    grader's memory from 136 MB to 979 MB; 8 MB is ~400,000 numbers, the course's largest
    message 2.5 KB)."""
    path = tmp_path / "stream"
    path.write_bytes(struct.pack(">I", wire.MAX_BYTES + 1) + b"{")  # the body never comes
    with path.open("rb") as stream:
        channel = wire.Channel(stream.fileno(), -1)
        with pytest.raises(wire.Unreadable, match="larger than 8 MB"):
            channel.receive()
        assert os.lseek(stream.fileno(), 0, os.SEEK_CUR) == 4  # its header only
    with pytest.raises(ValueError, match="larger than 8 MB"):
        wire.Channel(-1, -1).send({"v": "x" * wire.MAX_BYTES})  # nor sent


def test_a_message_and_the_end_of_the_stream_are_read_as_they_are(tmp_path) -> None:
    assert _received(b'{"ready": true}', tmp_path) == {"ready": True}
    path = tmp_path / "empty"
    path.write_bytes(b"")
    with path.open("rb") as stream:
        assert wire.Channel(stream.fileno(), -1).receive() is None  # closed before a message


MINE = "def f(x, rng):\n    return x + rng.laplace(0, 1)\n"
DEEP = "K = " + "+".join(["1"] * 100_000) + "\n"  # nested past what Python's parser reads


@pytest.mark.parametrize(
    ("cells", "reason"),
    [
        ([MINE], None),
        (["import numpy as np\n", "import math\n", MINE], None),
        (
            ["import dp\n", "def f(x, rng):\n    return dp.laplace_mechanism(x, 1, 1, rng=rng)\n"],
            "dp",
        ),
        (["import dp as d\n", "def f(x, rng):\n    return d.laplace_mechanism(x, 1, 1)\n"], "dp"),
        (
            [
                "from dp import laplace_mechanism as lm\n",
                "def f(x, rng):\n    return lm(x, 1, 1)\n",
            ],
            "dp",
        ),
        (["from dp import *\n", "def f(x, rng):\n    return laplace_mechanism(x, 1, 1)\n"], "dp"),
        (
            [
                "import dp\n",
                "g = dp.laplace_mechanism\n",
                "def f(x, rng):\n    return g(x, 1, 1)\n",
            ],
            "dp",
        ),
        (
            [
                "import dp\n",
                "def h(x):\n    return dp.laplace_mechanism(x, 1, 1)\n",
                "def f(x, rng):\n    return h(x)\n",
            ],
            "dp",
        ),
        (
            ["def f(x, rng):\n    import importlib\n    return importlib.import_module('dp')\n"],
            "module:importlib",
        ),
        (["import dp\n", "%timeit 1\n", MINE], None),  # dp imported, not used by f
        # Findings: each of these scored full marks with dp's own mechanism inside.
        # a name computed at run time
        (
            [
                "import importlib\n",
                "def f(x, rng):\n    m = importlib.import_module('d' + 'p')\n"
                "    return m.laplace_mechanism(x, 1, 1, rng=rng)\n",
            ],
            "loader:.import_module",
        ),
        (
            ["def f(x, rng):\n    return __import__('sys').modules['d' + 'p']\n"],
            "loader:__import__",
        ),
        (
            ["import sys\n", "m = sys.modules['d' + 'p']\n", "def f(x):\n    return m\n"],
            "loader:sys",
        ),
        (["def f(x):\n    return f.__globals__['d' + 'p']\n"], "loader:.__globals__"),
        (["def f(x):\n    return getattr(f, '__glo' + 'bals__')\n"], "loader:getattr"),
        (
            ["import numpy as np\n", "def f(x):\n    return np.load('p', allow_pickle=True)\n"],
            "loader:.load",
        ),
        (["def f(x):\n    return eval('d' + 'p')\n"], "loader:eval"),
        # the course's packages, which use dp
        (
            ["import homework.lessons.laplace as h\n", "def f(x):\n    return h.dp\n"],
            "dp",
        ),
        (
            ["from homework.lessons.laplace import dp as q\n", "def f(x):\n    return q\n"],
            "course:homework",
        ),
        (
            ["from homework.lessons import laplace\n", "def f(x):\n    return laplace.x\n"],
            "course:homework",
        ),
        # a cell only IPython reads was skipped whole, and the function in it with it
        (
            ["x = !echo hi\nimport dp\ndef f(x, rng):\n    return dp.laplace_mechanism(x, 1, 1)\n"],
            "dp",
        ),
        # a cell magic that runs its body here is read; others, and exec, cannot be
        (
            ["%%capture\nimport dp\ndef f(x):\n    return dp.laplace_mechanism(x, 1, 1)\n"],
            "dp",
        ),
        (["%%time\nimport math\ndef f(x):\n    return math.sqrt(x)\n"], None),
        (["%%script python\ndef f(x):\n    return x\n"], "unreadable:f"),
        (["%run helper.py\n"], "unreadable:f"),
        # what a statement changes of an object the function uses is read with it
        (
            [
                "import dp\n",
                "class C:\n    pass\n",
                "C.f = dp.laplace_mechanism\n",
                "def f(x):\n    return C.f(x, 1, 1)\n",
            ],
            "dp",
        ),
        (
            [
                "import dp\n",
                "helpers = []\n",
                "helpers.append(dp.laplace_mechanism)\n",
                "def f(x):\n    return helpers[0](x, 1, 1)\n",
            ],
            "dp",
        ),
        (
            ["import dp\n", "box = {}\n", "box['m'] = dp\n", "def f(x):\n    return box['m']\n"],
            "dp",
        ),
        # what the notebook shows beside its function is not the function's
        (
            [
                "import numpy as np\n",
                "display(np.mean([1]))\n",
                "def f(x):\n    return np.sqrt(x)\n",
            ],
            None,
        ),
        (
            ["import dp\n", "dp.laplace_mechanism\n", "def f(x):\n    return Out[2](x, 1, 1)\n"],
            "unreadable:Out",
        ),
        # a cell nested past what Python parses (100,000 additions in a row) raised out of
        # the grader's reading, which then wrote no results at all
        ([DEEP, MINE], None),
        ([DEEP, "def f(x):\n    return x + K\n"], "unreadable:K"),
        # a cell anywhere that can swap the function after it is read (each scored full
        # marks: the function read was the student's, the one graded dp's)
        (["import dp\n", MINE, "globals()['f'] = dp.laplace_mechanism\n"], "rebinds:globals"),
        (
            ["import dp\n", MINE, "def g():\n    exec('f = dp.laplace_mechanism')\n", "g()\n"],
            "rebinds:exec",
        ),
        (
            ["import dp\n", MINE, "MINE_f = f\n", "MINE_f.__globals__['f'] = dp\n"],
            "rebinds:.__globals__",
        ),
        (
            ["import dp, __main__\n", MINE, "__main__.f = dp.laplace_mechanism\n"],
            "rebinds:import __main__",
        ),
        (
            ["import dp\n", "import __main__ as m\n", MINE, "setattr(m, 'f', dp)\n"],
            "rebinds:import __main__",
        ),
        (["%store -r f\n", MINE], "rebinds:%store"),
        (["%%debug\nf = 1\n", MINE], "rebinds:%%debug"),
        (["%%python3\nf = 1\n", MINE], None),  # a subprocess: it changes nothing here
        (["shell = get_ipython()\n", MINE], "rebinds:get_ipython()"),
        # a notebook's own plain lines are not
        (["%matplotlib inline\n", "x = !ls\n", "%%writefile n.txt\nhi\n", MINE], None),
        (["%pip install numpy\n", "%who\n", MINE], None),
        (["%%time\nimport math\n", MINE], None),
        # a module of the student's own (handed in, or written by %%writefile), or one that
        # runs code from a string
        (
            [
                "%%writefile mine.py\nfrom dp import *\n",
                "import mine\n",
                "f = mine.laplace_mechanism\n",
            ],
            "module:mine",
        ),
        (["import pydoc\n", "def f(x):\n    return pydoc.locate('d' + 'p')\n"], "module:pydoc"),
        (["from timeit import Timer\n", "def f(x):\n    return Timer\n"], "module:timeit"),
        (["import statistics, collections\n", "def f(x):\n    return statistics.mean(x)\n"], None),
        (
            ["%%capture\nimport dp\ndef h(x):\n    return dp\n", "def f(x):\n    return h(x)\n"],
            "dp",
        ),
        (["exec('def f(x): return x')\n"], "unreadable:f"),
        (["def f(x):\n    return len([x]) + abs(x)\n"], None),  # builtins are no helper
        # every binding of a name is read: a later, conditional one does not hide the first
        (
            [
                "import dp\n",
                "g = dp.laplace_mechanism\n",
                "if False:\n    g = abs\n",
                "def f(x):\n    return g(x)\n",
            ],
            "dp",
        ),
    ],
)
def test_what_a_graded_function_reaches_is_read_from_the_notebooks_code(cells, reason) -> None:
    """The kind of what is found (the first thing read of several may differ)."""
    found = refused(cells, "f")
    assert (found and found.split(":")[0]) == (reason and reason.split(":")[0]), found
    if reason is not None and reason.startswith("rebinds:"):  # said as the student wrote it
        assert found == reason


def test_no_solution_is_refused() -> None:
    """Every lesson's solution notebook, as handed in (the setup cell, the lesson's cells,
    the checks): what the grader reads of each graded function finds nothing."""
    from homework import build
    from homework.lessons import LESSONS

    for lesson in LESSONS:
        notebook = build.notebook_for(lesson, solutions=True)
        sources = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
        for exercise in exercises(lesson):
            if exercise.grade is not None:
                assert refused(sources, exercise.name) is None, exercise.id


def test_an_oracle_keeps_nothing_of_what_it_is_asked() -> None:
    """The reconstruction exercise hands the student's code an oracle that runs in the grader,
    called as often as that code likes within the exercise's time: what it is asked must not
    pile up in the grader (it kept every subset asked, unread: 30 questions of 100,000 indices
    held 24 MB; as many as 180 s allow, gigabytes)."""
    from homework.lessons.reconstruction import grade_rebuild

    big = [0] * 100_000
    first = [True]

    def rebuild(answer, n):
        if first.pop() if first else False:
            for _ in range(30):
                answer(big)
        return [answer([i]) for i in range(n)]

    tracemalloc.start()
    try:
        assert grade_rebuild(rebuild).passed
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024**2, f"{peak / 2**20:.0f} MB at the peak"


def test_a_notebook_process_that_cannot_start_is_a_worded_failure(tmp_path, monkeypatch) -> None:
    """No process left to start the notebook's Python with (what a fork bomb's leftovers
    would do to a container): the exercise fails with a sentence, the grader goes on, and
    the pipes it opened are closed (the OSError escaped and stopped the grader)."""
    from grading import autograder

    (tmp_path / "submission").mkdir()
    (tmp_path / "submission.ipynb").write_text("{}")

    def no_process(*args, **kwargs):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(autograder.subprocess, "Popen", no_process)
    sandbox = autograder.Sandbox(tmp_path / "submission.ipynb", tmp_path / "submission", tmp_path)
    open_before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(autograder.Broken, match="could not start the notebook's Python"):
        sandbox.start()
    assert len(os.listdir("/proc/self/fd")) == open_before
    assert not sandbox.alive


def test_the_notebooks_process_is_the_first_the_kernel_stops_when_memory_runs_out(
    tmp_path,
) -> None:
    """Gradescope's container has 768 MB by default, below the 4 GB the notebook's process may
    take: when the container runs out, the kernel's out-of-memory killer must stop that
    process, never the grader (then no results at all)."""
    import nbformat
    from nbformat import v4

    from grading import autograder

    (tmp_path / "submission").mkdir()
    notebook = tmp_path / "submission.ipynb"
    nbformat.write(v4.new_notebook(cells=[v4.new_code_cell("x = 1")]), notebook)
    lib = autograder._student_lib(autograder.SOURCE)
    sandbox = autograder.Sandbox(notebook, tmp_path / "submission", lib)
    try:
        sandbox.start()
        adj = Path(f"/proc/{sandbox.process.pid}/oom_score_adj").read_text().strip()
    finally:
        sandbox.kill()
        shutil.rmtree(lib, ignore_errors=True)
    assert adj == "1000"
    assert Path("/proc/self/oom_score_adj").read_text().strip() != "1000"  # the grader's own


# --- the handed-in notebook's file ---------------------------------------------------------
def _handed_in(tmp_path: Path, notebook, name: str = "submission.ipynb") -> Path:
    import nbformat

    submission = tmp_path / "submission"
    submission.mkdir()
    if isinstance(notebook, bytes):
        (submission / name).write_bytes(notebook)
    else:
        nbformat.write(notebook, submission / name)
    return submission


def _with_outputs(megabytes: float):
    """The Laplace starter with a cell whose outputs (chart data, as a run notebook keeps
    them) take about `megabytes`."""
    from nbformat import v4

    from homework import build

    notebook = build.notebook_for("laplace", solutions=False)
    chart = {"application/vnd.vegalite.v5+json": {"values": [[i, i / 2] for i in range(4000)]}}
    many = int(megabytes * 2**20 / len(json.dumps(chart)))
    cell = v4.new_code_cell("x = 1")
    cell.outputs = [v4.new_output("display_data", data=chart) for _ in range(many)]
    notebook.cells.append(cell)
    return notebook


def test_a_notebooks_code_is_read_without_its_outputs(tmp_path) -> None:
    import nbformat

    from grading import autograder

    notebook = _with_outputs(0.2)
    notebook.cells[0].attachments = {"a.png": {"image/png": "AAAA"}}
    source = _handed_in(tmp_path, notebook) / "submission.ipynb"
    autograder._code_only(source, tmp_path / "code.ipynb")
    code = nbformat.read(tmp_path / "code.ipynb", as_version=4)
    assert [c.source for c in code.cells] == [c.source for c in notebook.cells]
    assert all(not c.get("outputs") and "attachments" not in c for c in code.cells)
    assert (tmp_path / "code.ipynb").stat().st_size < source.stat().st_size / 10


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"not a notebook", "could not be read: json.decoder.JSONDecodeError"),
        (b"[1, 2]", "could not be read:"),
        (b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "could not be read:"),
    ],
    ids=["not-json", "a-list", "nested-100000-deep"],
)
def test_a_notebook_that_cannot_be_read_scores_0_with_a_message(tmp_path, content, says) -> None:
    from grading import autograder

    submission = _handed_in(tmp_path, content)
    out = autograder.grade_submission("laplace", submission, tmp_path / "results.json")
    assert out["score"] == 0
    assert all(says in test["output"] for test in out["tests"]), out["tests"][0]["output"]


def test_a_notebook_over_the_size_the_grader_reads_is_told_to_clear_its_outputs(
    tmp_path, monkeypatch
) -> None:
    from grading import autograder

    monkeypatch.setattr(autograder, "NOTEBOOK_BYTES", 100 * 1024)
    submission = _handed_in(tmp_path, _with_outputs(0.3))
    out = autograder.grade_submission("laplace", submission, tmp_path / "results.json")
    assert out["score"] == 0
    says = "the grader reads at most 0 MB: clear its outputs"
    assert all(says in test["output"] for test in out["tests"]), out["tests"][0]["output"]


# The grader's peak resident memory from /proc (VmHWM: getrusage's ru_maxrss of a process
# started by a large one reports that one's size), in MB, and the score.
GRADE_AND_MEASURE = """
import re, sys
from pathlib import Path
from grading import autograder
out = autograder.grade_submission("laplace", Path(sys.argv[1]), Path(sys.argv[2]))
peak = re.search(r"VmHWM:\\s+(\\d+) kB", Path("/proc/self/status").read_text()).group(1)
print(int(peak) // 1024, out["score"])
"""


def test_a_notebook_with_large_outputs_is_graded_within_a_small_containers_memory(
    tmp_path,
) -> None:
    """Gradescope's container has 768 MB by default. The grader read the whole notebook with
    nbformat, twice: a 52 MB notebook of chart outputs took it to 872 MB (no results at all);
    its code is now read in a process of its own, and the grader stays near its own size."""
    from grading import autograder

    root = Path(__file__).resolve().parents[2]
    submission = _handed_in(tmp_path, _with_outputs(9))
    size_mb = (submission / "submission.ipynb").stat().st_size / 2**20
    assert 20 < size_mb < autograder.NOTEBOOK_BYTES / 2**20, size_mb  # read, not refused
    done = subprocess.run(
        [sys.executable, "-c", GRADE_AND_MEASURE, str(submission), str(tmp_path / "r.json")],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    peak_mb, score = done.stdout.split()
    assert float(score) == 0  # the starter: graded, every exercise "replace the starter"
    print(f"the grader's peak: {peak_mb} MB for a {size_mb:.0f} MB notebook")
    assert int(peak_mb) < 250, f"the grader's peak: {peak_mb} MB ({size_mb:.0f} MB notebook)"


def test_a_notebook_handed_in_as_a_link_is_not_read(tmp_path) -> None:
    """The grader reads what it is handed as root: a link (to one of its own files, say) is
    not a notebook it opens, however it is named."""
    from grading import autograder

    submission = tmp_path / "submission"
    submission.mkdir()
    (tmp_path / "elsewhere.ipynb").write_text('{"cells": [], "nbformat": 4}')
    (submission / "submission.ipynb").symlink_to(tmp_path / "elsewhere.ipynb")
    out = autograder.grade_submission("laplace", submission, tmp_path / "results.json")
    assert out["score"] == 0
    assert all("a file and not a link (found: none)" in t["output"] for t in out["tests"])


def test_a_notebook_with_more_code_than_the_grader_parses_is_told_so(tmp_path) -> None:
    """The grader parses the notebook's code (does a function call dp/?): 9.5 MB of code, a
    list of five million 1s, took it to a 4.9 GB peak. More than 256 KB of code (the course's
    notebooks hold at most 6 KB) is not parsed, and the student is told why."""
    from nbformat import v4

    from grading import autograder
    from homework import build

    notebook = build.notebook_for("laplace", solutions=True)
    notebook.cells.append(v4.new_code_cell("data = [" + "1," * 140_000 + "]"))
    submission = _handed_in(tmp_path, notebook)
    out = autograder.grade_submission("laplace", submission, tmp_path / "results.json")
    assert out["score"] == 0
    says = "KB of code, and the grader reads at most 256 KB"
    assert all(says in test["output"] for test in out["tests"]), out["tests"][0]["output"]
