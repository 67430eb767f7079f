"""Helpers for the AppTest page tests: run a lesson, read its metrics, find a chart and
read its data back.

A chart drawn with st.vega_lite_chart reaches AppTest as a proto: `proto.spec` is the
Vega-Lite JSON (with any inline `data.values`), and every named dataset is moved to
`proto.datasets` as Arrow IPC bytes.
"""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from conftest import page_apptest


def run_lesson(page_file: str) -> AppTest:
    """Run lessons/`page_file` once; no exception may appear."""
    at = page_apptest(page_file).run()
    assert not at.exception, at.exception
    return at


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
    """A chart element's Vega-Lite spec."""
    return json.loads(element.proto.spec)


def title_of(spec: dict) -> str:
    """A spec's title text (a title may be a string or {"text": …, "subtitle": …})."""
    title = spec.get("title", "")
    return title.get("text", "") if isinstance(title, dict) else str(title)


def frames_of(element) -> dict[str, pd.DataFrame]:
    """A chart element's named datasets (Arrow on the proto) as DataFrames, by name."""
    return {d.name: convert_arrow_bytes_to_pandas_df(d.data.data) for d in element.proto.datasets}


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
