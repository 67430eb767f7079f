"""A bound control's value reaches the address even when the browser does not write it.

Streamlit's browser side writes a bound widget's value into the address as it changes, but
it can lose a widget's binding (a block drawn anew during a run: its old copy, removed at
the run's end, unregisters the binding the new copy made). Measured in Chromium on unary
encoding opened from the menu: after the attribute, p, the comparison's ε and the mode were
moved, the address lacked the mode in 1 to 2 tries of 6 to 10, and kept lacking it. The
server now checks the address each run was sent against each bound control's value
(ui.controls._keep_in_link).

AppTest is a browser that never writes the address itself: the address after a run is the
one the run started from plus what the server sent, as in a browser that lost every binding.
"""

from __future__ import annotations

import pytest
from streamlit.runtime.state.query_params import QueryParams
from streamlit.testing.v1 import AppTest

from apptest_helpers import hosted_lesson
from conftest import APPTEST_TIMEOUT_S, page_apptest


def _controls_script() -> None:
    from ui import controls

    controls.radio("Mode", ["custom", "sue", "oue"], key="mode", format_func=str.upper)
    controls.slider("p", 0.01, 0.99, 0.75, 0.01, key="p")
    controls.slider("Count", 1, 20, 5, key="count")
    controls.selectbox("Attribute", ["Race", "Occupation"], key="attribute")
    controls.toggle("Show the numbers", key="numbers")
    controls.multiselect("Groups", ["a", "b", "c"], default=["a"], key="groups")
    controls.number_input("Seed", key="seed", value=2026, step=1)


MOVES = {  # widget kind, key, a value other than its default, what the address then says
    "radio": ("radio", "mode", "sue", "SUE"),
    "slider": ("slider", "p", 0.8, "0.8"),
    "int slider": ("slider", "count", 7, "7"),
    "selectbox": ("selectbox", "attribute", "Occupation", "Occupation"),
    "toggle": ("toggle", "numbers", True, "true"),
    "multiselect": ("multiselect", "groups", ["a", "c"], ["a", "c"]),
    "number_input": ("number_input", "seed", 77, "77"),
}


def _app() -> AppTest:
    at = AppTest.from_function(_controls_script, default_timeout=APPTEST_TIMEOUT_S).run()
    assert not at.exception, at.exception
    assert at.query_params == {}  # every control at its default: a bare address
    return at


@pytest.mark.parametrize("name", MOVES)
def test_a_moved_control_is_written_to_the_address_and_its_default_takes_it_out(name: str):
    kind, key, value, in_link = MOVES[name]
    at = _app()
    getattr(at, kind)(key=key).set_value(value).run()
    assert not at.exception, at.exception
    assert at.query_params == {key: in_link}
    # reopened from that address, the control reads the same value
    again = AppTest.from_function(_controls_script, default_timeout=APPTEST_TIMEOUT_S)
    again.query_params[key] = in_link
    again.run()
    assert getattr(again, kind)(key=key).value == value
    # back at the default, the parameter leaves the address
    default = getattr(_app(), kind)(key=key).value
    getattr(at, kind)(key=key).set_value(default).run()
    assert at.query_params == {}


def test_an_address_that_already_says_the_value_is_not_sent_again(monkeypatch):
    """The usual case (the browser wrote the value before it asked for the run): the server
    sends no address, which would add an entry to the browser's history."""
    at = _app()
    at.radio(key="mode").set_value("sue")
    at.query_params["mode"] = "SUE"  # as the browser's own binding writes it
    sent = []
    original = QueryParams._send_query_param_msg
    monkeypatch.setattr(
        QueryParams,
        "_send_query_param_msg",
        lambda self: (sent.append(dict(self._query_params)), original(self))[1],
    )
    at.run()
    assert not at.exception, at.exception
    assert sent == []
    assert at.query_params == {"mode": "SUE"}
    at.radio(key="mode").set_value("oue").run()  # the browser did not write this one
    assert sent == [{"mode": "OUE"}]
    at.run()  # what the server wrote says the value: it is not written again
    at.slider(key="p").set_value(0.8).run()
    assert sent == [{"mode": "OUE"}, {"mode": "OUE", "p": ["0.8"]}]
    at.run()
    assert len(sent) == 2 and at.query_params == {"mode": "OUE", "p": "0.8"}


def test_unary_encodings_mode_reaches_the_link_from_the_server():
    """The case measured in Chromium: the mode moved to SUE on a page whose browser side
    wrote nothing; the link says SUE, and p and q (hidden in SUE) are not in it."""
    at = page_apptest("unary_encoding/page.py").run()
    assert not at.exception, at.exception
    at.slider(key="ue_p").set_value(0.8).run()
    assert at.query_params["ue_p"] == "0.8"
    at.radio(key="ue_mode").set_value("sue").run()
    assert not at.exception, at.exception
    assert at.query_params["ue_mode"] == "SUE (symmetric)"
    assert "ue_p" not in at.query_params


def test_a_control_whose_options_change_keeps_no_old_value_in_the_link():
    """Unary encoding's respondent (Sales, among occupations) has no such option once the
    attribute is education: Streamlit resets it, and the link must not bring Sales back."""
    at = page_apptest("unary_encoding/page.py").run()
    assert at.selectbox(key="ue_value").value == "Sales"
    at.radio(key="ue_attribute").set_value("education").run()
    assert not at.exception, at.exception
    shown = at.selectbox(key="ue_value").value
    assert shown != "Sales"
    assert at.query_params.get("ue_value", shown) == shown
    assert at.query_params["ue_attribute"] == "Education"


@pytest.mark.parametrize(
    ("written", "value", "link"),
    [("0.50", 0.5, "0.5"), ("2.0", 2.0, "2"), ("1,5", None, None), ("0.51", None, None)],
)
def test_an_epsilon_written_another_way_opens_at_it(written, value, link):
    """The browser writes an ε slider's link (its label, `2`); a hand-written `2.0` or
    `0.50` still opens at that ε, and the link then says its label. Text that is no ε on
    the slider falls back to the default, with the link guard's notice."""
    at = page_apptest("laplace/page.py")
    at.query_params["lap_eps"] = written
    at.run()
    assert not at.exception, at.exception
    assert at.select_slider(key="lap_eps").value == (value or 1.0)
    assert at.query_params.get("lap_eps") == link


def test_starting_a_new_activity_in_presenter_mode_keeps_presenter_mode(store):
    """ "Start a new heist" emptied the address with st.query_params.clear(), which Streamlit
    refuses while a parameter in it is bound to a widget: a lecturer in presenter mode
    (?present=true) met an error instead of the create form. Creating one wrote the address
    as `manage=CODE` alone, and a reload left presenter mode; the next run now puts it back."""
    at = hosted_lesson("class_heist/page.py", present="true")
    at.text_input(key="heist_a_name").input("Seat row")
    at.number_input(key="heist_a_max").set_value(6)
    at.button(key="heist_create").click().run()
    assert not at.exception, at.exception
    assert set(at.query_params) == {"manage", "present"} and at.query_params["present"] == "true"
    at.button(key="heist_new").click().run()
    assert not at.exception, at.exception
    assert at.query_params == {"present": "true"}
    assert at.toggle(key="present").value is True
