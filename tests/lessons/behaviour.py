"""What every page shows, recorded before the restructure and compared after it.

`record()` runs each page (alone, seed 2026) at its defaults and at two other settings given
as link parameters (every page's controls are bound to the URL under stable keys), and keeps
its metrics, captions and the data rows of every chart. `tests/lessons/behaviour.json` is
that record; `test_behaviour.py` runs the pages again and compares. Re-record with

    .venv/bin/python tests/lessons/behaviour.py

only when a page's numbers are meant to change (a teaching correction), and say so in the
commit.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURE = HERE / "behaviour.json"

# Link parameters per page (keys are the widgets' URL keys), besides the defaults.
SETTINGS: dict[str, dict[str, dict[str, str]]] = {
    "home": {},
    "anonymisation": {
        "a": {"anon_qi": "Zip,Sex", "anon_eps": "0.1"},
        "b": {"anon_eps": "10"},
    },
    "definition": {"a": {"def_eps": "0.1"}, "b": {"def_eps": "5"}},
    "laplace": {
        "a": {"lap_eps": "0.1", "lap_n": "10,000", "lap_zoom": "true count ± 500"},
        "b": {"lap_eps": "5", "lap_age": "60"},
    },
    "composition": {"a": {"avg_eps": "0.1", "par_eps": "1"}, "b": {"group_eps": "5"}},
    "coin_flip": {"a": {"cf_n": "10,000", "cf_rate": "0.3"}, "b": {"cf_honest": "0.75"}},
    "binary_rr": {"a": {"grr_p": "0.9", "grr_q": "0.6"}, "b": {"grr_p": "0.3"}},
    "kary_rr": {"a": {"kary_eps": "0.1"}, "b": {"kary_eps": "5", "kary_column": "Race"}},
    "unary_encoding": {
        "a": {"ue_p": "0.9", "ue_q": "0.1"},
        "b": {"ue_mode": "OUE (optimized)", "ue_eps": "5"},
    },
    "central_vs_local": {"a": {"cvl_eps": "0.1"}, "b": {"cvl_eps": "5"}},
    "class_survey": {},
}


def _number(value):
    """Floats to 9 significant digits (Arrow and JSON round-trips differ in the last bit)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)  # 10 and 10.0 are the same number on a chart
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return float(f"{value:.9g}")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "item"):
        return _number(value.item())
    return value


def _rows(element) -> list[dict]:
    """All data rows of one chart (named datasets, spec datasets, inline values)."""
    import pyarrow as pa

    spec = json.loads(element.proto.spec)
    out: list[dict] = []
    for dataset in sorted(element.proto.datasets, key=lambda d: d.name):
        table = pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()
        out.extend(table)
    if element.proto.data.data:  # top-level data, which Streamlit sends as Arrow
        out.extend(pa.ipc.open_stream(element.proto.data.data).read_all().to_pylist())
    for name in sorted(spec.get("datasets", {})):
        out.extend(spec["datasets"][name])
    for part in [spec, *spec.get("layer", [])]:
        out.extend(part.get("data", {}).get("values", []))
    # Where a row sits (a named dataset, the spec, a layer) is how the chart is built, not
    # what it shows: compare the distinct rows, sorted.
    cleaned = {}
    for row in out:
        row = {str(k): _number(v) for k, v in row.items() if not str(k).startswith("__")}
        cleaned[json.dumps(row, sort_keys=True, ensure_ascii=False)] = row
    return [cleaned[key] for key in sorted(cleaned)]


def snapshot(at) -> dict:
    """Metrics, captions and chart rows of one AppTest run."""
    titles = []
    charts = []
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        title = spec.get("title", "")
        text = title.get("text", "") if isinstance(title, dict) else title
        # a long title's lines joined (ui.charts.title_lines): the words are what is pinned
        titles.append(" ".join(text) if isinstance(text, list) else str(text))
        charts.append(_rows(element))
    return {
        "metrics": [[m.label, m.value] for m in at.metric],
        "captions": [c.value for c in at.caption],
        "chart_titles": titles,
        "charts": charts,
    }


def run_page(page_path: Path, params: dict[str, str]):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(page_path), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def record(page_path_of) -> dict:
    result = {}
    for lesson, settings in SETTINGS.items():
        for name, params in {"default": {}, **settings}.items():
            at = run_page(page_path_of(lesson), params)
            result[f"{lesson}/{name}"] = {"params": params, **snapshot(at)}
            print(f"recorded {lesson}/{name}", file=sys.stderr)
    return result


def page_path(lesson: str) -> Path:
    """The page file of a lesson (the one place that knows the layout)."""
    folder = ROOT / "lessons" / lesson / "page.py"
    return folder if folder.exists() else ROOT / "lessons" / f"{lesson}.py"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    FIXTURE.write_text(json.dumps(record(page_path), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {FIXTURE}", file=sys.stderr)
