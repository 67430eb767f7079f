"""Helpers for the AppTest page tests: run a lesson (alone, with link parameters, inside an
app.py-like host, or with an uploaded file), read its metrics, find a chart and read its data
back, record its downloads, answer its check-yourself questions.

A chart drawn with st.vega_lite_chart reaches AppTest as a proto: `proto.spec` is the
Vega-Lite JSON (with any inline `data.values`), and every named dataset is moved to
`proto.datasets` as Arrow IPC bytes.
"""

from __future__ import annotations

import html
import json
import re

import pandas as pd
import pyarrow as pa
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from conftest import APPTEST_TIMEOUT_S, PAGES, page_apptest
from ui import template as ui_template

# app.py's frame around a page: the link guard, (optionally) the classroom panel and the
# dataset picker with its uploader.
_HOST = """
import runpy
from ui import classroom, links, userdata
links.guard_start()
userdata.dataset_picker()
{sidebar}runpy.run_path({path!r}, run_name="__main__")
links.guard_end()
"""


def run_lesson(page_file: str, **params: str) -> AppTest:
    """Run lessons/`page_file` once with these link (query) parameters; no exception may
    appear."""
    at = page_apptest(page_file)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def hosted_lesson(
    page_file: str,
    *,
    sidebar: bool = True,
    timeout_s: float = APPTEST_TIMEOUT_S,
    **params: str,
) -> AppTest:
    """Run lessons/`page_file` once as app.py runs it — link guard, classroom panel (unless
    `sidebar` is false), dataset picker — with these link (query) parameters. Exceptions are
    left for the test to check."""
    script = _HOST.format(
        sidebar="classroom.panel()\n" if sidebar else "", path=str(PAGES / page_file)
    )
    at = AppTest.from_string(script, default_timeout=timeout_s)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def classroom_page(page_path: str, **params: str) -> AppTest:
    """A classroom page (the class survey's or quiz's, by absolute path) opened at a URL with
    these query parameters, not run yet."""
    at = AppTest.from_file(page_path, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    return at


def fault_messages(at: AppTest) -> list[str]:
    """What a classroom page said went wrong: its errors, then its warnings."""
    return [e.value for e in at.error] + [w.value for w in at.warning]


def failing_with(reason: str):
    """A stand-in for a store method that fails as the database would: StorageError(reason)."""
    import survey

    def fail(*_args, **_kwargs):
        raise survey.StorageError(reason)

    return fail


def upload_csv(at: AppTest, filename: str, data: bytes) -> AppTest:
    """Upload `data` as a CSV file through the host's dataset picker and rerun."""
    return at.file_uploader[0].upload(filename, data, "text/csv").run()


def run_lesson_with_upload(page_file: str, data: bytes, filename: str, *, max_bytes: int):
    """Run lessons/`page_file` alone with `data` already uploaded, through the documented
    seam (the parsed file in session state under `userdata.STATE_KEY`); no exception may
    appear. The parsed frame is `at.session_state[userdata.STATE_KEY].frame`."""
    from data.upload import read_upload
    from ui import userdata

    frame = read_upload(data, filename, max_bytes=max_bytes)
    at = page_apptest(page_file)
    at.session_state[userdata.STATE_KEY] = userdata._Uploaded(
        file_id="test",
        filename=filename,
        frame=frame,
        columns=userdata.categorical_columns(frame),
        conditions=userdata.yes_no_conditions(frame),
        missing=userdata.missing_values(frame),
    )
    at.run()
    assert not at.exception, at.exception
    return at


def ignored_link_notice(param: str, value: str) -> str:
    """The toast app.py shows for a link setting it could not use (its text made plain)."""
    from ui import text

    return (
        f"Ignored an invalid link setting: {text.plain(param)}={text.plain(value)} — using "
        "the default."
    )


def toasts(at: AppTest) -> list[str]:
    """The run's toast texts, in order."""
    return [toast.value for toast in at.toast]


def open_snippets(at: AppTest) -> AppTest:
    """Open every "The code behind this chart" expander, as a student's click does (its
    open state, in session state under its key), and rerun: a closed one sends no code."""
    from ui.snippets import EXPANDER_LABEL

    return open_expanders(at, EXPANDER_LABEL)


def open_numbers(at: AppTest) -> AppTest:
    """Open every chart's "Show the numbers" expander and rerun: a closed one sends no table."""
    from ui.template import NUMBERS_LABEL

    return open_expanders(at, NUMBERS_LABEL)


def open_expanders(at: AppTest, label: str) -> AppTest:
    """Open every lazy expander labelled `label`, as a student's click does (its open state,
    in session state under its key), and rerun if one was closed."""
    keys = [
        box.proto.id.split("-", 2)[-1] for box in at.expander if box.label == label and box.proto.id
    ]
    closed = [key for key in keys if not (key in at.session_state and at.session_state[key])]
    for key in closed:
        at.session_state[key] = True
    return at.run() if closed else at


def code_texts(at: AppTest, containing: str = "") -> list[str]:
    """The page's code blocks (only those containing `containing`), in page order, with
    every snippet's expander opened first."""
    open_snippets(at)
    return [block.value for block in at.code if containing in block.value]


def record_downloads(monkeypatch) -> dict[str, tuple[str, list[str]]]:
    """Patch `downloads.download_csv` so that every download button the next runs draw is
    recorded: key -> (filename, the CSV's lines). The buttons are still drawn."""
    from ui import downloads

    sent: dict[str, tuple[str, list[str]]] = {}
    real = downloads.download_csv

    def recording(frame, *, filename, key, **kwargs):
        sent[key] = (filename, downloads.csv_bytes(frame).decode().splitlines())
        real(frame, filename=filename, key=key, **kwargs)

    monkeypatch.setattr(downloads, "download_csv", recording)
    return sent


def csv_header(frame: pd.DataFrame) -> str:
    """The header line of the CSV a download button would send for `frame`."""
    from ui import downloads

    return downloads.csv_bytes(frame).decode().splitlines()[0]


def answer_quiz(at: AppTest, lesson: str, question: int, choice: int) -> AppTest:
    """Pick option `choice` of check-yourself question `question` and press its Check button
    (one rerun each); the feedback is then in `at.success` / `at.error`."""
    from ui import quiz

    at.radio(key=quiz.choice_key(lesson, question)).set_value(choice).run()
    return at.button(key=f"quiz_{lesson}_{question}_check").click().run()


def assert_quiz_marks(
    at: AppTest, wrong: tuple[str, int, int], explained: str, right: tuple[str, int, int]
) -> None:
    """Check yourself marks a wrong answer (quiz key, question, option) wrong, with an
    explanation that says `explained`, and then the right one right."""
    answer_quiz(at, *wrong)
    assert explained in at.error[-1].value
    answer_quiz(at, *right)
    assert at.success[-1].value.startswith("Right.")


def metrics(at: AppTest) -> dict[str, str]:
    """Every st.metric of the run: label -> value."""
    return {m.label: m.value for m in at.metric}


def metric_starting(at: AppTest, label_start: str) -> str:
    """The value of the one st.metric whose label starts with `label_start`."""
    matches = [m.value for m in at.metric if m.label.startswith(label_start)]
    assert len(matches) == 1, f"no single metric starting with {label_start!r}"
    return matches[0]


def charts(at: AppTest) -> list:
    """The run's st.vega_lite_chart elements, in page order."""
    return at.get("vega_lite_chart")


def spec_of(element) -> dict:
    """A chart element's Vega-Lite spec as drawn: a title that the spec reads from its
    ui.ui_template.TITLE_DATA dataset (so that the spec stays the same from run to run) is put
    back in as the lines it reads, with its subtitle. `element.proto.spec` is the raw spec."""
    spec = json.loads(element.proto.spec)
    title = spec.get("title")
    if isinstance(title, dict) and isinstance(title.get("text"), dict):
        (words,) = [
            pa.ipc.open_stream(d.data.data).read_all().column("text")[0].as_py()
            for d in element.proto.datasets
            if d.name == ui_template.TITLE_DATA
        ]
        lines = words.split(ui_template.TITLE_LINE_BREAK)
        text = lines[0] if len(lines) == 1 else lines
        # as the page gave it: a one-line title alone is a string
        spec["title"] = (
            text
            if set(title) == {"anchor", "frame", "text", "aria"} and len(lines) == 1
            else {**title, "text": text}
        )
    return spec


def title_of(spec: dict) -> str:
    """A spec's title text (a title may be a string or {"text": …, "subtitle": …}, and a
    long text a list of lines: ui.ui_template.title_lines), its lines joined by spaces. Give it
    `spec_of(element)`, which reads a title kept in the chart's data."""
    title = spec.get("title", "")
    text = title.get("text", "") if isinstance(title, dict) else title
    return " ".join(text) if isinstance(text, list) else str(text)


def _in_page_order(node) -> list:
    found = [node]
    for child in getattr(node, "children", {}).values():
        found.extend(_in_page_order(child))
    return found


def described_charts(at: AppTest) -> list[tuple[object, str]]:
    """Every chart of the run with its description: the current numbers in words, which
    ui.ui_template.Template.show writes right after the chart for a screen reader (the chart's
    own alt text is fixed, so that it redraws in place), after the title's words."""
    nodes = [node for node in _in_page_order(at._tree) if getattr(node, "type", None)]
    found = []
    for position, node in enumerate(nodes):
        if node.type != "vega_lite_chart":
            continue
        after = nodes[position + 1] if position + 1 < len(nodes) else None
        body = after.proto.body if after is not None and after.type == "html" else ""
        match = re.fullmatch(
            rf'<p class="{ui_template.DESCRIPTION_CLASS}">'
            rf'(?:<span class="{ui_template.TITLE_CLASS}">.*?</span> )?(.*)</p>',
            body,
            re.S,
        )
        found.append((node, html.unescape(match.group(1)) if match else ""))
    return found


def description_of(at: AppTest, chart) -> str:
    """The description written after `chart` (an element of `charts(at)`)."""
    for node, words in described_charts(at):
        if node is chart:
            return words
    raise AssertionError("that chart is not in this run")


def frames_of(element) -> dict[str, pd.DataFrame]:
    """A chart element's named datasets (Arrow on the proto) as DataFrames, by name; not its
    title's words (ui.ui_template.TITLE_DATA, read by `spec_of`)."""
    return {
        d.name: convert_arrow_bytes_to_pandas_df(d.data.data)
        for d in element.proto.datasets
        if d.name != ui_template.TITLE_DATA
    }


def chart_titled(at: AppTest, title: str, *, prefix: bool = False):
    """The chart element whose title is `title` (or, with `prefix`, starts with it)."""
    seen = []
    for element in charts(at):
        text = title_of(spec_of(element))
        if text == title or (prefix and text.startswith(title)):
            return element
        seen.append(text)
    raise AssertionError(f"no chart titled {title!r}; have {seen}")


def chart_spec(at: AppTest, index: int) -> dict:
    """The spec of the run's chart number `index`."""
    return spec_of(charts(at)[index])


def named_data(at: AppTest, index: int, name: str) -> dict[str, list]:
    """Chart number `index`'s dataset `name`, column -> values."""
    for dataset in charts(at)[index].proto.datasets:
        if dataset.name == name:
            return pa.ipc.open_stream(dataset.data.data).read_all().to_pydict()
    raise AssertionError(f"no dataset {name!r} in chart {index}")


def chart_rows(element) -> list[dict]:
    """All data rows of a chart, wherever Vega-Lite keeps them: the element's Arrow
    datasets, the spec's `datasets`, or inline `data.values`."""
    spec = spec_of(element)
    rows = []
    for frame in frames_of(element).values():
        rows.extend(frame.to_dict("records"))
    for values in spec.get("datasets", {}).values():
        rows.extend(values)
    for part in [spec, *spec.get("layer", [])]:
        rows.extend(part.get("data", {}).get("values", []))
    return rows


def specs_and_frames(at: AppTest) -> list[tuple[dict, dict[str, pd.DataFrame]]]:
    """Every chart of the run as (spec, named datasets as DataFrames), in page order."""
    return [(spec_of(element), frames_of(element)) for element in charts(at)]


def hosted_page(
    page_file: str, *, upload: tuple[str, bytes] | None = None, timeout_s: float = 60, **params: str
) -> AppTest:
    """`hosted_lesson` without the classroom sidebar, after an optional CSV upload; no
    exception may appear."""
    at = hosted_lesson(page_file, sidebar=False, timeout_s=timeout_s, **params)
    if upload is not None:
        upload_csv(at, *upload)
    assert not at.exception, at.exception
    return at


JOBS_CSV = ("jobs.csv", b"Job,Pay\nSales,10\nClerk,30\n")


def census_after_upload(page_file: str, *, timeout_s: float = 120) -> AppTest:
    """The lesson hosted after a two-row upload (JOBS_CSV): it says, first, that it always
    uses the bundled census."""
    at = hosted_page(page_file, upload=JOBS_CSV, timeout_s=timeout_s)
    assert "always uses the bundled census" in at.info[0].value
    return at


def page_words(at: AppTest) -> str:
    """Every text the run shows a reader: markdown, captions, the four alerts and the metrics'
    values, joined, without Markdown's escapes and the word joiners that keep a number with
    its unit (the classroom pages' tests read what a phone or a projector says)."""
    shown = [m.value for m in at.markdown] + [c.value for c in at.caption]
    shown += [s.value for s in at.success] + [i.value for i in at.info]
    shown += [w.value for w in at.warning] + [e.value for e in at.error]
    shown += [str(m.value) for m in at.metric]
    return " ".join(shown).replace("\\", "").replace("\u2060", "")


def prose(at: AppTest) -> str:
    """Every markdown block of the run, joined, with Markdown's escapes removed."""
    return " ".join(block.value for block in at.markdown).replace("\\", "")


def widgets_outside_fragments(page_file: str, keys: tuple[str, ...]) -> list[str]:
    """The `keys` of lessons/`page_file` whose widget is not created inside a function
    decorated with @st.fragment (such a widget reruns the whole page)."""
    import ast

    tree = ast.parse((PAGES / page_file).read_text())
    fragments = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and any(ast.unparse(d) == "st.fragment" for d in node.decorator_list)
    }
    owners: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for inner in ast.walk(node):
                # key=…, or a helper's guess_key=… / button_key=… (ui.quiz.prediction)
                if isinstance(inner, ast.keyword) and (
                    inner.arg == "key" or str(inner.arg).endswith("_key")
                ):
                    value = inner.value
                    if isinstance(value, ast.Constant) and value.value in keys:
                        owners.setdefault(value.value, node.name)
    return [key for key in keys if owners.get(key) not in fragments]


def rows_table(at: AppTest, key: str) -> pd.DataFrame:
    """The static table ui.tables.show(…, key=`key`) drew, its cells as the reader sees them
    (ui.text.plain's Markdown escapes removed); the block is found by its documented key."""
    from ui.tables import ROWS_KEY_PREFIX

    suffix = "-" + ROWS_KEY_PREFIX + key

    def find(node):
        for child in getattr(node, "children", {}).values():
            proto = getattr(child, "proto", None)
            if child.type == "flex_container" and str(getattr(proto, "id", "")).endswith(suffix):
                return child
            found = find(child)
            if found is not None:
                return found
        return None

    block = find(at._tree)
    assert block is not None, f"no table keyed {key!r}"
    (table,) = block.get("table")
    shown = table.value

    def unescape(shown: object) -> str:  # plain's escapes, and its word joiners after ':'
        return re.sub(r"\\(.)", r"\1", str(shown)).replace("\u2060", "")

    shown.columns = [unescape(label) for label in shown.columns]
    return shown.apply(lambda column: column.map(unescape))


def send_component_event(at: AppTest, key: str, event: str, value: object) -> AppTest:
    """Rerun `at` as the browser does when the components-v2 component with `key` calls
    `setTriggerValue(event, value)`: one JSON trigger on the component's "events" widget,
    beside the other widgets' states (Streamlit internals: allowed in tests only)."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    (component,) = [node for node in at.get("bidi_component") if node.proto.id.endswith(f"-{key}")]
    states = at._tree.get_widget_states()
    states.widgets.append(
        WidgetState(
            id=_make_trigger_id(component.proto.id, "events"),
            json_trigger_value=json.dumps([{"event": event, "value": value}]),
        )
    )
    return at._run(states)


def component_data(at: AppTest, key: str) -> dict:
    """The JSON data the components-v2 component with `key` was given on the last run."""
    (component,) = [node for node in at.get("bidi_component") if node.proto.id.endswith(f"-{key}")]
    return json.loads(component.proto.json)


def send_forged(at: AppTest, node, **fields) -> AppTest:
    """Rerun `at` with widget `node`'s state replaced by a forged one, as a modified browser
    could send it (`fields` of Streamlit's WidgetState: string_value, int_value,
    double_value, bool_value, string_array_value, double_array_value, …). Internals: tests
    only."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    states = at._tree.get_widget_states()
    kept = [w for w in states.widgets if w.id != node.id]
    del states.widgets[:]
    states.widgets.extend(kept)
    forged = WidgetState(id=node.id)
    for name, value in fields.items():
        target = getattr(forged, name)
        if name.endswith("_array_value"):
            target.data.extend(value)
        else:
            setattr(forged, name, value)
    states.widgets.append(forged)
    return at._run(states)


# Per widget kind, forged values of the kind's own wire type that no honest browser sends.
FORGERIES: dict[str, list[dict]] = {
    "multiselect": [{"string_array_value": ["no such option"]}, {"string_array_value": ["x"] * 50}],
    "radio": [{"string_value": "99"}, {"string_value": "<b>no</b>"}],
    "selectbox": [{"string_value": "no such option"}],
    "select_slider": [{"string_array_value": ["1e308"]}, {"string_array_value": ["a", "b", "c"]}],
    "slider": [{"double_array_value": [1e308]}, {"double_array_value": [-1e308, 1e308]}],
    "number_input": [{"double_value": 1e308}, {"double_value": -99.0}, {"int_value": 10**15}],
    "text_input": [{"string_value": "x" * 100_000}],
    "text_area": [{"string_value": "x\n" * 100_000}],
    "checkbox": [{"bool_value": True}],
    "toggle": [{"bool_value": True}],
}


def widgets_run_outside_fragments(page_file: str) -> set[str]:
    """The keys of the widgets a run of lessons/`page_file` (at its defaults) creates outside
    every @st.fragment, read from Streamlit's own fragment state as each widget registers:
    a press on one of them reruns the whole page. Download buttons are left out (the
    course's start no run: `on_click="ignore"`)."""
    from unittest import mock

    import streamlit.runtime.state.widgets as widgets
    from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState
    from streamlit.runtime.state.common import user_key_from_element_id

    from ui import downloads

    outside, downloaded = set(), set()
    register, download = widgets.register_widget_from_metadata, downloads.download_csv

    def registered(metadata, ctx):
        if ctx is not None and ThreadState.get().fragment_id is None:
            outside.add(user_key_from_element_id(metadata.id) or metadata.id)
        return register(metadata, ctx)

    def download_csv(*args, **kwargs):
        downloaded.add(kwargs["key"])
        return download(*args, **kwargs)

    with (
        mock.patch.object(widgets, "register_widget_from_metadata", registered),
        mock.patch.object(downloads, "download_csv", download_csv),
    ):
        run_lesson(page_file)
    return outside - downloaded
