"""The code behind the chart: a few lines of `dp/` calls that rebuild a lesson's main chart
data in a notebook, with the page's current parameter values filled in.

A lesson's snippets.py defines its snippets; its page shows one under its chart:

    snippets.HISTOGRAM.show(truth=truth, epsilon=epsilon, answers=answers,
                            half_width=half_width, seed=controls.seed() + model.SEED_HISTOGRAM)

Every snippet carries example parameters; tests/ui/test_snippets.py runs each one (filled
with its examples) in a fresh interpreter outside the app, where only dp/, data/ and
installed packages can be imported, and checks that it produces its result variable.
Templates use `$name` placeholders (string.Template), filled with
`repr(value)`, so a snippet is plain Python with literal values: copy, paste, run. Run
them from the repository root (or `pip install` nothing: they need numpy, pandas and dp/).
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from string import Template
from typing import Any

import streamlit as st

from ui import controls, notebook

EXPANDER_LABEL = "The code behind this chart"


@dataclass(frozen=True)
class Snippet:
    """A code template, the parameters it needs (with example values) and the name of the
    variable it leaves behind (the chart's data). `name` identifies it (e.g. in tests)."""

    name: str
    title: str
    template: str
    example: dict[str, Any] = field(default_factory=dict)
    result: str = "frame"

    def render(self, **params: Any) -> str:
        """The code with `params` (missing ones: the examples) filled in as literals."""
        unknown = set(params) - set(self.example)
        if unknown:
            raise TypeError(f"params: unknown {sorted(unknown)}; expected {sorted(self.example)}")
        values = {**self.example, **params}
        literals = {name: _literal(value) for name, value in values.items()}
        return Template(textwrap.dedent(self.template).strip() + "\n").substitute(literals)

    def note(self, **params: Any) -> str:
        """Into the lesson's notebook only, current values filled in (the code, returned):
        for a chart a button draws, so that the notebook of a page whose button was not
        pressed (`make notebooks`: the defaults) still holds its code."""
        code = self.render(**params)
        notebook.note_snippet(self.name, self.title, code, self.result)
        return code

    def show(self, **params: Any) -> None:
        """An expander "The code behind this chart" with the code, current values filled in,
        and the code into the lesson's notebook (`note`). Call it right under the chart."""
        code = self.note(**params)
        # The code is sent only once the expander is open (Streamlit's documented lazy
        # expander: `on_change="rerun"` and `.open`): highlighting every closed snippet was
        # the browser's largest single cost of a lesson's first visit (210 of 1,337 ms on
        # Laplace), and the code blocks were most of the elements a first render sent.
        with st.expander(
            EXPANDER_LABEL, icon=":material/code:", key=self.key, on_change="rerun"
        ) as box:
            if box.open:
                st.caption(
                    f"{self.title}. Run it from the repository root; it leaves the chart's "
                    f"data in `{self.result}`."
                )
                st.code(code, language="python")

    @property
    def key(self) -> str:
        """The widget key of this snippet's expander (its open state, in session state)."""
        return f"snippet_{self.name}"


def source_of(function: Callable[..., Any]) -> str:
    """A function's own source, indented as a snippet's template is (8 spaces), to print it
    in a snippet: the code behind a chart shows the function the model calls, never a copy
    of it. Only a function of `data/` or `dp/` (a snippet runs outside the app)."""
    module = function.__module__.split(".")[0]
    if module not in ("data", "dp"):
        raise ValueError(f"function: {function.__qualname__} is in {module}, not data/ or dp/")
    return textwrap.indent(inspect.getsource(function), " " * 8)


def _literal(value: Any) -> str:
    """A value as a Python literal (numpy scalars and arrays become plain numbers/lists)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, tuple):
        value = list(value)
    return repr(value)


# --- snippets that two or more lessons show ----------------------------------------------------

REPEATED_RR_SURVEYS = Snippet(
    "rr_repeated_surveys",
    "The same randomized-response survey repeated many times: the debiased estimates",
    """
        import pandas as pd

        import dp

        true_yes, n, p, q = $true_yes, $n, $p, $q
        # Reported "yes" counts of many independent surveys, drawn exactly without
        # simulating each respondent.
        yes_counts = dp.sample_rr_counts(true_yes, n, p, q, size=$surveys, rng=$seed)
        estimates = pd.DataFrame({
            "reported_yes": yes_counts,
            "estimated_count": n * dp.estimate_proportion_from_counts(yes_counts, n, p, q),
        })
        estimates["error"] = estimates["estimated_count"] - true_yes
        """,
    {
        "true_yes": 3_650,
        "n": 32_561,
        "p": 0.75,
        "q": 0.75,
        "surveys": 1_000,
        "seed": controls.DEFAULT_SEED,
    },
    "estimates",
)
