"""The one chart API (`Template`), the palette, and the layers two or more lessons share.

A lesson's charts.py builds each chart once as a `Template` (data-free, cached); its page
calls `template.show(title=…, alt=…, name=frame, …)` with this run's pre-aggregated
DataFrames (bins, not samples). Axes are fixed in the template; the true value is a
labelled rule (`truth_rule_layers`)."""

from __future__ import annotations

import html
import math
import re
import sys
import textwrap
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from ui import classroom, datasets, tables, text

# Okabe–Ito, a colour-blind-safe palette. Meaning never rests on colour alone: the
# true value is also dashed and labelled.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILLION = "#D55E00"
SKY = "#56B4E9"
BLACK = "#000000"
GREY = "#999999"

TRUTH_COLOUR = BLACK
NOISY_COLOUR = BLUE

DEFAULT_WIDTH = "container"
DEFAULT_HEIGHT = 260

# Presenter mode (ui/classroom.py): Vega-Lite draws text in pixels, so a projector needs its
# own font sizes, given to every chart as Vega-Lite config (documented; the spec's own config
# is kept, these sizes win). Marks with an explicit fontSize keep it.
PRESENTER_TEXT = "#1f1f1f"
PRESENTER_FONTS: dict = {
    "title": {"fontSize": 24, "subtitleFontSize": 18},
    # Axis and legend text in near-black, not Vega's light grey (#888): read from the back row.
    "axis": {
        "labelFontSize": 19,
        "titleFontSize": 20,
        # Room for a whole label at this size ("10,000,000,000" was cut to "10,000,00…");
        # an axis that sets its own labelLimit keeps it.
        "labelLimit": 400,
        "labelColor": PRESENTER_TEXT,
        "titleColor": PRESENTER_TEXT,
    },
    "legend": {
        "labelFontSize": 18,
        "titleFontSize": 18,
        "labelLimit": 400,
        "labelColor": PRESENTER_TEXT,
        "titleColor": PRESENTER_TEXT,
    },
    "header": {"labelFontSize": 17, "titleFontSize": 19},
    "text": {"fontSize": 17},
    # One label per row on a band axis (bar charts' categories): at projector sizes Vega's
    # overlap rule hid every other one in 22 px rows; rows are sized for one line each.
    "axisYBand": {"labelOverlap": False},
}

# Altair's default view size, which st.altair_chart leaves out too.
_ALTAIR_DEFAULT_CONFIG = {"view": {"continuousWidth": 300, "continuousHeight": 300}}


def _named_data(node, found: set[str]) -> set[str]:
    """Every `{"data": {"name": …}}` a spec reads, at any depth (layers, facets, concats)."""
    if isinstance(node, dict):
        data = node.get("data")
        if isinstance(data, dict) and "name" in data:
            found.add(data["name"])
        for value in node.values():
            _named_data(value, found)
    elif isinstance(node, list):
        for item in node:
            _named_data(item, found)
    return found


# --- A title that changes without changing the spec ----------------------------------------
# Streamlit (1.67) embeds a chart again, a full Vega parse, compile and render, whenever its
# spec's text changes, and otherwise swaps only the datasets that changed (bench/README.md,
# "When Streamlit 1.67 keeps a chart's Vega view"). A title with the current numbers ("ε = 1")
# is therefore read from a one-row dataset: its lines joined by TITLE_LINE_BREAK.
TITLE_DATA = "chart_title"
TITLE_LINE_BREAK = "\n"
_TITLE_KEEPS_KEYS = {
    "$schema",
    "title",
    "width",
    "height",
    "padding",
    "autosize",
    "config",
    "datasets",
    "background",
    "usermeta",
    "description",
    "resolve",
}
# Draws nothing; only makes Vega-Lite compile TITLE_DATA into the view's data.
_TITLE_LAYER = {
    "data": {"name": TITLE_DATA},
    "mark": {"type": "text", "opacity": 0, "aria": False},
    "encoding": {},
}


_TITLE_ROWS = f"data('{TITLE_DATA}')"
# The title's text as the spec writes it: the dataset's one row, split into its lines.
TITLE_TEXT = {"expr": f"length({_TITLE_ROWS}) ? split({_TITLE_ROWS}[0].text, '\\n') : ''"}


def _with_title_layer(spec: dict) -> dict | None:
    """`spec` with _TITLE_LAYER added: as one more layer, or a single view made the first of
    two layers (its view-level keys move into it), or in a concat's first view (Vega-Lite
    compiles every dataset into the one view, where the top-level title reads it). None for
    a facet or a repeat."""
    if "layer" in spec:
        return {**spec, "layer": [*spec["layer"], _TITLE_LAYER]}
    for key in ("vconcat", "hconcat", "concat"):
        if spec.get(key):
            first = _with_title_layer(spec[key][0])
            return None if first is None else {**spec, key: [first, *spec[key][1:]]}
    if "mark" not in spec:
        return None
    top = {key: value for key, value in spec.items() if key in _TITLE_KEEPS_KEYS}
    view = {key: value for key, value in spec.items() if key not in _TITLE_KEEPS_KEYS}
    return {**top, "layer": [view, _TITLE_LAYER]}


def _title_from_data(title: str | list[str] | dict) -> tuple[dict, pa.Table]:
    """A (wrapped) title as the spec's title, whose text is read from TITLE_DATA, and that
    one-row table. Lines start at the chart's left edge, long or short, so that the spec
    does not change when a title grows a second line. A subtitle stays in the spec
    (Vega-Lite reads only a title's text from an expression): it holds no slider's value."""
    if not isinstance(title, dict):
        title = {"text": title}
    lines = title["text"] if isinstance(title["text"], list) else [title["text"]]
    row = {"text": [TITLE_LINE_BREAK.join(str(line) for line in lines)]}
    params = {"anchor": "start", "frame": "bounds", **title, "text": TITLE_TEXT}
    return params, pa.table(row)


def _about(spec: dict) -> str:
    """What a chart shows, from its encodings' titles ("Chart of share of answers against
    noisy answer"), for its accessible name: words that do not change from run to run."""
    found: dict[str, str] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            encoding = node.get("encoding")
            if isinstance(encoding, dict):
                for channel in ("x", "y", "color"):
                    definition = encoding.get(channel)
                    name = _title_of(definition) if isinstance(definition, dict) else None
                    if name and channel not in found:
                        found[channel] = name
            for key in ("layer", "hconcat", "vconcat", "concat", "spec"):
                walk(node.get(key))
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(spec)
    if "x" in found and "y" in found:
        what = f"Chart of {found['y']} against {found['x']}"
    elif found:
        what = "Chart of " + ", ".join(found.values())
    elif titled := [name.title for name in _field_titles(spec).values() if name.titled]:
        what = "Chart of " + ", ".join(titled[:3])  # no titled axis: a heatmap's tooltip
    else:
        what = "Chart"
    return f"{what}. The numbers it shows now follow it."


def arrow_table(frame: pd.DataFrame) -> pa.Table:
    """`frame` as the Arrow table a chart sends: its columns only (a chart reads fields,
    never the index; nor pandas' schema note, ~500 bytes a dataset), and every text column
    dictionary-encoded, so that a label repeated on each of a curve's hundreds of rows goes
    over the wire once (the two-worlds chart of the Laplace lesson: 47 KB as plain strings,
    16 KB so). Built column by column from numpy (0.17 ms for a 60-bin histogram against
    0.30 ms through pa.Table.from_pandas); NaN becomes null, as from_pandas does."""
    arrays = []
    for name in frame.columns:
        series = frame[name]
        if pd.api.types.is_numeric_dtype(series.dtype):  # numbers and booleans
            arrays.append(pa.array(series.to_numpy(), from_pandas=True))
            continue
        array = pa.array(series.to_numpy(dtype=object), from_pandas=True)
        if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
            array = array.dictionary_encode()
            if len(array.dictionary) <= 127:  # the usual case: a byte per row
                array = array.cast(pa.dictionary(pa.int8(), array.type.value_type))
        arrays.append(array)
    return pa.Table.from_arrays(arrays, names=[str(name) for name in frame.columns])


def _arrow(frame: pd.DataFrame) -> pa.Table:
    """`arrow_table(frame)`, made once per frame object (datasets.derived_from): a cached
    census result is the same object on every rerun and for every session, so it is
    converted once (pandas to Arrow costs ~0.5 ms a frame), not on every slider move."""
    return datasets.derived_from(frame, ("chart_arrow",), lambda: arrow_table(frame))


# What a non-linear axis's title must say (a reader assumes a linear axis otherwise).
_SCALE_WORDS = {"log": " (log)", "sqrt": " (√ scale)", "symlog": " (symlog)", "pow": " (power)"}
_SAYS_SCALE = ("log", "√", "sqrt", "square root", "power")


def _label_nonlinear_axes(node: object) -> None:
    """In a spec being built: every x or y encoding on a log, √, symlog or power scale whose
    title does not say so gets the scale's name appended (e.g. "share of answers (√ scale)")."""
    if isinstance(node, dict):
        encoding = node.get("encoding")
        if isinstance(encoding, dict):
            for channel in ("x", "y"):
                field = encoding.get(channel)
                if not isinstance(field, dict):
                    continue
                scale = field.get("scale")
                kind = scale.get("type") if isinstance(scale, dict) else None
                if kind not in _SCALE_WORDS:
                    continue
                axis = field.get("axis") if isinstance(field.get("axis"), dict) else None
                holder = axis if axis is not None and isinstance(axis.get("title"), str) else field
                title = holder.get("title")
                if isinstance(title, str) and not any(w in title.lower() for w in _SAYS_SCALE):
                    holder["title"] = title + _SCALE_WORDS[kind]
        for value in node.values():
            _label_nonlinear_axes(value)
    elif isinstance(node, list):
        for value in node:
            _label_nonlinear_axes(value)


# A legend below its chart, one entry per line: it never runs past the chart's right edge,
# whatever the width (a one-row legend of long labels did, by up to 267 px). Two columns where
# the labels are short.
STACKED_LEGEND = alt.Legend(orient="bottom", title=None, direction="vertical", labelLimit=0)
TWO_COLUMN_LEGEND = alt.Legend(
    orient="bottom", title=None, direction="horizontal", columns=2, labelLimit=0
)


_LEGEND_CHANNELS = (
    "color",
    "fill",
    "stroke",
    "strokeDash",
    "shape",
    "size",
    "opacity",
    "fillOpacity",
    "strokeOpacity",
    "strokeWidth",
)


def _legend_channels(node: object):
    """Every (channel definition) of a legend channel in a spec, in all layers."""
    if isinstance(node, dict):
        encoding = node.get("encoding")
        if isinstance(encoding, dict):
            for channel in _LEGEND_CHANNELS:
                if isinstance(encoding.get(channel), dict) and "field" in encoding[channel]:
                    yield encoding[channel]
        for value in node.values():
            yield from _legend_channels(value)
    elif isinstance(node, list):
        for value in node:
            yield from _legend_channels(value)


def _share_legends(spec: dict) -> None:
    """Vega-Lite merges the legends of channels that share a field (colour and dash of one
    series). When one of them says legend=None and another draws one, it warns ("Conflicting
    legend property 'disable'") and picks one; here the channels without a legend take the
    drawn one's, so the merged legend is the one the chart asked for and the console stays
    clean. A field whose every channel has legend=None keeps none."""
    by_field: dict[str, list[dict]] = {}
    for definition in _legend_channels(spec):
        by_field.setdefault(str(definition["field"]), []).append(definition)
    for definitions in by_field.values():
        drawn = [d.get("legend", {}) for d in definitions if d.get("legend", {}) is not None]
        if not drawn or len(drawn) == len(definitions):
            continue
        legend = next((d for d in drawn if isinstance(d, dict)), {})
        for definition in definitions:
            if definition.get("legend", {}) is None:
                definition["legend"] = dict(legend)


class Template:
    """A chart built once with Altair (data-free) and drawn each run with this run's
    DataFrames, title and alt text: the one way the app draws a chart.

    Building and validating an Altair chart costs tens of milliseconds, so a lesson's
    charts.py builds each template once (a cached function) and the page calls `show`.
    `datasets` are the names of the data the chart reads (`alt.NamedData(name=…)`); `show`
    must be given exactly those, as DataFrames. The spec is never changed after building:
    every call shares it, and Streamlit copies the top level before it touches it."""

    def __init__(self, chart: alt.TopLevelMixin) -> None:
        spec = chart.to_dict(validate=False)
        if spec.get("config") == _ALTAIR_DEFAULT_CONFIG:
            del spec["config"]
        # Room above the title (without it the ascenders are clipped in the app), and
        # fit-x: the width follows the container, the height is the plot's own.
        spec.setdefault("padding", {"left": 5, "top": 12, "right": 5, "bottom": 5})
        spec.setdefault("autosize", {"type": "fit-x", "contains": "padding"})
        # Layers that share data get it hoisted by Altair to the top level, where the app's
        # Vega-Lite embed draws a named dataset empty: give it back to each layer.
        if "layer" in spec and "data" in spec:
            shared = spec.pop("data")
            spec["layer"] = [
                layer if "data" in layer else {**layer, "data": shared} for layer in spec["layer"]
            ]
        _label_nonlinear_axes(spec)
        _share_legends(spec)
        self.spec: dict = spec
        # What the chart is, in words that never change (its accessible name); the current
        # numbers are the text `show` puts right after it.
        self.about: str = _about(spec)
        self._titled: dict | None = None  # self.spec with a title read from TITLE_DATA
        self._field_titles: dict[str, FieldName] | None = None
        # Data written into the chart when it was built (alt.Data values that Altair moved
        # to the top-level "datasets") is part of the template, not something to fill.
        self.datasets: frozenset[str] = frozenset(
            _named_data(spec, set()) - set(spec.get("datasets", {}))
        )

    def filled(self, *, title: str | dict | None = None, **datasets: pd.DataFrame) -> dict:
        """The Vega-Lite spec with this run's title and data (a new top-level dict).

        The spec stays the same from run to run, so that the browser updates the chart in
        place (Streamlit embeds it again, ~50 ms, whenever the spec's text changes): the
        title's words go into the one-row dataset TITLE_DATA, which the spec's title reads
        (`titled_spec`). A facet or a repeat keeps its title in the spec."""
        given = set(datasets)
        if given != self.datasets:
            missing, unknown = sorted(self.datasets - given), sorted(given - self.datasets)
            raise ValueError(
                f"datasets: this chart reads {sorted(self.datasets)}; "
                f"missing {missing}, unknown {unknown}"
            )
        for name, frame in datasets.items():
            if not isinstance(frame, pd.DataFrame):
                raise TypeError(
                    f"datasets: {name!r} must be a DataFrame, not {type(frame).__name__}"
                )
        filled = dict(self.spec)
        tables = {name: _arrow(frame) for name, frame in datasets.items()}
        if title is not None:
            titled = self.titled_spec()
            if titled is None:
                filled["title"] = title
            else:
                filled = dict(titled)
                filled["title"], tables[TITLE_DATA] = _title_from_data(title)
        if tables:
            filled["datasets"] = {**self.spec.get("datasets", {}), **tables}
        return filled

    def titled_spec(self) -> dict | None:
        """The spec with one more layer, which draws nothing and reads TITLE_DATA, so that
        Vega-Lite compiles that dataset for the title to read (None for a facet or a repeat)."""
        if self._titled is None:
            self._titled = _with_title_layer(self.spec) or {}
        return self._titled or None

    def show(
        self,
        *,
        alt: str,
        title: str | dict | None = None,
        numbers_key: str | None = None,
        **datasets: pd.DataFrame,
    ) -> None:
        """Draw the chart as wide as its container (or at the width in pixels its template
        gives: a square plot); in presenter mode with projector fonts. Its accessible name is
        `about` (fixed, so that the chart updates in place), and right after it comes `alt`,
        the current numbers in words, as text that only a screen reader reads (WCAG 1.1.1: a
        short name and a long description next to it). Under it, "Show the numbers": the
        chart's data as tables (`numbers`), sent only once opened. `numbers_key` names that
        expander where one line of a page draws several charts (a loop); by default it is
        the page line that called `show`."""
        presenting = classroom.presenting()
        spec = self.filled(title=wrapped_title(title, presenting=presenting), **datasets)
        if presenting:
            spec = presenter_spec(spec)
        fixed = isinstance(spec.get("width"), int | float)
        st.vega_lite_chart(spec, width="content" if fixed else "stretch", alt=self.about)
        st.html(f'<p class="{DESCRIPTION_CLASS}">{html.escape(alt)}</p>')
        if numbers_key is None:
            caller = sys._getframe(1)
            numbers_key = f"{caller.f_code.co_filename.rsplit('/', 2)[-2]}_{caller.f_lineno}"
        _show_numbers(self, datasets, key=NUMBERS_KEY_PREFIX + numbers_key)

    def field_titles(self) -> dict[str, FieldName]:
        """What the chart calls each field its encodings read: the tooltip's title (written
        for one value), else an encoding's, axis's or legend's; the field's own name where
        it has none (a colour's series); and whether it is shown as a percentage."""
        if self._field_titles is None:  # the spec never changes: walk it once
            self._field_titles = _field_titles(self.spec)
        return self._field_titles


# --- "Show the numbers": a chart's data as tables, for a screen reader (WCAG 1.1.1) ---------
NUMBERS_LABEL = "Show the numbers"
# The current numbers in words, right after a chart: read by a screen reader, not shown
# (ui/style.css takes it out of the layout).
DESCRIPTION_CLASS = "pp-chart-description"
NUMBERS_KEY_PREFIX = "numbers_"
NUMBERS_HEIGHT_PX = 320  # a longer table scrolls in its box, under a sticky header
_TITLED_PARTS = ("axis", "legend", "header")
_DRAWING_CHANNELS = ("order", "detail", "sort")  # fields read only to draw, not data


@dataclass(frozen=True)
class FieldName:
    """What a chart calls one data field: `title` (its own name with spaces where the chart
    gives none), whether the chart `titled` it, and whether it shows it as a `percent`."""

    title: str
    titled: bool
    percent: bool


def _title_of(definition: dict) -> str | None:
    titles = [definition.get("title")]
    titles += [(definition.get(part) or {}).get("title") for part in _TITLED_PARTS]
    for title in titles:
        if isinstance(title, list):
            title = " ".join(str(line) for line in title)
        if isinstance(title, str) and title.strip():
            return title.strip()
    return None


def _field_titles(spec: object) -> dict[str, FieldName]:
    titles: dict[str, str] = {}
    tooltips: dict[str, str] = {}
    percent: set[str] = set()

    def walk(node: object, in_tooltip: bool, channel: str = "") -> None:
        if isinstance(node, dict):
            field = node.get("field")
            if isinstance(field, str) and channel not in _DRAWING_CHANNELS:
                titles.setdefault(field, "")
                if title := _title_of(node):
                    if in_tooltip:
                        tooltips.setdefault(field, title)
                    elif not titles[field]:
                        titles[field] = title
                formats = [node.get("format")]
                formats += [(node.get(part) or {}).get("format") for part in _TITLED_PARTS]
                if any(isinstance(f, str) and f.endswith("%") for f in formats):
                    percent.add(field)
            for name, child in node.items():
                if name not in ("datasets", "data"):
                    walk(child, in_tooltip or name == "tooltip", name)
        elif isinstance(node, list):
            for child in node:
                walk(child, in_tooltip, channel)

    walk(spec, False)
    titles.update(tooltips)
    return {
        field: FieldName(title or field.replace("_", " "), bool(title), field in percent)
        for field, title in titles.items()
    }


def numbers(
    template: Template, datasets: dict[str, pd.DataFrame]
) -> list[tuple[str, pd.DataFrame]]:
    """The data a chart draws as tables a reader can take in: (what it is, a frame) per
    dataset with rows. Its columns are those the chart's encodings read, renamed to what
    the chart calls them ("ε", "share of the answers"; `field_titles`), a share the chart
    shows as a percentage written as one ("12.5%"); a column no encoding reads, or one
    read only to order or group the marks, is left out. A dataset with no titled column
    (a band's edges, a label's position: drawn around the data, not data) is left out
    too, unless no dataset has one."""
    names = template.field_titles()
    titled = {field for field, name in names.items() if name.titled}
    any_titled = any(set(frame.columns) & titled for frame in datasets.values())
    shown = []
    for name, frame in sorted(datasets.items()):
        columns = [column for column in frame.columns if column in names]
        if frame.empty or not columns or (any_titled and not set(columns) & titled):
            continue
        table = {}
        for column in columns:
            label = names[column].title
            if label in table:
                label += f" ({str(column).replace('_', ' ')})"
            values = frame[column]
            if names[column].percent and pd.api.types.is_numeric_dtype(values):
                values = values.map(lambda share: text.number(100 * share, 3) + "%")
            table[label] = values.to_numpy()
        shown.append((name.replace("_", " "), pd.DataFrame(table)))
    return shown


def _show_numbers(template: Template, datasets: dict[str, pd.DataFrame], *, key: str) -> None:
    """Under a chart: an expander "Show the numbers" with its data as tables, sent only
    once it is open (Streamlit's lazy expander, as the code snippets)."""
    with st.expander(NUMBERS_LABEL, icon=":material/table:", key=key, on_change="rerun") as box:
        if not box.open:
            return
        found = numbers(template, datasets)
        if not found:
            st.caption("This chart draws no data at these settings.")
        for position, (name, frame) in enumerate(found):
            rows = len(frame)
            st.caption(f"{name.capitalize()}: {rows:,} row{'s' if rows != 1 else ''}")
            tall = NUMBERS_HEIGHT_PX if rows > 8 else None
            tables.show(frame, key=f"{key}_{position}", height=tall)


# A chart's title on one line is cut with "…" where the chart is narrower than it: on a
# phone (~358 px at 13 px, ~40 characters) and in presenter mode's narrower column (24 px,
# ~34 characters), 11 titles lost their current values ("…T = …"). A
# longer title is written on several lines, broken between words, never inside "ε = 0.1".
TITLE_LINE_CHARS = 40
PRESENTER_TITLE_LINE_CHARS = 34
_KEEP_TOGETHER = re.compile(r" ([=≤≥<>×·]) ")


def title_lines(title: str, width: int) -> str | list[str]:
    """`title` as it fits lines of `width` characters: itself when it fits one, else its
    lines (a Vega title draws a list as lines). A space beside =, ≤, ≥, <, >, × or · never
    breaks ("ε = 0.1" stays whole)."""
    if isinstance(width, bool) or not isinstance(width, int):
        raise TypeError("width must be an int")
    if width < 10:
        raise ValueError(f"width must be at least 10, got {width}")
    if not isinstance(title, str):
        raise TypeError("title must be a str")
    if len(title) <= width:
        return title
    glued = _KEEP_TOGETHER.sub("\u00a0\\1\u00a0", title)
    lines = textwrap.wrap(glued, width=width, break_long_words=False, break_on_hyphens=False)
    return [line.replace("\u00a0", " ") for line in lines]


def wrapped_title(title: str | dict | None, *, presenting: bool) -> str | list[str] | dict | None:
    """A chart's title (or a {"text": …} title's text) wrapped for the narrowest screen
    it is drawn on: a phone, or presenter mode's larger font."""
    width = PRESENTER_TITLE_LINE_CHARS if presenting else TITLE_LINE_CHARS
    if isinstance(title, str):
        title = {"text": title}
    if not (isinstance(title, dict) and isinstance(title.get("text"), str)):
        return title
    lines = title_lines(title["text"], width)
    if isinstance(lines, str):
        return title if set(title) != {"text"} else lines
    # Lines start at the chart's left edge (its bounds, axes included): centred over a
    # narrow plot, a long line reached past the chart on both sides.
    return {"anchor": "start", "frame": "bounds", **title, "text": lines}


# An axis or legend that sets its own labelLimit (in px, for the page's own label size) gets
# it scaled with the presenter's labels: "has a university degree (8…" and "Handlers-clean…"
# were cut at 19 px. Streamlit's own labels are 11-12 px.
PRESENTER_LABEL_SCALE = PRESENTER_FONTS["axis"]["labelFontSize"] / 11
_DATA_KEYS = frozenset({"data", "datasets", "values"})  # never walked: the rows


def _presenter_limits(node):
    """`node` with every explicit axis or legend labelLimit scaled for the projector."""
    if isinstance(node, list):
        return [_presenter_limits(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in _DATA_KEYS:
            out[key] = value
            continue
        if key in ("axis", "legend") and isinstance(value, dict):
            limit = value.get("labelLimit")
            if isinstance(limit, int | float) and limit > 0:
                scaled = min(PRESENTER_FONTS["axis"]["labelLimit"], limit * PRESENTER_LABEL_SCALE)
                value = {**value, "labelLimit": round(scaled)}
        out[key] = _presenter_limits(value)
    return out


def presenter_spec(spec: dict) -> dict:
    """`spec` (a filled template) with PRESENTER_FONTS merged into its config, per group,
    and its own label limits scaled to the projector's labels."""
    config = dict(spec.get("config", {}))
    for group, sizes in PRESENTER_FONTS.items():
        config[group] = {**config.get(group, {}), **sizes}
    return {**_presenter_limits({k: v for k, v in spec.items() if k != "config"}), "config": config}


def histogram_frame(
    values: np.ndarray, *, domain: tuple[float, float], bins: int = 60
) -> pd.DataFrame:
    """Counts of `values` in `bins` equal bins over `domain`; values beyond the domain
    are counted in the edge bins (the axis never rescales)."""
    lo, hi = float(domain[0]), float(domain[1])
    values = np.clip(np.asarray(values, dtype=float), lo, hi)
    counts, edges = np.histogram(values, bins=bins, range=(lo, hi))
    return pd.DataFrame(
        {
            "start": edges[:-1],
            "end": edges[1:],
            "count": counts,
            "share": counts / max(len(values), 1),
        }
    )


def truth_rule_layers(
    x_scale: alt.Scale | None = None,
    *,
    data: alt.Data | pd.DataFrame | None = None,
    label_dy: float = -4,
    flip_at: float | None = None,
) -> alt.LayerChart:
    """The true value as a dashed vertical rule labelled at the top: fields "x" and "label"
    of `data` (by default the named dataset "truth", filled in per rerun). The label sits
    right of the rule; with `flip_at`, left of it once x >= flip_at (so a rule near the
    right edge keeps its label inside the chart)."""
    base = alt.Chart(alt.NamedData(name="truth") if data is None else data)
    x = alt.X("x:Q", scale=x_scale) if x_scale is not None else alt.X("x:Q")
    rule = base.mark_rule(color=TRUTH_COLOUR, strokeDash=[6, 3], strokeWidth=2).encode(x=x)
    style = {"dy": label_dy, "baseline": "top", "color": TRUTH_COLOUR, "fontWeight": "bold"}
    encoding = {"x": x, "y": alt.value(0), "text": "label:N"}
    right_of = base.mark_text(align="left", dx=4, **style).encode(**encoding)
    if flip_at is None:
        return rule + right_of
    left_of = base.mark_text(align="right", dx=-4, **style).encode(**encoding)
    return (
        rule
        + right_of.transform_filter(alt.datum.x < flip_at)
        + left_of.transform_filter(alt.datum.x >= flip_at)
    )


def truth_ticks(
    y: alt.Y, x_scale: alt.Scale, *, size: float, colour: str = TRUTH_COLOUR
) -> alt.Chart:
    """The true count of each category as a tick across its bar(s): fields "category" and
    "true count" of the named dataset "truth"."""
    return (
        alt.Chart(alt.NamedData(name="truth"))
        .mark_tick(color=colour, thickness=3, size=size)
        .encode(
            y=y,
            x=alt.X("true count:Q", scale=x_scale),
            tooltip=[alt.Tooltip("category:N"), alt.Tooltip("true count:Q", format=",")],
        )
    )


def describe_histogram(values: np.ndarray, truth: float, *, what: str = "noisy answers") -> str:
    """Alt text for a histogram: how many values, where they centre, how far they spread
    (shared by array identity, as band_histogram_data: two percentiles of 10,000 values are
    not redone for every student)."""
    if isinstance(values, np.ndarray):
        key = ("describe_histogram", float(truth), what)
        return datasets.derived_from(values, key, lambda: _describe_histogram(values, truth, what))
    return _describe_histogram(values, truth, what)


def _describe_histogram(values, truth: float, what: str) -> str:
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return f"An empty histogram of {what}."
    lo, hi = np.percentile(values, [2.5, 97.5])
    return (
        f"Histogram of {values.size:,} {what}. The true value {truth:,.0f} is drawn as a "
        f"dashed line. Answers centre on {np.median(values):,.1f}; 95% of them lie between "
        f"{lo:,.1f} and {hi:,.1f}."
    )


def curve(data: str, x: alt.X, y: alt.Y, tooltip: list, *, colour: str = BLUE) -> alt.Chart:
    """A 2 px line through the named dataset `data` (a curve over ε, k, m, …)."""
    return (
        alt.Chart(alt.NamedData(name=data))
        .mark_line(color=colour, strokeWidth=2)
        .encode(x=x, y=y, tooltip=tooltip)
    )


def _superscript(expression: str) -> str:
    """A Vega expression: `expression`'s text with digits and minus signs superscripted."""
    for plain_char, raised in zip("-−0123456789", "⁻⁻⁰¹²³⁴⁵⁶⁷⁸⁹", strict=True):
        expression = f"replace({expression}, regexp('{plain_char}', 'g'), '{raised}')"
    return expression


_EXPONENT = "round(log(datum.value) / LN10)"
_EXPONENT_TEXT = _superscript("format(" + _EXPONENT + ", 'd')")
# Axis labels of a log axis that reaches small values: every power of ten below 1 as 10⁻ⁿ
# (10⁻⁵, 10⁻², 10⁻¹), any other value with d3's "~g" (0.05, 1, 200). One notation on one
# axis: with ui.text.power_of_ten's threshold (0.01) the ticks read "10⁻³, 0.01, 0.1".
# Vega's own "~g" or "~e" gave "1e-14".
POWER_OF_TEN_LABELS = (
    "datum.value > 0 && datum.value < 1 && "
    f"abs(log(datum.value) / LN10 - {_EXPONENT}) < 1e-6 "
    f"? '10' + {_EXPONENT_TEXT} "
    ": format(datum.value, '~g')"
)


def power_of_ten_axis(**kwargs) -> alt.Axis:
    """An axis for a log scale that reaches small probabilities (δ, a density): 10⁻¹⁴, not
    1e-14 (the labels as ui.text.power_of_ten writes numbers on the page)."""
    return alt.Axis(labelExpr=POWER_OF_TEN_LABELS, **kwargs)


def log_density_y(domain: tuple[float, float]) -> alt.Y:
    """The y axis of a density plotted on a fixed log scale (values beyond it are clamped)."""
    return alt.Y(
        "density:Q",
        title="density",
        scale=alt.Scale(type="log", domain=list(domain), clamp=True),
        axis=power_of_ten_axis(),
    )


def reference_line_layers(
    data: alt.Data | alt.NamedData, field: str, *, y_scale: alt.Scale, below: bool = False
):
    """A dashed horizontal reference line at `field` with its `label` written on the left,
    above the line (or, with `below`, under it: where a curve runs just above the line)
    (e.g. the prior belief, or a coin toss's 50%)."""
    base = alt.Chart(data)
    rule = base.mark_rule(color=BLACK, strokeDash=[6, 3]).encode(
        y=alt.Y(f"{field}:Q", scale=y_scale)
    )
    place = {"baseline": "top", "dy": 4} if below else {"dy": -6}
    text = base.mark_text(align="left", dx=4, color=BLACK, fontWeight="bold", **place).encode(
        x=alt.value(0), y=alt.Y(f"{field}:Q", scale=y_scale), text="label:N"
    )
    return rule + text


def marked_point_layers(
    data: alt.Data | alt.NamedData,
    x: str,
    y: str,
    *,
    x_scale: alt.Scale,
    y_scale: alt.Scale,
    flip_at: float | None = None,
):
    """A blue diamond at the current (x, y) on a curve, with its `label` beside it: to its
    left, or, with `flip_at`, to its right while x < flip_at (so a label near the left edge of
    the plot does not run over the axis)."""
    base = alt.Chart(data)
    encoding = {"x": alt.X(f"{x}:Q", scale=x_scale), "y": alt.Y(f"{y}:Q", scale=y_scale)}
    point = base.mark_point(shape="diamond", size=160, filled=True, color=BLUE).encode(**encoding)
    left_of = base.mark_text(align="right", dx=-10, dy=-10, color=BLUE, fontWeight="bold")
    if flip_at is None:
        return point + left_of.encode(**encoding, text="label:N")
    right_of = base.mark_text(align="left", dx=10, dy=-10, color=BLUE, fontWeight="bold")
    field = alt.datum[x]
    return (
        point
        + left_of.encode(**encoding, text="label:N").transform_filter(field >= flip_at)
        + right_of.encode(**encoding, text="label:N").transform_filter(field < flip_at)
    )


@datasets.cached(max_entries=64)
def band_histogram(
    domain: tuple[float, float], x_title: str, y_max: float, colour: str, with_band: bool
) -> Template:
    """Template (shared by the randomized-response lessons): a histogram (share per bin,
    fixed axes; dataset "bins"), the truth as a dashed labelled rule ("truth"), and with
    `with_band` dotted rules at truth ± 2 SD ("band")."""
    x_scale = alt.Scale(domain=list(domain), nice=False)
    bars = (
        alt.Chart(alt.NamedData(name="bins"))
        .mark_bar(color=colour, opacity=0.85)
        .encode(
            x=alt.X("start:Q", title=x_title, scale=x_scale),
            x2="end:Q",
            y2=alt.datum(0),
            y=alt.Y(
                "share:Q",
                title="share of surveys",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, y_max], clamp=True),
            ),
            tooltip=[
                alt.Tooltip("start:Q", format=",.0f", title="from"),
                alt.Tooltip("end:Q", format=",.0f", title="to"),
                alt.Tooltip("count:Q", format=",", title="surveys"),
            ],
        )
    )
    layers = bars + truth_rule_layers(x_scale)
    if with_band:
        layers += (
            alt.Chart(alt.NamedData(name="band"))
            .mark_rule(color=VERMILLION, strokeDash=[2, 2], strokeWidth=2)
            .encode(x=alt.X("x:Q", scale=x_scale))
        )
    return Template(layers.properties(title="", height=DEFAULT_HEIGHT, width="container"))


# Chart data derived from a cached array is made once per array object (datasets.derived_from):
# a census result is the same array for every session, so every student's first render at
# the defaults reuses one set of frames (and, through _arrow, their Arrow form) instead of
# binning 10,000 values again (~5 ms of a lesson's first render).


def band_histogram_data(
    values: np.ndarray,
    *,
    truth: float,
    sd: float | None = None,
    domain: tuple[float, float],
    bins: int,
) -> dict[str, pd.DataFrame]:
    """The data of `band_histogram`: share per bin over the fixed `domain`, the truth and,
    if `sd` is given, truth ± 2 SD (clamped to the axis). Shared by every caller with the
    same array object and arguments (datasets.derived_from)."""
    key = ("band_histogram", float(truth), sd, tuple(map(float, domain)), int(bins))
    return datasets.derived_from(
        values, key, lambda: _band_histogram_data(values, truth, sd, domain, bins)
    )


def _band_histogram_data(values, truth, sd, domain, bins) -> dict[str, pd.DataFrame]:
    data = {
        "bins": histogram_frame(values, domain=domain, bins=bins),
        "truth": pd.DataFrame({"x": [float(truth)], "label": ["true value"]}),
    }
    if sd is not None:
        lo, hi = domain
        data["band"] = pd.DataFrame(
            {
                "x": [min(max(truth - 2 * sd, lo), hi), min(max(truth + 2 * sd, lo), hi)],
                "label": ["−2 SD", "+2 SD"],
            }
        )
    return data


# --- charts that two or more lessons draw -----------------------------------------------------
# A lesson's charts.py may not import another lesson's charts (tests/lessons/test_imports.py):
# a picture two lessons share lives here, with its lesson-specific parts as arguments.

ROW_LEGEND = alt.Legend(orient="bottom", title=None, direction="horizontal", labelLimit=0)
CURVE_COLOURS = (BLUE, VERMILLION, GREEN, ORANGE, BLACK, SKY)
CURVE_DASHES = ((1, 0), (6, 3), (2, 2), (8, 2, 2, 2), (1, 3), (12, 4))
CURVE_HEIGHT = 240

# A curve chart's legend draws each series as a short line in its colour and dash (not as the
# point a line with points would give it), long enough for the dash to show.
_CURVE_SYMBOL = {"symbolType": "stroke", "symbolSize": 300, "symbolStrokeWidth": 2.5}
CURVE_LEGENDS = {
    "row": alt.Legend(
        orient="bottom", title=None, direction="horizontal", labelLimit=0, **_CURVE_SYMBOL
    ),
    "stacked": alt.Legend(
        orient="bottom", title=None, direction="vertical", labelLimit=0, **_CURVE_SYMBOL
    ),
    "two columns": alt.Legend(
        orient="bottom",
        title=None,
        direction="horizontal",
        columns=2,
        labelLimit=0,
        **_CURVE_SYMBOL,
    ),
}

POWERS = "powers of ten"  # an axis format: 10⁻⁵ for small powers of ten (never "1e-5")


@dataclass(frozen=True)
class Axis:
    """A quantitative axis of a curve chart: the data `field`, its `title`, the fixed
    `domain` (values beyond it are clamped), linear or `log`, the label `format` (d3's, or
    POWERS), the tick `values` (None: Vega's own), and the tooltip's title and format
    (default: the axis title, and the label format)."""

    field: str
    title: str
    domain: tuple[float, float]
    log: bool = False
    format: str = "~g"
    values: tuple[float, ...] | None = None
    tip: str | None = None
    tip_format: str | None = None

    @classmethod
    def on_grid(cls, field: str, title: str, grid, *, log: bool = True, **options) -> Axis:
        """An axis over the points a curve is computed at (`grid`, ascending): from the
        first to the last, a tick at each; log by default (ε, steps, n)."""
        values = tuple(float(v) for v in grid)
        return cls(field, title, (values[0], values[-1]), log=log, values=values, **options)

    def scale(self) -> alt.Scale:
        kind = {"type": "log"} if self.log else {}
        return alt.Scale(**kind, domain=[float(v) for v in self.domain], nice=False, clamp=True)

    def middle(self) -> float:
        low, high = self.domain
        return math.sqrt(low * high) if self.log else (low + high) / 2

    def axis(self) -> alt.Axis:
        values = {} if self.values is None else {"values": list(self.values)}
        if self.format == POWERS:
            return power_of_ten_axis(**values)
        return alt.Axis(format=self.format, **values)

    def tooltip(self, default_format: str) -> alt.Tooltip:
        tip_format = self.tip_format or (default_format if self.format == POWERS else self.format)
        return alt.Tooltip(f"{self.field}:Q", format=tip_format, title=self.tip or self.title)


@dataclass(frozen=True)
class Series:
    """The lines of a curve chart: one per value of `field`, in the order of `names`, told
    apart by colour *and* dash (print and colour-blind readers), and by width where
    `widths` are given; `legend` "auto" (none for one line, a row for short names, else one
    a line; a row holds names of fewer than 30 characters in all, whose lines fit a phone),
    "row", "stacked" or "two columns". No `field`: one blue line."""

    field: str | None = None
    names: tuple[str, ...] = ()
    colours: tuple[str, ...] = CURVE_COLOURS
    dashes: tuple[tuple[float, ...], ...] = CURVE_DASHES
    widths: tuple[float, ...] | None = None
    legend: str = "auto"
    tip: str = " "

    def __post_init__(self) -> None:
        if self.field is not None and not self.names:
            raise ValueError("names: a series field needs its names, in order")
        if len(self.names) > min(len(self.colours), len(self.dashes)):
            raise ValueError(f"names: {len(self.names)} lines, but fewer colours or dashes")

    def _legend(self) -> alt.Legend | None:
        chosen = self.legend
        if chosen == "auto":
            short = sum(map(len, self.names)) < 30
            chosen = "none" if len(self.names) == 1 else "row" if short else "stacked"
        return None if chosen == "none" else CURVE_LEGENDS[chosen]

    def channel(self, channel, values: tuple) -> object:
        """One encoding channel (alt.Color, alt.StrokeDash, …) by series, `values` in the
        order of the names, with the one legend the channels share."""
        names = list(self.names)
        return channel(
            f"{self.field}:N",
            sort=names,
            scale=alt.Scale(
                domain=names,
                range=[list(v) if isinstance(v, tuple) else v for v in values[: len(names)]],
            ),
            legend=self._legend(),
        )

    def encoding(self) -> dict:
        if self.field is None:
            return {}
        found = {
            "color": self.channel(alt.Color, self.colours),
            "strokeDash": self.channel(alt.StrokeDash, self.dashes),
        }
        if self.widths is not None:
            found["strokeWidth"] = self.channel(alt.StrokeWidth, self.widths)
        return found


ONE_LINE = Series()


def curve_layers(
    x: Axis,
    y: Axis,
    series: Series = ONE_LINE,
    *,
    data: str = "curves",
    points: bool = False,
    error_bars: tuple[str, str] | None = None,
    levels: tuple[str, str] | None = None,
    levels_below: bool = False,
    rule: bool = False,
    rule_flip_at: float | None = None,
    mark: str | None = None,
    mark_flip_at: float | None = None,
    tips: tuple[tuple[str, str, str], ...] = (),
) -> alt.LayerChart:
    """The layers of the course's curve chart (see `curves`), for a chart that adds its own
    (a rule of its own, a band)."""
    x_scale, y_scale = x.scale(), y.scale()
    encode_x = alt.X(f"{x.field}:Q", title=x.title, scale=x_scale, axis=x.axis())
    encode_y = alt.Y(f"{y.field}:Q", title=y.title, scale=y_scale, axis=y.axis())
    base = alt.Chart(alt.NamedData(name=data))
    tooltip = [alt.Tooltip(f"{series.field}:N", title=series.tip)] if series.field else []
    tooltip += [x.tooltip(".3~g"), y.tooltip(".4~g")]
    tooltip += [alt.Tooltip(f"{f}:Q", title=title, format=form) for f, title, form in tips]
    # no clip: the scales clamp, and a point on the plot's edge stays whole
    style: dict = {"strokeWidth": 2.5}
    if series.field is None:
        style["color"] = BLUE
    if points:
        style["point"] = {"filled": True, "size": 50} | (
            {"color": BLUE} if series.field is None else {}
        )
    layers = base.mark_line(**style).encode(
        x=encode_x, y=encode_y, tooltip=tooltip, **series.encoding()
    )
    if error_bars is not None:
        low, high = error_bars
        colour = {"color": series.channel(alt.Color, series.colours)} if series.field else {}
        bars = base.mark_rule(strokeWidth=1.5, **({} if series.field else {"color": BLUE}))
        layers = (
            bars.encode(x=encode_x, y=alt.Y(f"{low}:Q", scale=y_scale), y2=f"{high}:Q", **colour)
            + layers
        )
    if levels is not None:
        name, field = levels
        layers += reference_line_layers(
            alt.NamedData(name=name), field, y_scale=y_scale, below=levels_below
        )
    if rule:
        flip = x.middle() if rule_flip_at is None else rule_flip_at
        layers += truth_rule_layers(x_scale, label_dy=4, flip_at=flip)
    if mark is not None:
        layers += marked_point_layers(
            alt.NamedData(name=mark),
            x.field,
            y.field,
            x_scale=x_scale,
            y_scale=y_scale,
            flip_at=x.middle() if mark_flip_at is None else mark_flip_at,
        )
    return layers


@datasets.cached(max_entries=64)
def curves(
    x: Axis,
    y: Axis,
    series: Series = ONE_LINE,
    *,
    height: int = CURVE_HEIGHT,
    **layers,
) -> Template:
    """Template: the curve chart of the course, a quantity (`y`) against a parameter (`x`:
    ε, δ, σ, steps, …) over fixed axes, one line per `series`. Dataset `data` ("curves":
    x, y and the series field). Options (`curve_layers`): `points` on the lines; `error_bars`
    (low, high fields) below them; labelled dashed reference lines `levels` (dataset, y
    field); with `rule`, the current value as a labelled dashed vertical rule ("truth": x,
    label); a labelled diamond on a curve, dataset `mark` (x, y, label); `tips`, more
    tooltip fields (field, title, format). A label flips side at the x axis's middle unless
    `rule_flip_at` / `mark_flip_at` say where."""
    chart = curve_layers(x, y, series, **layers)
    return Template(chart.properties(height=height, width=DEFAULT_WIDTH))


ROC_COLOURS = [GREY, BLUE]


@datasets.cached(max_entries=8)
def roc(
    curves: tuple[str, ...],
    with_region: bool,
    height: int = 300,
    colours: tuple[str, ...] | None = None,
) -> Template:
    """Template: ROC curves (true- against false-positive rate, both 0..1), the diagonal of
    guessing, the 1% false-positive rate as a labelled rule and, `with_region`, the edge of
    the (ε, δ) privacy region as a dashed black line; `colours` one per curve (default: grey
    then blue). Datasets "roc" (fpr, tpr, curve),
    "truth" (x, label) and, with the region, "region" (fpr, tpr)."""
    unit = alt.Scale(domain=[0.0, 1.0], nice=False)
    x = alt.X(
        "fpr:Q",
        title="false-positive rate (non-members flagged)",
        scale=unit,
        axis=alt.Axis(format="~%"),
    )
    y = alt.Y(
        "tpr:Q", title="true-positive rate (members found)", scale=unit, axis=alt.Axis(format="~%")
    )
    diagonal = (
        alt.Chart(alt.Data(values=[{"fpr": 0.0, "tpr": 0.0}, {"fpr": 1.0, "tpr": 1.0}]))
        .mark_line(color=GREY, strokeDash=[2, 2])
        .encode(x=x, y=y)
    )
    lines = (
        alt.Chart(alt.NamedData(name="roc"))
        .mark_line(strokeWidth=2.5, interpolate="step-after")
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "curve:N",
                sort=list(curves),
                scale=alt.Scale(
                    domain=list(curves),
                    range=list(colours) if colours else ROC_COLOURS[-len(curves) :],
                ),
                legend=STACKED_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("curve:N"),
                alt.Tooltip("fpr:Q", format=".1%", title="false positives"),
                alt.Tooltip("tpr:Q", format=".1%", title="true positives"),
            ],
        )
    )
    chart = diagonal + lines
    if with_region:
        chart += (
            alt.Chart(alt.NamedData(name="region"))
            .mark_line(color=BLACK, strokeDash=[6, 3], strokeWidth=2)
            .encode(
                x=x,
                y=y,
                tooltip=[
                    alt.Tooltip("fpr:Q", format=".1%", title="false positives"),
                    alt.Tooltip("tpr:Q", format=".1%", title="the most any attack finds"),
                ],
            )
        )
    chart += truth_rule_layers(unit, label_dy=4, flip_at=0.5)
    return Template(chart.properties(height=height, width=DEFAULT_WIDTH))


WIN_COLOURS = [BLUE, VERMILLION, GREEN, ORANGE, GREY]
WIN_ROW_HEIGHT = 22


@datasets.cached(max_entries=64)
def win_bars(rows: int, x_title: str) -> Template:
    """Template: one row per candidate (`rows` of them, in the data's order: the labels are
    data, so the spec does not change when a label does), a bar for its exact chance of
    being chosen (x fixed 0..100%) and a black tick for the share of simulated runs it won.
    Dataset "wins" (label, exact probability, share of runs)."""
    x_scale = alt.Scale(domain=[0.0, 1.0], nice=False)
    y = alt.Y("label:N", sort=None, title=None, axis=alt.Axis(labelLimit=220))
    base = alt.Chart(alt.NamedData(name="wins"))
    tooltip = [
        alt.Tooltip("label:N", title="candidate"),
        alt.Tooltip("exact probability:Q", format=".2%", title="exact"),
        alt.Tooltip("share of runs:Q", format=".1%", title="share of runs"),
    ]
    bars = base.mark_bar(color=NOISY_COLOUR, opacity=0.8).encode(
        y=y,
        x=alt.X(
            "exact probability:Q",
            title=x_title,
            scale=x_scale,
            axis=alt.Axis(format="~%", values=[0, 0.25, 0.5, 0.75, 1]),
        ),
        tooltip=tooltip,
    )
    ticks = base.mark_tick(color=BLACK, thickness=3, size=WIN_ROW_HEIGHT - 6).encode(
        y=y, x=alt.X("share of runs:Q", scale=x_scale), tooltip=tooltip
    )
    height = WIN_ROW_HEIGHT * max(rows, 2)
    return Template((bars + ticks).properties(height=height, width=DEFAULT_WIDTH))


@datasets.cached(max_entries=64)
def win_curves(
    series: tuple[str, ...],
    epsilon_domain: tuple[float, float],
    height: int = 260,
    y_title: str = "chance of being reported",
) -> Template:
    """Template (report noisy max, the sparse vector): P[win] against ε (log x over the fixed
    `epsilon_domain`, y 0..100%), one line per
    series, the current ε as a labelled rule. Datasets "curves" (epsilon, category,
    probability) and "truth" (x, label)."""
    x_scale = alt.Scale(
        type="log", domain=[float(epsilon_domain[0]), float(epsilon_domain[1])], nice=False
    )
    ticks = [
        t for t in (0.001, 0.01, 0.1, 1, 10, 100) if epsilon_domain[0] <= t <= epsilon_domain[1]
    ]
    lines = (
        alt.Chart(alt.NamedData(name="curves"))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=alt.X(
                "epsilon:Q",
                title="ε (log scale; ← more private)",
                scale=x_scale,
                axis=alt.Axis(format="~g", values=ticks),
            ),
            y=alt.Y(
                "probability:Q",
                title=y_title,
                scale=alt.Scale(domain=[0.0, 1.0], nice=False),
                axis=alt.Axis(format="~%"),
            ),
            color=alt.Color(
                "category:N",
                sort=list(series),
                scale=alt.Scale(domain=list(series), range=WIN_COLOURS[: len(series)]),
                # two columns of short names; long ones (the sparse vector's outcomes) one a
                # line, or the second column runs past the chart's right edge
                legend=TWO_COLUMN_LEGEND if max(map(len, series)) <= 24 else STACKED_LEGEND,
            ),
            tooltip=[
                alt.Tooltip("category:N"),
                alt.Tooltip("epsilon:Q", format="~g", title="ε"),
                alt.Tooltip("probability:Q", format=".2%", title="chance"),
            ],
        )
    )
    # the middle of the log ε axis: a rule right of it has its label on its left
    middle = float(np.sqrt(epsilon_domain[0] * epsilon_domain[1]))
    rule = truth_rule_layers(x_scale, label_dy=4, flip_at=middle)
    return Template((lines + rule).properties(height=height, width=DEFAULT_WIDTH))
