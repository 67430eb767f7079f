"""Classroom features under AppTest: the seed lock and re-roll, presenter mode, the notice
for ignored link settings, CSV downloads; and determinism of a lesson given the seed."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from conftest import app_apptest
from ui import classroom, controls, downloads, links, text

SCRIPT = """
import streamlit as st
import pandas as pd
from ui import classroom, controls, downloads, links

links.guard_start()
classroom.panel()
st.write(f"seed {controls.seed()}")
controls.select_slider("eps", options=controls.EPSILON_GRID, value=1.0,
                       format_func=controls.format_epsilon, key="eps")
controls.radio("query", ["Age", "Income"], key="query")
downloads.download_csv(pd.DataFrame({"ε": [0.5, 1.0], "count": [1200, 3400]}),
                       filename="counts", key="dl")
links.guard_end()
"""


def tiny(**params: str) -> AppTest:
    at = AppTest.from_string(SCRIPT, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def shown_seed(at: AppTest) -> int:
    return int(next(m.value for m in at.markdown if m.value.startswith("seed ")).split()[1])


def presenter_css_injected(at: AppTest) -> bool:
    return any("Presenter mode" in element.proto.body for element in at.get("html"))


def test_the_seed_is_fixed_by_default_and_the_input_changes_it():
    at = tiny()
    assert shown_seed(at) == controls.DEFAULT_SEED
    assert at.number_input(key="seed").value == controls.DEFAULT_SEED
    at.number_input(key="seed").set_value(42).run()
    assert shown_seed(at) == 42
    at.run()  # a plain rerun keeps it
    assert shown_seed(at) == 42


def test_reroll_draws_a_new_seed_deterministically():
    at = tiny()
    at.button(key=classroom.REROLL_KEY).click().run()
    first = shown_seed(at)
    assert first == classroom.next_seed(controls.DEFAULT_SEED) != controls.DEFAULT_SEED
    assert at.number_input(key="seed").value == first
    at.button(key=classroom.REROLL_KEY).click().run()
    assert shown_seed(at) == classroom.next_seed(first) != first
    assert not at.toast  # the app's own change is never reported as an ignored link setting


def test_next_seed_stays_in_range_and_moves():
    for seed in (0, 1, controls.DEFAULT_SEED, classroom.SEED_MAX):
        new = classroom.next_seed(seed)
        assert 0 <= new <= classroom.SEED_MAX and new != seed


def test_seed_from_the_url():
    at = tiny(seed="77")
    assert shown_seed(at) == 77
    assert not at.toast


def test_presenter_mode_toggle_and_url_flag_inject_the_css():
    at = tiny()
    assert not presenter_css_injected(at)
    at.toggle(key="present").set_value(True).run()
    assert presenter_css_injected(at)
    css = f"<style>{classroom.PRESENTER_CSS.read_text()}</style>"
    assert css in [element.proto.body for element in at.get("html")]
    at.toggle(key="present").set_value(False).run()
    assert not presenter_css_injected(at)
    assert presenter_css_injected(tiny(present="true"))


def _chart_configs(at: AppTest) -> list[dict]:
    import json

    return [json.loads(chart.proto.spec).get("config", {}) for chart in at.get("vega_lite_chart")]


def test_presenter_mode_gives_every_chart_projector_font_sizes():
    """Vega-Lite text is in pixels: presenter mode must enlarge it through the charts' own
    config (titles, axes, legends, text marks), and only in presenter mode."""
    from ui import template as ui_template

    at = app_apptest()
    at.query_params["present"] = "true"
    at = at.run()
    at.switch_page("lessons/laplace/page.py").run()
    assert not at.exception, at.exception
    configs = _chart_configs(at)
    assert configs
    for config in configs:
        for group, sizes in ui_template.PRESENTER_FONTS.items():
            for name, size in sizes.items():
                assert config[group][name] == size
        # every category label of a bar chart stays (Vega hid every other one at 17 px)
        assert config["axisYBand"]["labelOverlap"] is False
    at.toggle(key="present").set_value(False).run()
    for config in _chart_configs(at):
        assert "labelFontSize" not in config.get("axis", {})


def test_presenter_fonts_keep_the_specs_own_config():
    from ui import template as ui_template

    spec = {"config": {"axis": {"grid": False, "labelFontSize": 9}}, "mark": "point"}
    merged = ui_template.presenter_spec(spec)
    assert merged["config"]["axis"] == {"grid": False, **ui_template.PRESENTER_FONTS["axis"]}
    # readable from the back row: larger than 17 px and near-black, not Vega's grey
    assert merged["config"]["axis"]["labelFontSize"] >= 19
    assert merged["config"]["axis"]["labelColor"] == ui_template.PRESENTER_TEXT == "#1f1f1f"
    assert spec["config"]["axis"]["labelFontSize"] == 9  # the template is not changed


def test_presenter_mode_scales_a_charts_own_label_limits_and_leaves_its_rows_alone():
    """A bar chart's category axis with labelLimit 140 px (for the page's 11 px labels) cut
    "Handlers-cleaners" at the projector's 19 px: the limit grows with the labels, up to the
    projector's 400; the rows are not walked or changed."""
    from ui import template as ui_template

    rows = [{"axis": {"labelLimit": 5}, "category": "Handlers-cleaners"}]
    spec = {
        "data": {"values": rows},
        "layer": [
            {"encoding": {"y": {"field": "category", "axis": {"labelLimit": 140}}}},
            {"encoding": {"y": {"axis": {"labelLimit": 300}}, "color": {"legend": None}}},
            {"encoding": {"x": {"axis": {"labelLimit": 0, "grid": False}}}},
        ],
    }
    merged = ui_template.presenter_spec(spec)
    axes = [layer["encoding"] for layer in merged["layer"]]
    assert axes[0]["y"]["axis"]["labelLimit"] == round(140 * 19 / 11) == 242
    assert axes[1]["y"]["axis"]["labelLimit"] == 400  # capped at the projector's limit
    assert axes[2]["x"]["axis"] == {"labelLimit": 0, "grid": False}  # 0: no limit, kept
    assert merged["data"]["values"] is rows and rows[0]["axis"]["labelLimit"] == 5
    assert spec["layer"][0]["encoding"]["y"]["axis"]["labelLimit"] == 140  # not changed


@pytest.mark.parametrize(
    ("param", "value"),
    [
        ("seed", "abc"),
        ("seed", "-3"),
        ("eps", "0.6"),
        ("eps", "x"),
        ("query", "Foo"),
        ("present", "yes"),
    ],
)
def test_an_invalid_link_setting_shows_a_notice_and_the_default(param, value):
    at = tiny(**{param: value})
    assert not at.exception
    expected = f"Ignored an invalid link setting: {param}={text.plain(value)} — using the default."
    assert [toast.value for toast in at.toast] == [expected]
    assert expected in [caption.value for caption in at.sidebar.caption]
    assert shown_seed(at) == controls.DEFAULT_SEED
    assert param not in at.query_params


@pytest.mark.parametrize("value", ["inf", "-inf", "Infinity", "nan", "1e400", "9" * 400, "1e20"])
def test_a_seed_beyond_any_number_is_ignored_without_a_traceback(value):
    # Streamlit's own parsing of a bound number raised OverflowError on the first three
    # kinds: the link is now ignored with the notice.
    at = tiny(seed=value)
    assert not at.exception
    shown = value if len(value) <= links.SHOWN_CHARS else value[: links.SHOWN_CHARS - 1] + "…"
    expected = f"Ignored an invalid link setting: seed={text.plain(shown)} — using the default."
    assert [toast.value for toast in at.toast] == [expected]
    assert shown_seed(at) == controls.DEFAULT_SEED
    at.run()  # and the next run binds the seed to the URL again
    assert not at.exception and not at.toast


@pytest.mark.parametrize(
    "params",
    [
        {"seed": str(controls.DEFAULT_SEED)},
        {"eps": "1"},
        {"eps": "0.5"},
        {"query": "Income"},
        {"present": "false"},
        {"unrelated": "x"},
    ],
)
def test_valid_link_settings_are_not_reported(params):
    at = tiny(**params)
    assert not at.toast and not at.exception


def test_a_corrected_value_says_what_is_used():
    at = tiny(seed="1.5")
    assert [t.value for t in at.toast] == ["Ignored an invalid link setting: seed=1\\.5 — using 1."]


def test_two_invalid_settings_in_one_notice():
    at = tiny(seed="abc", eps="0.6")
    assert [t.value for t in at.toast] == [
        "Ignored invalid link settings: seed=abc (using the default); "
        "eps=0\\.6 (using the default)."
    ]


def test_the_notice_is_shown_once():
    at = tiny(seed="abc")
    at.run()
    assert not at.toast


def test_download_csv_is_utf8_without_index():
    data = downloads.csv_bytes(pd.DataFrame({"ε": [0.5], "count": [3]}, index=[7]))
    assert data.decode("utf-8").splitlines() == ["ε,count", "0.5,3"]
    at = tiny()
    button = at.get("download_button")[0]
    assert button.proto.label == "Download the data (CSV)"
    frame = pd.read_csv(io.BytesIO(data))
    assert list(frame.columns) == ["ε", "count"]


# --- The whole app: the sidebar on a lesson, determinism given the seed ------------------------


def lesson_datasets(seed: int | None = None, **params: str) -> list[bytes]:
    at = app_apptest()
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("lessons/laplace/page.py").run()
    if seed is not None:
        at.number_input(key="seed").set_value(seed).run()
    assert not at.exception
    charts = at.get("vega_lite_chart")
    assert charts
    return [dataset.data.data for chart in charts for dataset in chart.proto.datasets]


def test_same_seed_same_charts_different_seed_different_charts():
    first = lesson_datasets(seed=123)
    again = lesson_datasets(seed=123)
    other = lesson_datasets(seed=124)
    assert first == again
    assert first != other


def test_the_app_runs_with_an_invalid_link_setting():
    at = app_apptest()
    at.query_params["seed"] = "not-a-number"
    at.run()
    assert not at.exception
    assert [t.value for t in at.toast] == [
        "Ignored an invalid link setting: seed=not\\-a\\-number — using the default."
    ]


def test_the_seed_help_says_a_real_release_never_uses_a_seed():
    at = AppTest.from_string(SCRIPT, default_timeout=30).run()
    help_text = at.number_input(key=classroom.SEED_KEY).help
    assert "for teaching only" in help_text and "never a seed" in help_text


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+2", "'=1+2"),
        ("+cmd", "'+cmd"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Sales", "Sales"),
        ("a=b", "a=b"),
        ("−2 SD", "−2 SD"),
    ],
)
def test_csv_download_makes_formula_text_inert_but_keeps_numbers(cell, written):
    frame = pd.DataFrame({"category": [cell], "n": [-3], "share": [-0.5]})
    lines = downloads.csv_bytes(frame).decode().splitlines()
    assert lines[1] == f"{written},-3,-0.5"
    renamed = downloads.csv_bytes(pd.DataFrame({cell: [1]})).decode().splitlines()[0]
    assert renamed == written


HOSTILE_LINK_VALUES = [
    "**Session expired** [log in again](http://127.0.0.1:9/phish) ![](http://127.0.0.1:9/px.png)",
    "<img src=x onerror=alert(1)>",
    "$\\frac{1}{0}$ :red[alarm] www.evil.example a@b.example",
]


@pytest.mark.parametrize("value", HOSTILE_LINK_VALUES)
def test_a_hostile_link_value_is_shown_as_plain_text_in_the_toast_and_the_caption(value):
    # the notice rendered the URL's Markdown (bold, a live link, an image
    # request to the attacker's host)
    at = tiny(eps=value)
    assert not at.exception
    expected = f"Ignored an invalid link setting: eps={text.plain(value)} — using the default."
    assert [toast.value for toast in at.toast] == [expected]
    assert expected in [caption.value for caption in at.sidebar.caption]
    shown = text.plain(value)
    assert not re.search(r"(?<!\\)[<>\[\]()*$!]", shown), "a metacharacter left unescaped"
    assert "www\u2060" in shown or "www" not in value  # no auto-linked www. name
    unescaped = re.sub(r"\\(.)", r"\1", shown.replace("\u2060", ""))
    assert unescaped == value  # reads as the input


def test_reset_this_lesson_returns_every_control_and_the_link_to_the_defaults() -> None:
    """A lesson's own sidebar link kept `?svt_eps=0.05&seed=99`: no way back to the
    defaults. "Reset this lesson" clears every bound control and its parameter; presenter
    mode stays."""
    from conftest import app_apptest
    from lessons.catalogue import by_folder
    from ui import classroom, controls

    at = app_apptest().run()
    at.switch_page(str(by_folder("sparse_vector").path)).run()
    default = at.select_slider(key="svt_eps").value
    linked = app_apptest()
    linked.query_params.update({"svt_eps": "0.05", "seed": "99", "present": "true"})
    linked.run()
    linked.switch_page(str(by_folder("sparse_vector").path)).run()
    assert linked.select_slider(key="svt_eps").value == 0.05 != default
    assert linked.number_input(key="seed").value == 99
    linked.button(key=classroom.RESET_KEY).click().run()
    assert not linked.exception
    assert linked.select_slider(key="svt_eps").value == default
    assert linked.number_input(key="seed").value == controls.DEFAULT_SEED
    assert "svt_eps" not in linked.query_params and "seed" not in linked.query_params
    assert linked.toggle(key="present").value  # the lecturer's, not the lesson's


def test_the_activities_projector_charts_let_the_projector_size_their_words():
    """The activities' projector charts set no text size of their own: the projector's size
    goes to every text mark (one with a size of its own grows by 17/11 from it, which was
    chosen for a laptop): the quiz's numbers on its bars (14 px), the game's "a coin" and the
    heist's value beyond the axis (12 px) stayed small on the projector, the screen these
    charts are made for."""
    from lessons.class_game import charts as game
    from lessons.class_heist import charts as heist
    from lessons.class_quiz import charts as quiz

    def fixed_text(node) -> list:
        if isinstance(node, list):
            return [found for item in node for found in fixed_text(item)]
        if not isinstance(node, dict):
            return []
        mark = node.get("mark")
        own = isinstance(mark, dict) and mark.get("type") == "text" and "fontSize" in mark
        return ([mark] if own else []) + fixed_text(
            [value for key, value in node.items() if key not in ("datasets", "data")]
        )

    for template in (
        game.region(True),
        heist.closing_in(True),
        quiz.answers(4, True, True),
        quiz.answers(4, False, True),
    ):
        assert fixed_text(template.spec) == []
