"""Grade a submitted notebook as Gradescope's autograder does, with the student's code kept out
of the grader's process, and write results/results.json in Gradescope's documented format.

    python -m grading.autograder LESSON SUBMISSION_DIR RESULTS_JSON

How. The notebook's code cells run in another Python process (homework/runner.py), in a
fresh folder, with only what a student has on its path (dp/, homework/, ui/: no grading/),
limits on memory, file size and time, and, when the grader runs as root (Gradescope does),
as the unprivileged user `nobody`, with the autograder's own folder closed to it. The grader
then asks that process for each exercise's name: a fixed answer comes back as data and is
graded here against grading/lessons; a function is graded here by the lesson's grade on the
hidden cases, each call sent to the student's process and only its result sent back. What
the notebook prints, patches or defines never reaches this process: the score and its
feedback are computed and written here alone. A function that refers to dp/ (the notebook's
code says so) scores 0. A notebook that loops, allocates too much or exits loses what it
broke, with a message, and the grader carries on.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import json
import math
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat
import numpy as np

import grading
from homework import exercises, wire
from homework.core import Exercise, Result
from homework.reading import refusal_feedback, refused

SOURCE = Path(__file__).resolve().parents[1]  # the autograder's folder: dp/, homework/, …
STUDENT_LIB = ("dp", "homework", "ui")  # what a student has, copied for the notebook's process
RUN_S = float(os.environ.get("GRADER_RUN_S", 600))  # the notebook's cells, all of them
EXERCISE_S = float(os.environ.get("GRADER_EXERCISE_S", 180))  # one exercise's calls
# Everything, restarts included: Gradescope stops an autograder at 10 minutes by default, and
# one it stops scores 0 with no feedback at all (its documentation, "Your submission timed
# out"). So the grader ends by 9, each exercise it had no time for worded.
TOTAL_S = float(os.environ.get("GRADER_TOTAL_S", 540))
MEMORY_BYTES = int(os.environ.get("GRADER_MEMORY_BYTES", 4 * 1024**3))
FILE_BYTES = 64 * 1024**2
# A handed-in notebook's file, outputs included. Reading a notebook's JSON takes several times
# its size in memory (a 52 MB notebook of chart outputs: 335 MB with json, 791 MB with
# nbformat, and the grader read it twice: 872 MB at its peak, past Gradescope's default 768
# MB, so no results at all). Its code is read in a process of its own (CODE_ONLY), which
# leaves the grader a copy without outputs: 64 MB of notebook is ~420 MB there, once.
NOTEBOOK_BYTES = 64 * 1024**2
# The notebook's code, every code cell together. The grader parses it (homework/reading.py), and a
# parse takes ~500 times the code's size at worst (a list of 5 million 1s, 9.5 MB of code: a
# 4.9 GB peak and 10 s); the course's notebooks hold at most 6 KB. 256 KB: ~125 MB at worst.
CODE_BYTES = 256 * 1024
RESTARTS = 3  # a notebook process that died or timed out is started again this often
NOBODY = 65534
# Processes and threads the notebook's user may have at once, where it runs as `nobody`: a
# fork bomb stops here instead of taking every process the container allows (then the grader
# could not start the next notebook, nor anything else). The runner needs a few.
PROCESSES = 64
FEEDBACK_CHARS = 300
# What the notebook's process sent is not a message (wire.Unreadable): only a cell that
# rewrote how the notebook answers the grader does that; the grader says so and goes on.
UNREADABLE = (
    "The notebook's Python answered the grader with something that is not a message: does a "
    "cell change how the notebook talks to the grader?"
)


# The notebook at argv[1] without its cells' outputs and attachments, written to argv[2]
# (JSON, any nbformat version: nbformat reads the copy).
CODE_ONLY = """
import json, sys
with open(sys.argv[1], encoding="utf-8") as source:
    notebook = json.load(source)
sheets = notebook.get("worksheets") or [notebook]
for cell in [c for sheet in sheets for c in sheet.get("cells") or []]:
    if isinstance(cell, dict):
        cell.pop("attachments", None)
        if "outputs" in cell:
            cell["outputs"] = []
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump(notebook, out)
"""


def _first_to_go() -> None:
    """Make the calling process the first the kernel stops when the container runs out of
    memory (Gradescope's default is 768 MB): a student's process, never the grader."""
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as adj:
        adj.write("1000")


def _code_only(notebook: Path, out: Path) -> None:
    """Write `out`: the notebook without outputs, read in a process of its own (the one the
    kernel stops first when memory runs out); ValueError saying why it cannot be read."""

    done = subprocess.run(
        [sys.executable, "-c", CODE_ONLY, str(notebook), str(out)],
        capture_output=True,
        text=True,
        timeout=30,  # 64 MB reads in 1-2 s; with TOTAL_S, inside Gradescope's 10 minutes
        preexec_fn=_first_to_go,
    )
    if done.returncode < 0:  # stopped by a signal: the kernel, out of memory
        raise ValueError("reading it took more memory than the grader has; clear its outputs")
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise ValueError(lines[-1][:200])


def _handed_in_file(path: Path) -> bool:
    """A regular file of the submission, not a link: the grader copies what it reads as root,
    and a link handed in (a repository or an archive can hold one) to the grader's own files
    gave the notebook's process the solutions (the starter scored 4 of 4)."""
    return stat.S_ISREG(path.lstat().st_mode)


def time_up(when: str) -> str:
    """Feedback for an exercise the grader's TOTAL_S left no time for."""
    return (
        f"The grading ran out of its {TOTAL_S:.0f} s for the whole notebook {when}: does a "
        "cell or a function take very long?"
    )


class Broken(Exception):
    """The notebook's process cannot answer: `feedback` says why (timed out, exited)."""

    def __init__(self, feedback: str):
        super().__init__(feedback)
        self.feedback = feedback


class StudentError(Exception):
    """The student's function raised: its type, message and line, as feedback."""

    def __init__(self, reply: dict):
        kind = str(reply.get("error", "an error"))[:80]
        message = str(reply.get("message", ""))[:FEEDBACK_CHARS]
        line = reply.get("line")
        where = f" (line {line})" if isinstance(line, int) else ""
        self.feedback = (
            "Replace the starter's `unanswered(...)` with your code."
            if kind == "Unanswered"
            else f"Your code raised {kind}: {message}{where}. Fix it, then hand it in again."
        )
        super().__init__(self.feedback)


def _student_lib(root: Path) -> Path:
    """A world-readable copy of what a student has (no grading/)."""
    lib = Path(tempfile.mkdtemp(prefix="grader-lib-"))
    for package in STUDENT_LIB:
        shutil.copytree(root / package, lib / package, ignore=shutil.ignore_patterns("__pycache__"))
    for path in [lib, *lib.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return lib


def _as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


class Sandbox:
    """The notebook's process: started, asked, killed."""

    as_nobody = False  # run it as the unprivileged user (seal() decides)

    def __init__(self, notebook: Path, submission: Path, lib: Path, finish: float = math.inf):
        self.notebook, self.submission, self.lib = notebook, submission, lib
        self.finish = finish  # time.monotonic() by which all grading ends (TOTAL_S)
        self.process: subprocess.Popen | None = None
        self.channel: wire.Channel | None = None
        self.cell_errors: list = []
        self.work: Path | None = None

    def start(self) -> None:
        self.work = Path(tempfile.mkdtemp(prefix="grader-work-"))
        for path in self.submission.iterdir():  # the submission's files, beside the notebook
            if _handed_in_file(path) and path.lstat().st_size <= FILE_BYTES:
                shutil.copy(path, self.work / path.name)
        shutil.copy(self.notebook, self.work / "submission.ipynb")
        if self.as_nobody:
            for path in [self.work, *self.work.iterdir()]:
                os.chown(path, NOBODY, NOBODY)
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.work),
            "PYTHONPATH": str(self.lib),
            "OPENBLAS_NUM_THREADS": "1",
            "MPLBACKEND": "Agg",
            "LANG": "C.UTF-8",
        }
        as_nobody = self.as_nobody

        def limits() -> None:
            import resource

            os.setsid()
            _first_to_go()  # RLIMIT_AS allows 4 GB, more than Gradescope's 768 MB
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
            resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            if as_nobody:  # counted per user: the grader's own processes are root's
                resource.setrlimit(resource.RLIMIT_NPROC, (PROCESSES, PROCESSES))
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)

        try:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    str(self.lib / "homework" / "runner.py"),
                    "submission.ipynb",
                    str(to_child_r),
                    str(from_child_w),
                ],
                cwd=self.work,
                env=env,
                pass_fds=(to_child_r, from_child_w),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=limits,
            )
        except (OSError, subprocess.SubprocessError) as error:  # no process left to start it
            for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
            shutil.rmtree(self.work, ignore_errors=True)
            raise Broken(f"The grader could not start the notebook's Python ({error}).") from None
        os.close(to_child_r)
        os.close(from_child_w)
        self.channel = wire.Channel(from_child_r, to_child_w)
        self.channel.deadline = min(time.monotonic() + RUN_S, self.finish)
        try:
            ready = self.channel.receive()
        except TimeoutError:
            self.kill()
            if time.monotonic() >= self.finish:
                raise Broken(time_up("while the notebook's cells ran")) from None
            raise Broken(
                f"The notebook did not finish running within {RUN_S:.0f} s: does a cell loop "
                "forever?"
            ) from None
        except wire.Unreadable as error:
            self.kill()
            raise Broken(f"{UNREADABLE} ({error})") from None
        except wire.ChannelClosed:
            ready = None
        if not isinstance(ready, dict) or ready.get("ready") is not True:
            self.kill()
            raise Broken(
                "The notebook stopped before it finished running (exit(), os._exit(), or "
                "memory beyond the grader's limit)."
            )
        errors = ready.get("errors")
        self.cell_errors = errors if isinstance(errors, list) else []

    def ask(self, request: dict, deadline: float, callbacks: list | None = None) -> dict:
        """Send `request`; answer the student's calls of `callbacks` (the grade's oracles)
        until the reply comes."""
        if self.channel is None:
            raise Broken("The notebook is not running.")
        try:
            self.channel.deadline = deadline
            self.channel.send(request)
            reply = self.channel.receive()
            while isinstance(reply, dict) and "callback" in reply and callbacks:
                self.channel.send(_call_back(callbacks, reply))
                reply = self.channel.receive()
        except TimeoutError:
            self.kill()
            if deadline >= self.finish:
                raise Broken(time_up("while your code ran")) from None
            raise Broken(
                f"Your code took longer than the grader allows ({EXERCISE_S:.0f} s for an "
                "exercise): does it loop forever?"
            ) from None
        except wire.Unreadable as error:
            self.kill()
            raise Broken(f"{UNREADABLE} ({error})") from None
        except (OSError, wire.ChannelClosed, ValueError):
            reply = None
        if not isinstance(reply, dict):
            self.kill()
            raise Broken(
                "Your code stopped the notebook's Python while it was graded (exit(), "
                "os._exit(), or memory beyond the grader's limit)."
            )
        return reply

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                self.process.kill()
            self.process.wait()
        if self.channel is not None:
            for fd in (self.channel.read_fd, self.channel.write_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.channel = None
        if self.work is not None:
            shutil.rmtree(self.work, ignore_errors=True)

    @property
    def alive(self) -> bool:
        return self.channel is not None and self.process is not None and self.process.poll() is None


def _call_back(callbacks: list, request: dict) -> dict:
    """The grader's oracle, called with the student's arguments (data only)."""
    try:
        function = callbacks[int(request["callback"])]
        result = function(*wire.decode(request.get("args", [])))
        return {"result": wire.encode(result)}
    except Exception as error:  # noqa: BLE001 (the oracle refuses a bad question: say so)
        return {"error": type(error).__name__, "message": str(error)[:FEEDBACK_CHARS]}


class Remote:
    """The student's function, called in the notebook's process: arguments and result pass
    as data; a random generator argument continues from where the student's call left it."""

    def __init__(self, sandbox: Sandbox, name: str, deadline: float):
        self.sandbox, self.name, self.deadline = sandbox, name, deadline

    def __call__(self, *args: Any) -> Any:
        callbacks: list = []
        encoded = wire.encode(list(args), callbacks=callbacks)
        reply = self.sandbox.ask(
            {"op": "call", "name": self.name, "args": encoded}, self.deadline, callbacks
        )
        if not reply.get("ok"):
            raise StudentError(reply)
        states = reply.get("rngs")
        states = states if isinstance(states, list) else []
        for arg, state in zip(args, states, strict=False):
            if isinstance(arg, np.random.Generator) and isinstance(state, dict):
                arg.bit_generator.state = state
        try:
            return wire.decode(reply.get("result"))
        except (ValueError, KeyError, TypeError) as error:
            raise Broken(
                f"Your function returned something the grader cannot read ({error})."
            ) from None


# --- grading -------------------------------------------------------------------------------


def _grade_one(exercise: Exercise, sandbox: Sandbox, sources: list[str]) -> Result:
    deadline = min(time.monotonic() + EXERCISE_S, sandbox.finish)
    reply = sandbox.ask({"op": "get", "name": exercise.name}, deadline)
    kind = reply.get("kind")
    if kind == "missing":
        return Result(False, f"The notebook does not define {exercise.name}.")
    if exercise.grade is not None:
        if kind != "function":
            return Result(False, f"{exercise.name} must be a function.")
        graded = grading.grade(exercise.id, Remote(sandbox, exercise.name, deadline))
        # Read after its grade: a starter left as it is says "replace the starter", not why
        # its code (which calls the course's `unanswered`) would be refused.
        reason = refused(sources, exercise.name) if graded.passed else None
        if reason is not None:
            return Result(False, refusal_feedback(exercise.name, reason))
        return graded
    if kind == "function":
        return Result(False, f"{exercise.name} must be your answer, not a function.")
    if kind != "value":
        return Result(False, f"{exercise.name} cannot be graded: {reply.get('error', 'its type')}.")
    try:
        value = wire.decode(reply.get("value"))
    except (ValueError, KeyError, TypeError):
        return Result(False, f"{exercise.name} cannot be read by the grader.")
    return grading.grade(exercise.id, value)


def _world_can_run(paths: list[Path]) -> bool:
    """Whether another user can run this Python: every folder above each path searchable
    by others, each file readable by them."""
    for path in paths:
        for part in [path, *path.parents]:
            mode = part.stat().st_mode
            if not mode & (stat.S_IXOTH if part.is_dir() else stat.S_IROTH):
                return False
    return True


def _not_dumpable() -> None:
    """No other process of this user may read this one's memory (prctl PR_SET_DUMPABLE 0)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)


def seal() -> tuple[str, Any]:
    """Keep the grader's files from the notebook's process. As root with a Python others can
    run (Gradescope): the notebook runs as `nobody` and the autograder's folder is closed to
    it ("nobody"). Otherwise, in an unzipped autograder: grading/ is loaded, then deleted
    from this disposable copy ("deleted"). In a clone of the course: nothing ("clone").
    Returns how, and what undoes it."""
    importlib.import_module("grading.lessons")  # every grade, before grading/ may go
    _not_dumpable()
    import IPython

    runnable = [Path(sys.executable).resolve(), Path(np.__file__), Path(IPython.__file__)]
    if _as_root() and _world_can_run(runnable):
        mode = SOURCE.stat().st_mode
        SOURCE.chmod(0o700)
        return "nobody", lambda: SOURCE.chmod(stat.S_IMODE(mode))
    if (SOURCE / "setup.sh").exists() and not (SOURCE / "pyproject.toml").exists():
        shutil.rmtree(SOURCE / "grading", ignore_errors=True)
        return "deleted", lambda: None
    print("grading from a clone: the notebook's process can read grading/", file=sys.stderr)
    return "clone", lambda: None


def grade_notebook(lesson: str, notebook_path: Path, submission: Path) -> dict[str, list]:
    """Each exercise's [passed, feedback], the student's code run in its own process."""
    notebook = nbformat.read(notebook_path, as_version=4)
    sources = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    lib = _student_lib(SOURCE)
    how, unseal = seal()
    Sandbox.as_nobody = how == "nobody"
    sandbox = Sandbox(notebook_path, submission, lib, finish=time.monotonic() + TOTAL_S)
    graded: dict[str, list] = {}
    restarts = 0
    broken: str | None = None
    try:
        for exercise in exercises(lesson):
            if time.monotonic() >= sandbox.finish:
                graded[exercise.id] = [False, time_up("before this exercise")]
                continue
            if broken is None and not sandbox.alive:
                if restarts > RESTARTS:
                    broken = "The notebook stopped too often to grade the rest."
                else:
                    restarts += 1
                    try:
                        sandbox.start()
                    except Broken as error:
                        broken = error.feedback
            if broken is not None:
                graded[exercise.id] = [False, broken]
                continue
            try:
                result = _grade_one(exercise, sandbox, sources)
            except Broken as error:
                result = Result(False, error.feedback)
            graded[exercise.id] = [bool(result.passed), str(result.feedback)[:1000]]
    finally:
        sandbox.kill()
        shutil.rmtree(lib, ignore_errors=True)
        unseal()
    return graded


def results(lesson: str, graded: dict[str, list]) -> dict:
    """Gradescope's results.json: one test per exercise (its points when it passed), the
    feedback as its output, and the total score."""
    tests = []
    for exercise in exercises(lesson):
        passed, feedback = graded.get(exercise.id, [False, "The notebook did not run."])
        tests.append(
            {
                "name": exercise.title,
                "score": exercise.points if passed else 0.0,
                "max_score": exercise.points,
                "output": ("Right. " if passed else "Not yet. ") + feedback,
                "visibility": "visible",
            }
        )
    return {"score": sum(t["score"] for t in tests), "tests": tests}


def grade_submission(lesson: str, submission: Path, results_path: Path) -> dict:
    """Grade the one notebook in `submission` (a missing, unreadable or oversized notebook
    scores 0, every exercise saying why) and write `results_path`."""
    code_only = Path(tempfile.mkdtemp(prefix="grader-notebook-")) / "submission.ipynb"
    try:
        refused = _refusal(submission, code_only)
        if refused is None:
            graded = grade_notebook(lesson, code_only, submission)
        else:
            graded = {e.id: [False, refused] for e in exercises(lesson)}
    finally:
        shutil.rmtree(code_only.parent, ignore_errors=True)
    out = results(lesson, graded)
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.write_text(json.dumps(out, indent=2, ensure_ascii=False), encoding="utf-8")
    return out


def _refusal(submission: Path, code_only: Path) -> str | None:
    """Why the handed-in notebook cannot be graded, or None once `code_only` holds its code
    without its outputs."""
    notebooks = sorted(path for path in submission.glob("*.ipynb") if _handed_in_file(path))
    if len(notebooks) != 1:
        found = ", ".join(n.name for n in notebooks) or "none"
        return f"Submit exactly one .ipynb notebook, a file and not a link (found: {found})."
    size = notebooks[0].stat().st_size
    if size > NOTEBOOK_BYTES:
        return (
            f"The notebook is {size / 2**20:.0f} MB, and the grader reads at most "
            f"{NOTEBOOK_BYTES // 2**20} MB: clear its outputs (Edit, Clear Outputs of All "
            "Cells), save it and hand it in again."
        )
    try:
        _code_only(notebooks[0], code_only)
        notebook = nbformat.read(code_only, as_version=4)
    except Exception as error:  # noqa: BLE001 (any broken file: a message, not a crash)
        return f"The notebook could not be read: {str(error)[:200]}"
    code = sum(len(c.source.encode()) for c in notebook.cells if c.cell_type == "code")
    if code > CODE_BYTES:
        return (
            f"The notebook holds {code / 1024:,.0f} KB of code, and the grader reads at most "
            f"{CODE_BYTES // 1024} KB: keep data in a file handed in beside the notebook, read "
            "by a cell."
        )
    return None


def main(argv: list[str]) -> int:
    lesson, submission, results_path = argv
    grade_submission(lesson, Path(submission), Path(results_path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
