"""The template engine: `Template`, a chart built once with Altair (data-free) and drawn
each run with this run's DataFrames, its title and alt text; "Show the numbers" under it;
and what presenter mode changes in every chart. The course's charts themselves (the palette
and the layers two or more lessons share) are ui/charts.py."""

from __future__ import annotations

import hashlib
import html
import json
import re
import textwrap
from dataclasses import dataclass

import altair as alt
import pandas as pd
import pyarrow as pa
import streamlit as st

from ui import classroom, datasets, tables, text

# Presenter mode (ui/classroom.py): Vega-Lite draws text in pixels, so a projector needs its
# own font sizes, given to every chart as Vega-Lite config (documented; the spec's own config
# is kept, these sizes win). A text mark with a fontSize of its own grows by the projector's
# factor for text (17 / 11), its offsets with it (`_presenter_limits`).
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
# A title is wrapped for the narrowest screen it is drawn on (`wrapped_title`), which broke a
# full-width projector chart's "◆ this release at" / "ε = 1: 5 of 10 right" across 1,150 px.
# The row also holds the lines as the page gave them ("wide") and the plot width they need
# ("wide_px"); where the plot is that wide (Vega's `width` signal, which follows a resize) the
# title is drawn as given. A concat has no top-level `width` signal and keeps TITLE_TEXT.
_TITLE_ROW = f"{_TITLE_ROWS}[0]"
TITLE_TEXT_BY_WIDTH = {
    "expr": f"length({_TITLE_ROWS}) ? split(width >= {_TITLE_ROW}.wide_px ? "
    f"{_TITLE_ROW}.wide : {_TITLE_ROW}.text, '\\n') : ''"
}
# A bold title's characters measured 0.41–0.44 of its font size in Chromium (Source Sans,
# "The chance of each winner, as ε grows": 259 px at 16 px); 0.47 is a margin, and the plot's
# width leaves out the axis the title may also span ("frame": "bounds").
TITLE_CHAR_EM = 0.47
TITLE_FONT_PX = 16  # Streamlit's Vega theme; presenter mode's is PRESENTER_FONTS["title"]


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


def _title_lines(title: str | list[str] | dict) -> list[str]:
    """A title's (or a {"text": …} title's) lines: a str is one line."""
    text = title.get("text") if isinstance(title, dict) else title
    return [str(line) for line in text] if isinstance(text, list) else [str(text)]


def _title_from_data(
    title: str | list[str] | dict,
    *,
    given: str | list[str] | dict | None = None,
    font_px: float = TITLE_FONT_PX,
    by_width: bool = False,
) -> tuple[dict, pa.Table]:
    """A (wrapped) title as the spec's title, whose text is read from TITLE_DATA, and that
    one-row table. Lines start at the chart's left edge, long or short, so that the spec
    does not change when a title grows a second line. A subtitle stays in the spec
    (Vega-Lite reads only a title's text from an expression): it holds no slider's value.
    With `by_width`, the title is drawn as `given` (its lines before wrapping) wherever the
    plot is wide enough for them at `font_px` (TITLE_TEXT_BY_WIDTH)."""
    if not isinstance(title, dict):
        title = {"text": title}
    lines = _title_lines(title)
    wide = _title_lines(given) if given is not None else lines
    row = {
        "text": [TITLE_LINE_BREAK.join(lines)],
        "wide": [TITLE_LINE_BREAK.join(wide)],
        "wide_px": [round(max(map(len, wide)) * font_px * TITLE_CHAR_EM)],
    }
    # No ARIA label of its own: Vega writes a title's ("Title text '…'") once, when it
    # embeds the chart, and keeps it while the title's data changes, so it went on saying
    # the first run's numbers. A screen reader hears the title in the description instead.
    text = TITLE_TEXT_BY_WIDTH if by_width else TITLE_TEXT
    params = {"anchor": "start", "frame": "bounds", **title, "text": text, "aria": False}
    return params, pa.table(row)


def title_words(title: str | list[str] | dict | None) -> str:
    """A chart title's words on one line ("" for none): what a screen reader hears of it."""
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, list):
        title = " ".join(str(line) for line in title)
    return title if isinstance(title, str) else ""


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
        # Its "Show the numbers" expander's key: from what the chart is (its whole spec, so
        # two charts alike but for a colour or their series differ), never from where a page
        # calls it (a moved line would reset an open expander).
        drawn = json.dumps(spec, sort_keys=True, default=str).encode()
        self.key: str = hashlib.sha1(drawn).hexdigest()[:12]
        self._titled: dict | None = None  # self.spec with a title read from TITLE_DATA
        self._field_titles: dict[str, FieldName] | None = None
        # Data written into the chart when it was built (alt.Data values that Altair moved
        # to the top-level "datasets") is part of the template, not something to fill.
        self.datasets: frozenset[str] = frozenset(
            _named_data(spec, set()) - set(spec.get("datasets", {}))
        )

    def filled(
        self,
        *,
        title: str | dict | None = None,
        given_title: str | list[str] | dict | None = None,
        title_font_px: float = TITLE_FONT_PX,
        **datasets: pd.DataFrame,
    ) -> dict:
        """The Vega-Lite spec with this run's title and data (a new top-level dict).

        The spec stays the same from run to run, so that the browser updates the chart in
        place (Streamlit embeds it again, ~50 ms, whenever the spec's text changes): the
        title's words go into the one-row dataset TITLE_DATA, which the spec's title reads
        (`titled_spec`). A facet or a repeat keeps its title in the spec. `given_title` is
        `title` before `wrapped_title` wrapped it, drawn instead where the plot is wide
        enough at `title_font_px` (not in a concat, which has no top-level width)."""
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
                by_width = not any(key in titled for key in ("vconcat", "hconcat", "concat"))
                filled["title"], tables[TITLE_DATA] = _title_from_data(
                    title, given=given_title, font_px=title_font_px, by_width=by_width
                )
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
        `about` (fixed, so that the chart updates in place), and right after it comes the
        title's words and `alt`, the current numbers in words, as text that only a screen
        reader reads (WCAG 1.1.1: a short name and a long description next to it). Under
        it, "Show the numbers": the chart's data as tables (`numbers`), sent only once
        opened. `numbers_key` names that expander where a page draws one template several
        times (a loop); by default it is the template's own key (from `about`)."""
        presenting = classroom.presenting()
        spec = self.filled(
            title=wrapped_title(title, presenting=presenting),
            given_title=title,
            title_font_px=PRESENTER_FONTS["title"]["fontSize"] if presenting else TITLE_FONT_PX,
            **datasets,
        )
        if presenting:
            spec = presenter_spec(spec)
        fixed = isinstance(spec.get("width"), int | float)
        st.vega_lite_chart(spec, width="content" if fixed else "stretch", alt=self.about)
        said = title_words(title)
        if said and not said.endswith((".", "?", "!", ":")):
            said += "."
        heard = f'<span class="{TITLE_CLASS}">{html.escape(said)}</span> ' if said else ""
        st.html(f'<p class="{DESCRIPTION_CLASS}">{heard}{html.escape(alt)}</p>')
        if numbers_key is None:
            numbers_key = self.key
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
TITLE_CLASS = "pp-chart-title"  # the title's words, first in the description
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
_KEEP_TOGETHER = re.compile(f" ([{re.escape(text.KEEP_TOGETHER)}·]) ")


def title_lines(title: str, width: int) -> str | list[str]:
    """`title` as it fits lines of `width` characters: itself when it fits one, else its
    lines (a Vega title draws a list as lines), as even as the fewest lines allow: filled
    greedily to `width`, a line's last word or two sat alone under it ("…in the" / "set") on
    a chart wider than `width`, as most are on a wide projector. A space beside a sign of
    text.KEEP_TOGETHER or · never breaks ("ε = 0.1" stays whole)."""
    if isinstance(width, bool) or not isinstance(width, int):
        raise TypeError("width must be an int")
    if width < 10:
        raise ValueError(f"width must be at least 10, got {width}")
    if not isinstance(title, str):
        raise TypeError("title must be a str")
    if len(title) <= width:
        return title
    glued = _KEEP_TOGETHER.sub("\u00a0\\1\u00a0", title)

    def wrap(chars: int) -> list[str]:
        return textwrap.wrap(glued, width=chars, break_long_words=False, break_on_hyphens=False)

    lines = wrap(width)
    for narrower in range(-(-len(title) // len(lines)), width):  # the narrowest as few lines
        even = wrap(narrower)
        if len(even) == len(lines) and max(map(len, even)) <= max(map(len, lines)):
            lines = even
            break
    return [line.replace("\u00a0", " ") for line in lines]


def wrapped_title(
    title: str | list[str] | dict | None, *, presenting: bool
) -> str | list[str] | dict | None:
    """A chart's title (or a {"text": …} title's text) wrapped for the narrowest screen
    it is drawn on: a phone, or presenter mode's larger font. A title given as lines has
    each line wrapped ("◆ the lowest total: U = 500" under a long first line)."""
    width = PRESENTER_TITLE_LINE_CHARS if presenting else TITLE_LINE_CHARS
    if isinstance(title, str | list):
        title = {"text": title}
    text = title.get("text") if isinstance(title, dict) else None
    if isinstance(text, list) and all(isinstance(line, str) for line in text):
        lines = []
        for line in text:
            found = title_lines(line, width)
            lines += [found] if isinstance(found, str) else found
    elif isinstance(text, str):
        lines = title_lines(text, width)
    else:
        return title
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


# A text mark's offset from its point (dx, dy: "6 px above the line", "10 px right of the
# diamond") was chosen for the page's text; at the projector's larger font the same offset put
# a label's lower half over its own line or diamond, and labels meant to sit a line apart over
# each other ("(c) without them: 15.1 points" over "(b): 14.9 points"). The offsets of a text
# mark without a fontSize of its own grow with its font (Vega's text is 11 px unless the
# spec's config says otherwise), so every label keeps its place relative to its point.
VEGA_TEXT_PX = 11
_OFFSETS = ("dx", "dy")


def text_scale(config: dict | None = None) -> float:
    """How much larger presenter mode writes a text mark (without a fontSize of its own) than
    a spec with `config` does: 17 / 11."""
    own = ((config or {}).get("text") or {}).get("fontSize", VEGA_TEXT_PX)
    return PRESENTER_FONTS["text"]["fontSize"] / own


def current_text_scale() -> float:
    """`text_scale()` in presenter mode, else 1: how much larger this run's charts write the
    text of a template without a text size of its own."""
    return text_scale() if classroom.presenting() else 1.0


def _presenter_limits(node, scale: float = 1.0):
    """`node` with every explicit axis or legend labelLimit scaled for the projector, every
    text mark's offsets (without a fontSize of its own) by `scale`, and a text mark with a
    fontSize of its own (a cell's number, a label beside a point) larger by the projector's
    factor for Vega's text, 17 / 11, its offsets with it: at its own 11 px it stood beside
    the projector's 19 px axis labels."""
    if isinstance(node, list):
        return [_presenter_limits(item, scale) for item in node]
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
        if key == "mark" and isinstance(value, dict) and value.get("type") == "text":
            own = value.get("fontSize")
            factor = scale if own is None else text_scale()
            value = {
                name: round(size * factor, 1)
                if name in (*_OFFSETS, "fontSize") and isinstance(size, int | float)
                else size
                for name, size in value.items()
            }
        out[key] = _presenter_limits(value, scale)
    return out


def presenter_spec(spec: dict) -> dict:
    """`spec` (a filled template) with PRESENTER_FONTS merged into its config, per group,
    its own label limits scaled to the projector's labels and its text marks' offsets to the
    projector's text."""
    own = spec.get("config", {})
    config = dict(own)
    for group, sizes in PRESENTER_FONTS.items():
        config[group] = {**config.get(group, {}), **sizes}
    rest = {k: v for k, v in spec.items() if k != "config"}
    return {**_presenter_limits(rest, text_scale(own)), "config": config}
