"""Controls: every widget bound to the URL is made here, and the ε slider, the random seed
and the page header every lesson shares.

A bound widget (`slider`, `select_slider`, `radio`, `selectbox`, `multiselect`,
`number_input`, `toggle`) takes the arguments of its `st.*` namesake, is created with
`bind="query-params"` (its key is the URL parameter, so a copied link reopens the same
view; a range slider is bound here instead, as one `key=L..U` parameter), and is
registered with ui.links together with its default and the rule that says whether URL text
means its value — which is how the app notices a link setting it ignored.
"""

from __future__ import annotations

import functools
import math
import numbers
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitAPIException

from ui import links, notebook, text

DEFAULT_SEED = 2026

# Log-spaced, rounded ε values from 0.01 to 10: a select_slider over them behaves like a
# log-scale slider (equal steps multiply ε by roughly the same factor).
EPSILON_GRID: tuple[float, ...] = (
    *(0.01, 0.02, 0.03, 0.05, 0.07),
    *(0.1, 0.15, 0.2, 0.3, 0.5, 0.7),
    *(1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0, 10.0),
)

# From ε = 0.001 (nearly a lottery for a choice among counts of thousands) to 10: the grid
# and the curves' ε of the lessons that choose privately (Choosing privately, the sparse
# vector technique), where the interesting range starts lower than EPSILON_GRID's.
LOW_EPSILON_GRID: tuple[float, ...] = (
    *(0.001, 0.002, 0.003, 0.005, 0.007),
    *(0.01, 0.02, 0.03, 0.05, 0.07),
    *(0.1, 0.15, 0.2, 0.3, 0.5, 0.7),
    *(1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
)
LOW_EPSILON_CURVE = np.geomspace(0.001, 10.0, 25)

MORE_PRIVATE_LEFT = "← more private · less private →"


def format_epsilon(epsilon: float) -> str:
    """ε as a short string: 0.01, 0.5, 1, 10."""
    return text.number(epsilon)


def epsilon_slider(
    key: str,
    *,
    default: float = 1.0,
    options: tuple[float, ...] = EPSILON_GRID,
    label: str = "Privacy loss ε",
    explanation: str | None = None,
) -> float:
    """A log-scale ε slider whose label says that smaller ε is more private. Bound to the
    URL under its key, so a copied link reopens the same ε."""
    return float(
        select_slider(
            f"{label}  ({MORE_PRIVATE_LEFT})",
            options=options,
            value=default,
            format_func=format_epsilon,
            key=key,
            help=explanation
            or "ε bounds how much one person's data can change what anyone sees. "
            "Smaller ε: more noise, more privacy.",
        )
    )


def seed() -> int:
    """The random seed that every chart on a page draws from (fixed, so a projector
    matches a handout).

    The one reader of the seed: the sidebar's "Random seed" input (ui/classroom.py, key
    "seed", also in the URL as ?seed=) and its "Re-roll" button write
    st.session_state["seed"]; without them (a page run on its own) it is DEFAULT_SEED."""
    return int(st.session_state.get("seed", DEFAULT_SEED))


def lesson_header(title: str, what_you_will_see: str) -> None:
    """The title and the one-paragraph 'what you will see' that opens every lesson (and
    the start of the lesson's notebook: ui/notebook.py, which finds the lesson's homework
    by the folder of the page that calls this)."""
    page = Path(sys._getframe(1).f_code.co_filename)
    notebook.begin(title, what_you_will_see, page.parent.name)
    st.title(title)
    st.markdown(f"**What you will see.** {what_you_will_see}")


def page_link(path, *, label: str, icon: str | None = None) -> None:
    """A link to another page of the app (st.page_link); plain bold text when the page runs
    on its own (outside app.py's navigation there is no registered page to link to)."""
    try:
        st.page_link(path, label=label, icon=icon)
    except StreamlitAPIException:
        st.markdown(f"**{text.plain(label)}**")


def with_plain_label(widget: Callable[..., Any], label: str, *args: Any, where: Any = st, **kw):
    """`widget(label, *args, **kw)` for a label that holds outside text (a file's column
    name, a lecturer's words): the label is shown above the widget as plain text, and given
    to the widget as written, collapsed, for a screen reader. (A visible widget label is
    Markdown, so outside text in it needs `text.plain`'s escapes, and Streamlit hands the
    label to a screen reader as written: "Capital gain \\(\\$\\)".) `where`: the container
    the widget goes in (`widget` is its method there, or a function of this module)."""
    with where.container(key=f"pp-label-{kw['key']}"):
        st.markdown(text.plain(label))
    return widget(label, *args, label_visibility="collapsed", **kw)


# --- Widgets bound to the URL ---------------------------------------------------------------


def _number_means(texts: list[str], value: Any) -> bool:
    """URL text means a number (or a range of numbers) when it parses to it."""
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    numbers = [float(text) for text in texts]
    return all(math.isfinite(n) for n in numbers) and numbers == [float(v) for v in values]


def _option_means(format_func: Callable[[Any], Any]) -> Callable[[list[str], Any], bool]:
    """URL text means an option when it is the option's label (or its plain text)."""

    def means(texts: list[str], value: Any) -> bool:
        values = list(value) if isinstance(value, (list, tuple)) else [value]
        return len(texts) == len(values) and all(
            text in (str(format_func(v)), str(v)) for text, v in zip(texts, values, strict=True)
        )

    return means


def _bool_means(texts: list[str], value: Any) -> bool:
    return [text.lower() for text in texts] == [str(bool(value)).lower()]


def _bound(
    widget: Callable[..., Any],
    args: tuple,
    kwargs: dict[str, Any],
    *,
    key: str,
    means: Callable[[list[str], Any], bool],
    default: Any,
    unreadable: bool = False,
) -> Any:
    links.register(key, links.Binding(means=means, default=default))
    if unreadable:  # this run only: the URL held text that Streamlit cannot parse
        return widget(*args, key=key, **kwargs)
    # the widget as made: its arguments but the label and the functions (format_func)
    made = repr((args[1:], sorted((k, v) for k, v in kwargs.items() if not callable(v))))
    last_made = st.session_state.setdefault(MADE_KEY, {})
    if last_made.get(key) == made:
        _keep_in_link(key, means, default)
    last_made[key] = made
    return widget(*args, key=key, bind="query-params", **kwargs)


MADE_KEY = "controls_made"  # {key: the arguments a bound widget was last made with}


def _keep_in_link(key: str, means: Callable[[list[str], Any], bool], default: Any) -> None:
    """Before a bound widget is made again as it was last made (the same options, range and
    default: a change there can reset its value, which Streamlit does itself): when the address
    this run was sent does not say its value (or still holds it at its default), set the
    value through session state, so that Streamlit writes the address from the server (its
    rule for a value an app sets: `set_corrected_value`, or the parameter removed).

    Streamlit's browser side writes a bound widget's value into the address as it changes,
    but only while it holds that widget's binding, and it can lose it: when a block holding
    the widget is drawn anew during a run, the new copy registers the binding and the old
    copy, removed at the run's end, unregisters it (the same widget id). From then on a move
    of that widget left the address as it was: on unary encoding opened from the menu, the
    mode moved to SUE while the link still said "Custom p and q" (1 to 2 tries in 6 to 10,
    Chromium, 2026-11-30). An address the browser wrote itself says the value: nothing is
    sent (no page_info_changed message)."""
    if key not in st.session_state:  # made for the first time: Streamlit reads the link
        return
    value = st.session_state[key]
    asked = st.query_params.get_all(key)
    try:
        says = not asked if value == default else bool(asked) and means(asked, value)
    except (ValueError, TypeError, OverflowError):
        says = False
    if not says:
        st.session_state[key] = value


def _drop_unreadable_number(key: str) -> bool:
    """Remove `?key=` from the URL when its text is not a finite number a float can hold
    (`inf`, `Infinity`, `1e400`, a 400-digit integer), and say so (True): Streamlit's own
    parsing of a bound number widget raises OverflowError on such text, so the widget must
    not be bound in this run (Streamlit seeds it from the URL the run started with). The
    link guard then reports the value as an ignored link setting."""
    texts = st.query_params.get_all(key)
    if texts and not all(_finite_number(text) for text in texts):
        del st.query_params[key]
        return True
    return False


def _on_the_slider(number: float, low: Any, high: Any, step: Any) -> bool:
    """Whether a slider from `low` to `high` in steps of `step` can be moved to `number`
    (low + k·step, within a millionth of a step). A slider made without `low` or `step`
    takes any number its range holds."""
    if low is None or step is None:
        return True
    if not float(low) <= number <= (float(high) if high is not None else math.inf):
        return False
    steps = (number - float(low)) / float(step)
    return abs(steps - round(steps)) <= 1e-6


def _on_the_step(value: Any, low: Any, high: Any, step: Any) -> Any:
    """A float slider's `value` as the step it stands for, written as the browser writes it
    (the shortest decimal: 0.15, where low + 3·step is 0.15000000000000002): what a moved
    slider sends, unchanged, and anything else (a link's `?cf_honest=1e-320` or
    `0.9999999999999999`, within a millionth of a step; a forged message's 10³⁰⁸, beyond
    the slider's end) as that step. 10⁻³²⁰ was taken as it was: p + q rounded to 1 while h
    was not 0, and the estimate raised."""
    if low is None or step is None or isinstance(value, (bool, int)):
        return value
    top = float(high) if high is not None else math.inf
    within = min(max(float(value), float(low)), top)
    ratio = (within - float(low)) / float(step)
    if not math.isfinite(ratio):  # NaN: the lowest step; beyond a slider with no top: as is
        return float(low) if math.isnan(ratio) else value
    steps = round(ratio)
    return float(f"{float(low) + steps * float(step):.12g}") + 0.0  # + 0.0: never −0


def _drop_off_the_slider(key: str, low: Any, high: Any, step: Any) -> bool:
    """Remove `?key=` from the URL when its number is not one the slider can be moved to, and
    say so (True), as `_drop_unreadable_number` does: Streamlit binds any number within the
    range (`?cf_honest=0.123` on a slider in steps of 0.05 opened a state no slider reaches).
    The link guard reports the value as an ignored link setting."""
    texts = st.query_params.get_all(key)
    if texts and not all(_on_the_slider(float(text), low, high, step) for text in texts):
        del st.query_params[key]
        return True
    return False


def _finite_number(text: str) -> bool:
    try:
        number = float(text)
    except (ValueError, OverflowError):
        return False
    return math.isfinite(number) and abs(number) < 2.0**53


RANGE_SEPARATOR = ".."  # a range in a link: `?clamp_window_0=0..5500`, one parameter


def _url_number(value: float) -> str:
    """A number as a link writes it: 5500, not 5500.0; never an exponent or a `+`."""
    number = float(value)
    if number.is_integer():
        return str(int(number))
    return np.format_float_positional(number, trim="-")  # 1e-06 → 0.000001, shortest digits


def _range_texts(texts: list[str]) -> list[str]:
    """The two ends a link gives for a range: `L..U` (one parameter) or, from links made
    before ranges were one parameter, the same parameter twice."""
    if len(texts) == 1 and texts[0].count(RANGE_SEPARATOR) == 1:
        return texts[0].split(RANGE_SEPARATOR)
    return texts


def _range_means(texts: list[str], value: Any) -> bool:
    return _number_means(_range_texts(texts), value)


def _range_from_link(key: str, low: float, high: float, step, kind: type) -> tuple | None:
    """The range `?key=L..U` asks for, when it is two finite numbers with
    low <= L <= U <= high, each one the slider can be moved to (of its number type); None
    otherwise."""
    ends = _range_texts(st.query_params.get_all(key))
    if len(ends) != 2 or not all(_finite_number(end) for end in ends):
        return None
    lower, upper = (float(end) for end in ends)
    if not low <= lower <= upper <= high:
        return None
    if not (_on_the_slider(lower, low, high, step) and _on_the_slider(upper, low, high, step)):
        return None
    if kind is int:
        if not (lower.is_integer() and upper.is_integer()):
            return None
        return int(lower), int(upper)
    return lower, upper


def _range_slider(label: str, low, high, default: tuple, step, *, key: str, **kw) -> tuple:
    """A range slider bound to the URL as ONE parameter, `key=L..U`. Streamlit's own binding
    writes a range as the parameter twice (`?k=0&k=5500`), which reads as a mistake in a
    shared link. The value is read from the link when the widget is created (the key is not
    yet in session state, as Streamlit's binding does), and written back after every run; a
    value equal to the default leaves the link. A link the slider cannot use is removed,
    and the link guard reports it."""
    links.register(key, links.Binding(means=_range_means, default=default))
    value = default
    if key not in st.session_state and key in st.query_params:
        asked = _range_from_link(key, low, high, step, type(default[0]))
        if asked is None:
            del st.query_params[key]
        else:
            value = asked
    chosen = tuple(
        _on_the_step(end, low, high, step)
        for end in st.slider(label, low, high, value, step, key=key, **kw)
    )
    wanted = (
        None
        if tuple(chosen) == tuple(default)
        else RANGE_SEPARATOR.join(_url_number(end) for end in chosen)
    )
    _write_url(key, wanted)
    return chosen


def _write_url(key: str, wanted: str | None) -> None:
    """Put `wanted` in the URL under `key` (None: take the key out), writing only when it
    changes."""
    if wanted is None:
        if key in st.query_params:
            del st.query_params[key]
    elif st.query_params.get_all(key) != [wanted]:
        st.query_params[key] = wanted


def slider(label: str, min_value=None, max_value=None, value=None, step=None, *, key: str, **kw):
    """st.slider bound to the URL (a number, or a range given as a tuple `value`, written
    as one `L..U` parameter)."""
    if isinstance(value, (list, tuple)):
        return _range_slider(label, min_value, max_value, tuple(value), step, key=key, **kw)
    unreadable = _drop_unreadable_number(key) or _drop_off_the_slider(
        key, min_value, max_value, step
    )
    args = (label, min_value, max_value, value, step)
    chosen = _bound(
        st.slider, args, kw, key=key, means=_number_means, default=value, unreadable=unreadable
    )
    return _on_the_step(chosen, min_value, max_value, step)


def share_slider(
    label: str,
    *,
    key: str,
    value: float,
    low: float = 0.0,
    high: float = 1.0,
    step: float = 0.01,
) -> float:
    """A bound slider over a probability or a share (two decimals), e.g. p, q or a prior."""
    return slider(
        label, min_value=low, max_value=high, value=value, step=step, format="%.2f", key=key
    )


def number_input(label: str, *, key: str, value=None, **kw):
    """st.number_input bound to the URL."""
    unreadable = _drop_unreadable_number(key)
    kw["value"] = value
    return _bound(
        st.number_input,
        (label,),
        kw,
        key=key,
        means=_number_means,
        default=value,
        unreadable=unreadable,
    )


def number_labels(options: Sequence[float]) -> Callable[[float], str]:
    """The one formatter with as many significant digits as `options` need to be told
    apart (4 unless more are needed: 7,841.5 beside 7,842). The browser sends a widget's
    label back, and Streamlit maps a repeated label to the last option that has it, so two
    options with one label would compute with a value the student did not pick."""
    values = [float(o) for o in options]
    for digits in range(4, 18):
        if len({text.number(v, digits) for v in values}) == len(set(values)):
            return functools.partial(text.number, digits=digits)
    raise ValueError(f"options cannot be told apart by their labels: {values}")


def _option_from_text(text: str, options: Sequence[float], labels: dict[str, float]) -> Any:
    """The option a link's text names: its number (`1250`, `0.05`), or, from links made
    before numbers were written raw, its label (`1,250`, `10⁻⁶`); None if none."""
    if text in labels:
        return labels[text]
    if not _finite_number(text):
        return None
    number = float(text)
    return next((option for option in options if float(option) == number), None)


def _numeric_select_slider(
    label: str, options: Sequence[float], *, key: str, value, format_func, **kw
):
    """A select slider over numbers, bound to the URL by their raw value (`?k=1250`, a range
    as `?k=L..U`). Streamlit's own binding writes the option's label, so a shared link read
    `?svt_threshold=1%2C250`. As for the range slider: the value is read from the link when
    the widget is created (its key not yet in session state), written back after every run
    (the default leaves the link); a link the slider cannot use is removed, and the link
    guard reports it. Links from before (labels, or a range's parameter twice) still open."""
    options = list(options)
    is_range = isinstance(value, (list, tuple))
    default = tuple(value) if is_range else (options[0] if value is None else value)
    labels = {str(format_func(option)): option for option in options}

    def from_texts(texts: list[str]) -> Any:
        parts = _range_texts(texts) if is_range else texts
        if len(parts) != (2 if is_range else 1):
            return None
        chosen = [_option_from_text(part, options, labels) for part in parts]
        if any(option is None for option in chosen):
            return None
        if is_range:
            return tuple(chosen) if options.index(chosen[0]) <= options.index(chosen[1]) else None
        return chosen[0]

    def means(texts: list[str], current: Any) -> bool:
        asked = from_texts(texts)
        return asked is not None and asked == (tuple(current) if is_range else current)

    links.register(key, links.Binding(means=means, default=default))
    start = default
    if key not in st.session_state and key in st.query_params:
        asked = from_texts(st.query_params.get_all(key))
        if asked is None:
            del st.query_params[key]
        else:
            start = asked
    chosen = st.select_slider(label, options, value=start, format_func=format_func, key=key, **kw)
    current = tuple(chosen) if is_range else chosen
    if current == default:
        wanted = None
    elif is_range:
        wanted = RANGE_SEPARATOR.join(_url_number(end) for end in current)
    else:
        wanted = _url_number(current)
    _write_url(key, wanted)
    return chosen


def select_slider(
    label: str, options: Sequence[Any] = (), *, key: str, value=None, format_func=None, **kw
):
    """st.select_slider bound to the URL. Numbers are labelled by the one formatter unless
    told otherwise (1,000, not 1000), and travel in the link as raw numbers (`?k=1000`);
    other options travel as their label. Where every label is its raw number (ε: 0.01 to
    10), the browser writes the link, as for any bound widget: no message from the server
    per press. A link the server writes reaches the browser as a history entry (Streamlit's
    page_info_changed), which the page replaces in place (ui/browser._SAME_PAGE_REPLACES),
    so that Back leaves the lesson whichever control moved."""
    numeric = len(options) > 0 and all(
        isinstance(o, numbers.Real) and not isinstance(o, bool) for o in list(options)
    )
    if format_func is None:
        format_func = number_labels(options) if numeric else str
    plain = (
        numeric
        and not isinstance(value, (list, tuple))
        and all(str(format_func(option)) == _url_number(option) for option in options)
    )
    if numeric and not plain:  # labels such as 1,250: the link holds the raw number
        return _numeric_select_slider(
            label, options, key=key, value=value, format_func=format_func, **kw
        )
    if plain and key not in st.session_state and key in st.query_params:
        _label_in_link(key, options, format_func)
    default = value if value is not None else list(options)[0]
    kw.update(value=value, format_func=format_func)
    means = _option_means(format_func)
    return _bound(st.select_slider, (label, options), kw, key=key, means=means, default=default)


def _label_in_link(key: str, options: Sequence[float], format_func) -> None:
    """A link that writes an ε another way (`2.0`, `0.50`) opens at it too: Streamlit reads
    only the label (`2`), so the link is rewritten to it and the page runs again (as
    links.rename_params does), before the widget reads it."""
    texts = st.query_params.get_all(key)
    labels = {str(format_func(option)): option for option in options}
    asked = _option_from_text(texts[0], options, labels) if len(texts) == 1 else None
    if asked is None or texts[0] in labels:
        return
    try:
        st.query_params[key] = str(format_func(asked))
    except StreamlitAPIException:  # still bound to the widget of an earlier run
        return
    st.rerun()


def number_slider(
    label: str, options: Sequence[float], value: float, *, key: str, kind: type = float, **kw
) -> float:
    """A select slider over numbers (bound to the URL, labelled by the one formatter) that
    returns the chosen number as `kind` (float, or int for counts)."""
    return kind(select_slider(label, options, value=value, key=key, **kw))


def radio(label: str, options: Sequence[Any], index: int | None = 0, *, key: str, **kw):
    """st.radio bound to the URL (the URL holds the option's label)."""
    format_func = kw.setdefault("format_func", str)
    default = list(options)[index] if index is not None and len(options) else None
    means = _option_means(format_func)
    return _bound(st.radio, (label, options, index), kw, key=key, means=means, default=default)


def selectbox(label: str, options: Sequence[Any], index: int | None = 0, *, key: str, **kw):
    """st.selectbox bound to the URL (the URL holds the option's label)."""
    format_func = kw.setdefault("format_func", str)
    default = list(options)[index] if index is not None and len(options) else None
    means = _option_means(format_func)
    return _bound(st.selectbox, (label, options, index), kw, key=key, means=means, default=default)


def multiselect(label: str, options: Sequence[Any], default=None, *, key: str, **kw):
    """st.multiselect bound to the URL (one repeated parameter per chosen option)."""
    format_func = kw.setdefault("format_func", str)
    chosen = list(default or [])
    means = _option_means(format_func)
    return _bound(
        st.multiselect, (label, options, default), kw, key=key, means=means, default=chosen
    )


def toggle(label: str, value: bool = False, *, key: str, **kw):
    """st.toggle bound to the URL (true / false)."""
    return _bound(st.toggle, (label, value), kw, key=key, means=_bool_means, default=value)
