"""The student's side of grading: run a submitted notebook's code cells, then answer the
grader's questions about the names it defined. The grader (grading/autograder.py) starts this
in its own process, as another user where it can, with limits on time, memory and files;
nothing here can reach the grader's state, and what comes back is data (wire.py), never
code. A student may change anything in this process: that changes the answers it gives,
which is what is graded anyway.

    python homework/runner.py NOTEBOOK READ_FD WRITE_FD
"""

from __future__ import annotations

import builtins
import json
import os
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK_CELL = re.compile(r"check\([^()\n]*\);?")  # a `check(...)` cell of homework/cells.py


def main(argv: list[str]) -> int:
    notebook_path, read_fd, write_fd = argv[0], int(argv[1]), int(argv[2])
    sys.path.insert(0, os.path.dirname(HERE))
    from homework import wire  # the course's own folder, beside this file

    with open(notebook_path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    cells = [
        "".join(cell["source"]) if isinstance(cell.get("source"), list) else cell["source"]
        for cell in notebook.get("cells", [])
        if cell.get("cell_type") == "code"
    ]
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    errors = []
    for index, source in enumerate(cells, start=1):
        if CHECK_CELL.fullmatch(source.strip()):
            continue  # the student's own check: it defines nothing, and may be slow or loop
        result = shell.run_cell(source, store_history=False, silent=False)
        error = result.error_in_exec or result.error_before_exec
        if error is not None:
            errors.append([index, type(error).__name__, str(error)[:200]])
    channel = wire.Channel(read_fd, write_fd)
    channel.send({"ready": True, "errors": errors[:20]})
    namespace = shell.user_ns
    while True:
        request = channel.receive()
        if request is None:
            return 0
        reply = answer(namespace, request, wire, channel)
        try:
            channel.send(reply)
        except ValueError as error:  # larger than the grader reads (wire.MAX_BYTES)
            channel.send(too_large(request, str(error)))


def too_large(request: dict, why: str) -> dict:
    """The reply in place of an answer too large to send: the grader says so."""
    said = f"larger than the grader reads ({why})"
    if request.get("op") == "get":
        return {"kind": "opaque", "error": f"its value is {said}"}
    return {"ok": False, "error": "ValueError", "message": f"the function's result is {said}"}


def answer(namespace: dict, request: dict, wire, channel) -> dict:
    name = request.get("name")
    if not isinstance(name, str) or name not in namespace:
        return {"kind": "missing"}
    value = namespace[name]
    if request.get("op") == "get":
        if callable(value) and not isinstance(value, type):
            return {"kind": "function"}
        try:
            return {"kind": "value", "value": wire.encode(value)}
        except TypeError as error:
            return {"kind": "opaque", "error": str(error)}
    if request.get("op") == "call":

        def stub(index: int):
            def call_back(*call_args):  # the grader's oracle, asked through the channel
                channel.send({"callback": index, "args": wire.encode(list(call_args))})
                reply = channel.receive() or {}
                if "error" in reply:
                    kind = getattr(builtins, str(reply["error"]), None)
                    if not (isinstance(kind, type) and issubclass(kind, Exception)):
                        kind = RuntimeError
                    raise kind(str(reply.get("message", "")))
                return wire.decode(reply.get("result"))

            return call_back

        args = wire.decode(request.get("args", []), callback=stub)
        try:
            result = value(*args)
            encoded = wire.encode(result)
        except BaseException as error:  # noqa: BLE001 (the student's code: anything, even exit)
            frames = traceback.extract_tb(error.__traceback__)
            line = frames[-1].lineno if frames else None
            return {
                "ok": False,
                "error": type(error).__name__,
                "message": str(error)[:300],
                "line": line,
            }
        return {"ok": True, "result": encoded, "rngs": wire.generator_states(args)}
    return {"kind": "missing"}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
