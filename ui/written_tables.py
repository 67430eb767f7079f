"""The text of a module of numbers written down by a `make_tables.py` (computed ahead of time
because a first visit should not wait for them): a docstring, then one annotated dict per
table, formatted as `ruff format` leaves it, so that a test can compare the file with what
`render` writes."""

from __future__ import annotations


def _literal(key) -> str:
    """A key as ruff format writes it: strings in double quotes, in tuples too."""
    if isinstance(key, tuple):
        return "(" + ", ".join(_literal(k) for k in key) + ")"
    return f'"{key}"' if isinstance(key, str) else repr(key)


def render(
    doc: str, types: dict[str, str], tables: dict[str, dict], *, one_a_line: tuple[str, ...] = ()
) -> str:
    """`doc` (a module docstring, quotes included), then each table as
    `NAME: types[NAME] = {key: value, …}`; a table named in `one_a_line` writes each value (a
    tuple of long floats) one element a line, to stay within the line length."""
    lines = [doc]
    for name, table in tables.items():
        lines += ["", f"{name}: {types[name]} = {{"]
        for key, value in table.items():
            if name in one_a_line:
                lines += [f"    {_literal(key)}: ("] + [f"        {v!r}," for v in value]
                lines += ["    ),"]
            else:
                lines.append(f"    {_literal(key)}: {value!r},")
        lines += ["}"]
    return "\n".join(lines) + "\n"
