"""What a graded function reaches, read from a notebook's code: the grader's rule that a
function written for an exercise is the student's own (not dp/, not a course package, not
code loaded by a name reading cannot follow). The Gradescope grader applies it to the
handed-in notebook (grading/autograder.py); a student's `check()` applies it to the cells the
kernel has run (homework/core.py), so that what it says and the grade agree. It reads code
as text, never runs it, and holds nothing secret."""

from __future__ import annotations

import ast

# Said with every refusal for a function that reaches the course's own code.
DP_NOTE = (
    "Write it yourself: an answer that calls dp/ for it (the course's own library) scores 0 "
    "when graded."
)


def _parse(source: str) -> ast.Module | None:
    """A cell's code as Python: IPython's own transformation first (`!cmd`, `x = !cmd`,
    `%magic`, `%%cell` become the calls IPython runs), so that a line only IPython reads
    cannot make the grader skip the cell (a cell it could not parse was skipped whole: a
    function beside an `x = !ls` line was never read). None when it is not code at all."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        source = TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 (no IPython, or a cell it cannot read: Python's rules)
        lines = source.splitlines()
        source = "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # nested past the parser
        return None


# The course's own packages: a graded function that reaches them (a name imported from them,
# an attribute named dp) uses the course's code for what it was asked to write.
COURSE_PACKAGES = frozenset({"dp", "homework", "ui", "lessons", "data", "grading", "survey"})
# What loads code or modules by a name the grader cannot read, or reaches objects through the
# interpreter's insides: none is needed to write a mechanism with numpy and math, and each
# is a way to the course's library that reading the code cannot follow (importlib with a
# computed name, sys.modules, a frame's globals, pickle, exec).
LOADER_NAMES = frozenset(
    {
        *("__import__", "exec", "eval", "compile", "globals", "vars", "locals", "getattr"),
        *("setattr", "delattr", "open", "breakpoint", "input", "help", "__builtins__"),
        *("__loader__", "__spec__", "get_ipython"),
    }
)
LOADER_ATTRIBUTES = frozenset(
    {
        *("modules", "_getframe", "f_globals", "f_builtins", "f_locals", "f_back"),
        *("gi_frame", "cr_frame", "ag_frame", "tb_frame", "tb_next", "load", "loads"),
        *("read_pickle", "import_module", "user_ns", "getoutput", "system"),
        *("run_cell", "run_line_magic", "run_cell_magic"),
    }
)
# What a graded function may import: what a mechanism is written with. Any other module (one
# the student handed in or wrote with %%writefile, a standard one that runs code from a
# string: pydoc.locate, timeit, unittest.mock) is beyond reading.
READ_MODULES = frozenset(
    {
        *("math", "cmath", "numpy", "scipy", "collections", "itertools", "functools"),
        *("statistics", "random", "fractions", "decimal", "heapq", "bisect", "typing"),
        *("dataclasses", "numbers", "enum", "string", "re", "copy", "warnings", "__future__"),
    }
)
# Cell magics that run their body as Python in the notebook's namespace: the body is read.
CODE_MAGICS = frozenset({"capture", "time", "timeit", "prun"})
PLAIN_DUNDERS = frozenset({"__name__", "__doc__"})
# What can change a name of the notebook without an assignment the grader reads, anywhere in
# the notebook (`globals()["laplace_count"] = …`, `f.__globals__[…] = …`, exec of a string,
# IPython's user_ns): a function read as the student's own could be swapped after reading.
REBINDING_NAMES = frozenset(
    {
        *("exec", "eval", "compile", "globals", "vars", "locals", "setattr", "delattr"),
        *("__import__", "__builtins__"),
    }
)
REBINDING_ATTRIBUTES = frozenset(
    {
        *("__dict__", "__globals__", "__builtins__", "user_ns", "user_global_ns", "push"),
        *("modules", "f_globals", "f_locals", "import_module", "get_referrers", "ex", "ev"),
        *("run_cell", "run_code", "run_source", "safe_execfile", "safe_run_module"),
    }
)
REBINDING_MODULES = frozenset({"__main__", "builtins", "IPython", "ipykernel", "gc", "ctypes"})
# IPython's calls a notebook's own lines become (`%matplotlib`, `%time`, `x = !ls`, a
# `%%writefile`), which cannot change a name without an assignment that is read; any other
# magic (%run, %store, %%python in the namespace …) can.
PLAIN_LINE_MAGICS = frozenset(
    {
        *("matplotlib", "time", "timeit", "config", "precision", "pinfo", "pinfo2", "pwd"),
        *("ls", "pip", "conda", "cd", "env", "who", "whos", "history", "lsmagic", "xmode"),
        "reset",
    }
)
PLAIN_CELL_MAGICS = CODE_MAGICS | frozenset(
    {
        *("bash", "sh", "script", "writefile", "file", "html", "javascript", "js", "markdown"),
        *("latex", "svg", "python", "python3", "perl", "ruby"),  # a subprocess each
    }
)
# Python's builtins, and IPython's `display` (In, Out and get_ipython are not: a cell's
# output, Out[n], can be any object, the course's functions included).
BUILTIN_NAMES = frozenset(dir(__import__("builtins"))) | {"display"}


def _statements(source: str) -> list[ast.stmt]:
    """A cell's top-level statements; a cell magic that runs its body in the notebook's
    namespace (%%capture, %%time) stands for its body's statements."""
    tree = _parse(source)
    found: list[ast.stmt] = []
    for statement in tree.body if tree is not None else ():
        call = statement.value if isinstance(statement, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "run_cell_magic"
            and len(call.args) == 3
            and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args)
            and call.args[0].value in CODE_MAGICS
        ):
            found.extend(_statements(call.args[2].value))
        else:
            found.append(statement)
    return found


def _root(node: ast.AST) -> str | None:
    """The name an attribute, subscript or call chain starts from (`a` of `a.b[0].c()`)."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _bound_names(statement: ast.stmt) -> set[str]:
    """The names a top-level statement binds or changes (over-approximated): every name it
    stores, the object whose attribute or item it stores (`C.f = …`, `d["k"] = …`), and the
    object whose method it calls (`helpers.append(…)`), which may change what it holds."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in statement.names if a.name != "*"}
    found: set[str] = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            found.add(node.id)
        elif isinstance(node, ast.Attribute | ast.Subscript) and isinstance(
            node.ctx, ast.Store | ast.Del
        ):
            found.add(_root(node) or "")
    # a statement that is a method call (`helpers.append(…)`; not `display(np.mean(x))`)
    call = statement.value if isinstance(statement, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
        found.add(_root(call.func) or "")
    found.discard("")
    return found


def _globals_used(statement: ast.stmt) -> set[str]:
    """The global names a top-level statement reads: at its own level, and from inside every
    function, lambda, comprehension and class it holds (Python's own scoping, symtable)."""
    import symtable

    try:
        table = symtable.symtable(ast.unparse(statement), "<cell>", "exec")
    except (SyntaxError, ValueError):
        return set()
    found: set[str] = set()
    todo = [table]
    while todo:
        current = todo.pop()
        kind = current.get_type()
        for symbol in current.get_symbols():
            if not symbol.is_referenced():
                continue
            if (
                kind == "module"
                or symbol.is_global()
                or (kind == "class" and not symbol.is_assigned())
            ):
                found.add(symbol.get_name())
        todo.extend(current.get_children())
    return found


def _imported_from(statement: ast.Import | ast.ImportFrom) -> list[str]:
    """The top-level package of each module an import statement reads."""
    if isinstance(statement, ast.Import):
        return [alias.name.split(".")[0] for alias in statement.names]
    if statement.level:  # a relative import: nothing of the notebook's own
        return [""]
    return [(statement.module or "").split(".")[0]]


def refused(sources: list[str], name: str) -> str | None:
    """Why the graded function `name` cannot be graded as the student's own code, read from
    the notebook's code (every code cell), or None. What it reads: every top-level statement
    that binds `name`, then, in turn, those that bind each global name they use (helpers,
    constants, imports), each read whole:

    - "dp" / "course:<package>": it reaches the course's library (an import from dp or from a
      course package that uses it, an attribute or a string named dp);
    - "module:<package>": it imports a module outside READ_MODULES (one the student handed
      in or wrote, a standard one that runs code from a string);
    - "loader:<what>": it loads code or modules by name, or reaches objects through the
      interpreter's insides (LOADER_NAMES, LOADER_ATTRIBUTES, a dunder attribute): what
      that runs is beyond reading, and no mechanism needs it;
    - "unreadable:<name>": it, or a name it uses, is defined nowhere the grader can read (a
      cell magic other than CODE_MAGICS, exec, a cell with a syntax error), so what it does
      is unknown;
    - "rebinds:<what>": some cell of the notebook, read or not, could change any name after
      the grader read it (`globals()`, `exec`, `f.__globals__`, IPython's namespace, %run).

    Reading code cannot follow everything Python can do; what it cannot read is refused,
    and the rest is the student's own code (copying the library's source by hand is not
    caught, as no autograder can)."""
    bindings: dict[str, list[ast.stmt]] = {}
    for source in sources:
        for statement in _statements(source):
            for bound in _bound_names(statement):
                bindings.setdefault(bound, []).append(statement)
            if isinstance(statement, ast.ImportFrom) and any(
                a.name == "*" for a in statement.names
            ):
                bindings.setdefault("*", []).append(statement)
    try:
        found = _follow(bindings, name)
        if found is not None:  # what the function reaches, said first: the most precise
            return found
        for source in sources:
            for statement in _statements(source):
                found = _rebinds(statement)
                if found is not None:
                    return f"rebinds:{found}"
        return None
    except (RecursionError, MemoryError):  # a statement nested past what can be read
        return f"unreadable:{name}"


def _rebinds(statement: ast.stmt) -> str | None:
    """What in a statement, anywhere in the notebook, could change a name of the notebook
    without an assignment the grader reads (REBINDING_*, a magic outside PLAIN_*)."""
    magic = _unplain_magic(statement)
    if magic is not None:
        return magic
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and node.id in REBINDING_NAMES:
            return node.id
        if isinstance(node, ast.Attribute) and node.attr in REBINDING_ATTRIBUTES:
            return f".{node.attr}"
        if isinstance(node, ast.Import | ast.ImportFrom):
            for package in _imported_from(node):
                if package in REBINDING_MODULES:
                    return f"import {package}"
    return None


def _unplain_magic(statement: ast.stmt) -> str | None:
    """The first use of IPython in a statement that is not a plain magic or shell line, as
    the student wrote it (`%run`, `%%python`), or `get_ipython()` used otherwise; None."""
    uses = [n for n in ast.walk(statement) if isinstance(n, ast.Name) and n.id == "get_ipython"]
    if not uses:
        return None
    calls = [
        node
        for node in ast.walk(statement)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Call)
        and isinstance(node.func.value.func, ast.Name)
        and node.func.value.func.id == "get_ipython"
    ]
    if len(calls) != len(uses):  # get_ipython() used other than as `get_ipython().<magic>(…)`
        return "get_ipython()"
    for call in calls:
        first = call.args[0] if call.args else None
        magic = first.value if isinstance(first, ast.Constant) else None
        kind = call.func.attr
        if kind in ("getoutput", "system"):
            continue
        if kind == "run_line_magic" and magic in PLAIN_LINE_MAGICS:
            continue
        if kind == "run_cell_magic" and magic in PLAIN_CELL_MAGICS:
            continue
        if kind == "run_line_magic" and isinstance(magic, str):
            return f"%{magic}"
        if kind == "run_cell_magic" and isinstance(magic, str):
            return f"%%{magic}"
        return f"get_ipython().{kind}"
    return None


def _follow(bindings: dict[str, list[ast.stmt]], name: str) -> str | None:
    """`refused`'s reading, from `name` through the names each statement uses."""
    seen: set[int] = set()
    todo = [name]
    visited: set[str] = set()
    while todo:
        current = todo.pop()
        if current in visited:
            continue
        visited.add(current)
        statements = bindings.get(current)
        if not statements:
            if current == name or current not in BUILTIN_NAMES:
                if "*" in bindings:  # a star import may have bound it
                    statements = bindings["*"]
                else:
                    return f"unreadable:{current}"
            else:
                continue
        if current in LOADER_NAMES:
            return f"loader:{current}"
        for statement in statements:
            if id(statement) in seen:
                continue
            seen.add(id(statement))
            found = _read(statement)
            if found is not None:
                return found
            todo.extend(_globals_used(statement) - visited)
    return None


def _read(statement: ast.stmt) -> str | None:
    """What in one statement reaches the course's library or loads code by name."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for package in _imported_from(node):
                if package == "dp":
                    return "dp"
                if package in COURSE_PACKAGES:
                    return f"course:{package}"
                if package not in READ_MODULES:
                    return f"module:{package}"
            if isinstance(node, ast.ImportFrom) and any(a.name == "dp" for a in node.names):
                return "dp"
        elif isinstance(node, ast.Name) and node.id in LOADER_NAMES:
            return f"loader:{node.id}"
        elif isinstance(node, ast.Attribute):
            if node.attr == "dp":
                return "dp"
            dunder = node.attr.startswith("__") and node.attr.endswith("__")
            if node.attr in LOADER_ATTRIBUTES or (dunder and node.attr not in PLAIN_DUNDERS):
                return f"loader:.{node.attr}"
        elif isinstance(node, ast.keyword) and node.arg == "allow_pickle":
            return "loader:allow_pickle"
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and (node.value == "dp" or node.value.startswith("dp."))
        ):
            return "dp"  # __import__("dp"), importlib.import_module("dp.laplace")
    return None


def refusal_feedback(name: str, reason: str) -> str:
    """The words for a `refused` reason."""
    kind, _, what = reason.partition(":")
    read = f"(The grader reads every cell that defines {name} or a name it uses.)"
    if kind == "dp":
        return f"{name} calls dp/ for what it was asked to do. {DP_NOTE} {read}"
    if kind == "course":
        return (
            f"{name} uses the course's own code ({what}) for what it was asked to do. "
            f"{DP_NOTE} {read}"
        )
    if kind == "rebinds":
        return (
            f"A cell of the notebook uses {what}, which can change what {name} is after the "
            "grader has read it, so it is not graded. Remove it: Python's own assignments "
            f"are read. {read}"
        )
    if kind == "module":
        return (
            f"{name} imports {what}, a module the grader does not read: write it with numpy, "
            f"scipy, math and the standard library's plain modules. {read}"
        )
    if kind == "loader":
        return (
            f"{name} loads code or modules by name, or reaches into Python's insides ({what}): "
            "the grader cannot read what that runs, so it does not grade it. Write the "
            f"computation itself, with numpy and math. {read}"
        )
    return (
        f"{name} uses {what}, which no cell the grader can read defines (a %%cell magic, "
        "exec, or a cell with a syntax error): define it with def or = in a cell of its own."
    )
