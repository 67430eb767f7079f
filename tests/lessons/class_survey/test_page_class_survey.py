"""AppTest for lessons/class_survey/page.py: the lecturer creates a survey, students answer, the
projector shows the debiased estimate; the question is text, the admin key stays private.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from chart_checks import assert_valid_charts
from streamlit.testing.v1 import AppTest

import dp
import survey
from lessons.class_survey import charts, model
from survey import security
from ui import activity, text

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_survey/page.py")

ANSWERS = "Answers / devices joined"
NO_KEY = (
    "To see the results and manage a survey, open your private lecturer link (it carries "
    "the admin key) in this browser. Without it, this page shows nothing. Students join "
    "with the link or the code on the projector."
)


@pytest.fixture
def db_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'survey.sqlite3'}"
    monkeypatch.setenv("SURVEY_DB_URL", url)
    return url


@pytest.fixture
def store(db_url):
    s = survey.SurveyStore(db_url)
    yield s
    s.dispose()


def page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=30)


def all_text(at: AppTest) -> str:
    """Every string the page sent to the browser (element protos, rendered as text)."""
    return "\n".join(str(node.proto) for node in at.main) + "\n".join(
        str(node.proto) for node in at.sidebar
    )


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def create(at: AppTest, question: str, protocol: str = survey.TWO_COINS) -> str:
    at.run()
    at.text_area(key="survey_question").input(question)
    at.radio(key="survey_protocol").set_value(protocol)
    at.run()
    at.button(key="survey_create").click().run()
    assert not at.exception
    return at.query_params["manage"]


def test_create_page_shows_p_q_and_epsilon_for_each_protocol(db_url) -> None:
    at = page().run()
    assert not at.exception
    assert metrics(at)["Privacy loss ε"] == text.number(dp.rr_epsilon(0.75, 0.75)) == "1.099"
    at.radio(key="survey_protocol").set_value(survey.DIE).run()
    assert metrics(at)["Privacy loss ε"] == "1.609"  # ln 5
    assert metrics(at)["p: keep a true yes"] == "0.8333"
    at.radio(key="survey_protocol").set_value(survey.CUSTOM).run()
    at.slider(key="survey_custom_p").set_value(0.7).run()
    at.slider(key="survey_custom_q").set_value(0.6).run()
    assert metrics(at)["Privacy loss ε"] == text.number(dp.rr_epsilon(0.7, 0.6)) == "0.6931"
    # p + q < 1: ε = max |ln ratio| (the plain ln max(…) form would be negative: −1.099)
    at.slider(key="survey_custom_p").set_value(0.25).run()
    at.slider(key="survey_custom_q").set_value(0.25).run()
    assert metrics(at)["Privacy loss ε"] == text.number(dp.rr_epsilon(0.25, 0.25)) == "1.099"
    formulas = " ".join(latex.value for latex in at.latex)
    assert r"\left|\ln\frac{p}{1-q}\right|" in formulas and "= 1.099" in formulas
    at.slider(key="survey_custom_p").set_value(0.7).run()
    at.slider(key="survey_custom_q").set_value(0.3).run()  # p + q = 1
    assert any("p + q" in w.value for w in at.warning)
    assert at.button(key="survey_create").disabled
    assert not at.exception


@pytest.mark.parametrize(
    ("protocol", "p", "q", "said"),
    [
        (survey.TWO_COINS, 0.75, 0.75, "within ± 31% from 30 answers and ± 12% from 200"),
        (survey.DIE, 5 / 6, 5 / 6, "within ± 20% from 30 answers and ± 7.75% from 200"),
        (survey.CUSTOM, 0.55, 0.55, "within ± 100% from 30 answers and ± 68.9% from 200"),
        (survey.CUSTOM, 0.9, 0.6, "within ± 35.1% from 30 answers and ± 13.6% from 200"),
    ],
)
def test_the_create_page_says_how_precise_the_estimate_will_be(db_url, protocol, p, q, said):
    """Before the survey is made, the lecturer reads what the protocol buys a room: 1.96 √Var
    with Var = [r p(1 − p) + (1 − r) q(1 − q)] / (n (p + q − 1)²) at its widest r (written
    here, not from dp), and "next to nothing" where that is ±50% or more."""
    at = page().run()
    at.radio(key="survey_protocol").set_value(protocol).run()
    if protocol == survey.CUSTOM:
        at.slider(key="survey_custom_p").set_value(p).run()
        at.slider(key="survey_custom_q").set_value(q).run()
    shown = " ".join(c.value for c in at.caption).replace("\u00a0", " ")
    assert said in shown
    widest = [max(p * (1 - p), q * (1 - q)) / (n * (p + q - 1) ** 2) for n in (30, 200)]
    loose = [n for n, var in zip((30, 200), widest, strict=True) if 1.959964 * var**0.5 >= 0.5]
    assert ("would say next to nothing" in shown) == bool(loose)
    assert not at.exception


def test_lecturer_creates_a_survey_and_sees_join_code_link_and_qr(db_url, store) -> None:
    at = page()
    code = create(at, "Have you ever cheated in an exam?", survey.DIE)
    found = store.get_by_code(code)
    assert found is not None and found.protocol.key == survey.DIE
    assert metrics(at)["Join code"] == code
    assert metrics(at)[ANSWERS].split(" / ")[0] == "0"
    codes = [c.value for c in at.code]
    links = [re.sub(r"<[^>]+>", "", m.value) for m in at.markdown if "pp-join-link" in m.value]
    assert any(link.endswith(f"/class-survey?join={code}") for link in links)
    assert len(at.get("image")) == 1  # the QR code
    # The private link carries a key that works.
    private = next(c for c in codes if "manage=" in c)
    key = private.split("key=")[1]
    assert store.check_admin_key(found.id, key)


def test_student_submits_and_the_projector_shows_the_estimate(db_url, store) -> None:
    lecturer = page()
    code = create(lecturer, "Did you copy homework?")
    found = store.get_by_code(code)
    # Nine answers from other phones, then one through the page.
    for bit in (1, 1, 1, 0, 1, 0, 1, 1, 0):
        store.submit(found.id, security.new_session_token(), bit)
    student = page()
    student.query_params["join"] = code
    student.run()
    assert not student.exception
    assert "never asks for your true answer" in all_text(student)
    assert [b.label for b in student.button] == ["Yes", "No"]
    student.button(key="survey_report_yes").click().run()
    assert any("answer is in" in s.value for s in student.success)
    assert not student.button  # no second chance to tap
    assert store.counts(found.id) == survey.Counts(10, 7)

    lecturer.run()
    shown = metrics(lecturer)
    estimate, low, high = dp.rr_confidence_interval(7, 10, 0.75, 0.75)
    assert shown[ANSWERS] == "10 / 1"  # nine answers came from elsewhere, one phone joined
    assert shown["Reported yes"] == "70%"
    assert shown["Estimated true yes"] == f"{text.percent(estimate, 2)}" == "90%"
    assert shown["95% interval"] == f"{text.percent(low, 2)}–{text.percent(high, 2)}"
    spec = json.loads(lecturer.get("vega_lite_chart")[0].proto.spec)
    assert "95% interval" in json.dumps(spec.get("title", spec))
    layers = json.dumps(spec)
    assert '"domain": [0, 1]' in layers  # fixed y axis


def test_a_second_tap_from_the_same_session_counts_once(db_url, store) -> None:
    code = create(page(), "Q?")
    found = store.get_by_code(code)
    student = page()
    student.query_params["join"] = code
    student.run()
    student.button(key="survey_report_no").click().run()
    student.run()  # a reload of the same session shows no buttons
    assert not student.button
    assert store.counts(found.id) == survey.Counts(1, 0)


JOIN_LINK = re.compile(
    r'<p class="pp-join-link">(<span class="pp-nowrap">[^<>"]+</span>(<wbr>)?)+</p>'
)


def lecturer_and_student(question: str) -> tuple[AppTest, AppTest]:
    """A lecturer creates a survey asking `question`; a student's phone joins it."""
    lecturer = page()
    code = create(lecturer, question)
    student = page()
    student.query_params["join"] = code
    return lecturer, student.run()


def test_script_in_the_question_is_shown_as_text(db_url) -> None:
    question = "<script>alert('x')</script> Did you <b>cheat</b>? [link](http://evil) $x$"
    for at in lecturer_and_student(question):
        shown = [m for m in at.markdown if "script" in m.value]
        assert shown, "the question is on the page"
        for element in shown:
            assert not element.allow_html
            assert r"\<script\>" in element.value  # escaped: rendered literally
            # the one escaping (ui/text.py): brackets escaped, no autolink after the colon
            assert "\\[link\\]\\(http\\:\u2060//evil\\)" in element.value
        # no HTML but the projector's join link, built by text.breakable_url (every
        # character escaped) from the join code and the address for students
        assert all(not m.allow_html or JOIN_LINK.fullmatch(m.value) for m in at.markdown)


def test_urls_www_names_and_emails_in_the_question_are_not_links(db_url) -> None:
    # bare URLs, www. names and e-mail addresses became live links
    question = "Visit https://evil.example/x or www.evil.example or mail a@evil.example?"
    for at in lecturer_and_student(question):
        (shown,) = [m.value for m in at.markdown if "Visit" in m.value]
        assert "https\\:\u2060//evil" in shown  # no scheme for the auto-linker to find
        assert "www\u2060\\.evil" in shown and "a\u2060\\@evil" in shown
        assert shown.replace("\u2060", "").replace("\\", "") == f"## {question}"


def test_student_page_contains_no_admin_key(db_url, store) -> None:
    lecturer = page()
    code = create(lecturer, "Q?")
    private = next(c.value for c in lecturer.code if "manage=" in c.value)
    key = private.split("key=")[1]
    student = page()
    student.query_params["join"] = code
    student.run()
    student.button(key="survey_report_yes").click().run()
    text = all_text(student)
    assert code in student.query_params["join"]
    assert key not in text
    assert security.admin_key_digest(key) not in text
    assert "manage=" not in text


def test_wrong_key_in_a_lecturer_link_shows_no_results(db_url, store) -> None:
    code = create(page(), "Q?")
    stranger = page()
    stranger.query_params["manage"] = code
    stranger.query_params["key"] = "not-the-key"
    stranger.run()
    assert [w.value for w in stranger.warning] == [NO_KEY]
    assert not stranger.error  # nothing says whether this code exists
    assert ANSWERS not in metrics(stranger)
    assert "key" not in stranger.query_params  # removed from the address bar


def test_private_link_key_opens_the_projector_and_leaves_the_url(db_url, store) -> None:
    new = store.create_survey("Q?", survey.two_coins())
    other_device = page()
    other_device.query_params["manage"] = new.survey.code
    other_device.query_params["key"] = new.admin_key
    other_device.run()
    assert metrics(other_device)[ANSWERS].split(" / ")[0] == "0"
    assert "key" not in other_device.query_params
    other_device.button(key="survey_close").click().run()
    assert not store.get_by_id(new.survey.id).is_open


def projector(new: survey.NewSurvey) -> AppTest:
    """A lecturer's tab on the survey, opened with the private link."""
    tab = page()
    tab.query_params["manage"] = new.survey.code
    tab.query_params["key"] = new.admin_key
    tab.run()
    assert not tab.exception
    return tab


def test_a_late_reset_in_a_second_tab_keeps_the_answers_given_since(
    db_url, store, monkeypatch
) -> None:
    """Two projector tabs. Tab A resets; the room answers again; tab B, still showing the
    survey as it was before A's reset, presses Reset: the new answers stay, B says that its
    press changed nothing (through its own redraws, until FAULT_SHOWN_S has passed: it was
    gone at the next one, 2 s later) and shows them. Close and reopen do what their buttons
    say."""
    new = store.create_survey("Q?", survey.two_coins())
    sid = new.survey.id
    for _ in range(4):
        store.submit(sid, security.new_session_token(), 1)
    tab_a, tab_b = projector(new), projector(new)
    assert metrics(tab_b)[ANSWERS].startswith("4 / ")
    tab_a.button(key="survey_reset").click().run()
    assert store.counts(sid).responses == 0
    assert metrics(tab_a)[ANSWERS].startswith("0 / ")
    for _ in range(3):
        store.submit(sid, security.new_session_token(), 0)
    tab_b.button(key="survey_reset").click().run()
    assert not tab_b.exception
    assert store.counts(sid).responses == 3
    assert metrics(tab_b)[ANSWERS].startswith("3 / ")
    assert any("changed nothing" in i.value for i in tab_b.info), [i.value for i in tab_b.info]
    tab_b.run()  # the projector's redraw, 2 s later
    assert any("changed nothing" in i.value for i in tab_b.info)
    shown_s = activity.FAULT_SHOWN_S
    monkeypatch.setattr(activity, "FAULT_SHOWN_S", 0.0)
    tab_b.run()
    assert not any("changed nothing" in i.value for i in tab_b.info)
    monkeypatch.setattr(activity, "FAULT_SHOWN_S", shown_s)
    tab_b.button(key="survey_reset").click().run()  # now from the state it shows
    assert store.counts(sid).responses == 0
    assert not any("changed nothing" in i.value for i in tab_b.info)
    tab_b.button(key="survey_close").click().run()
    assert not store.get_by_id(sid).is_open
    assert "Survey " + new.survey.code + " is closed" in all_text(tab_b)
    tab_a.button(key="survey_close").click().run()  # A still showed it open: stays closed
    assert not store.get_by_id(sid).is_open
    tab_a.button(key="survey_reopen").click().run()
    assert store.get_by_id(sid).is_open


def test_closed_and_unknown_surveys_give_a_clear_message(db_url, store) -> None:
    new = store.create_survey("Q?", survey.two_coins())
    store.close(new.survey.id, new.admin_key)
    student = page()
    student.query_params["join"] = new.survey.code
    student.run()
    assert any("closed" in w.value for w in student.warning)
    assert not student.button
    # A phone does not poll: it says that a reload brings the buttons back once reopened.
    assert any("If your lecturer reopens it, reload this page" in w.value for w in student.warning)
    store.reopen(new.survey.id, new.admin_key)
    student.run()  # the reload
    assert [b.label for b in student.button][:2] == ["Yes", "No"]
    unknown = page()
    unknown.query_params["join"] = "ZZZZZZ" if new.survey.code != "ZZZZZZ" else "YYYYYY"
    unknown.run()
    assert any("no survey" in e.value for e in unknown.error)
    assert not unknown.exception


def test_closing_between_load_and_tap_says_the_answer_was_not_recorded(db_url, store) -> None:
    new = store.create_survey("Q?", survey.two_coins())
    student = page()
    student.query_params["join"] = new.survey.code
    student.run()
    store.close(new.survey.id, new.admin_key)
    student.button(key="survey_report_yes").click().run()
    assert any("not recorded" in w.value for w in student.warning)
    assert store.counts(new.survey.id).responses == 0


@pytest.mark.parametrize("presenting", [False, True])
def test_projector_chart_fits_and_only_the_code_is_in_the_url(db_url, store, presenting) -> None:
    from lessons.class_survey import model as lesson_survey
    from ui import classroom

    new = store.create_survey("Q?", survey.two_coins())
    for bit in (1, 0, 1, 1):
        store.submit(new.survey.id, security.new_session_token(), bit)
    projector = page()
    projector.session_state[classroom.PRESENT_KEY] = presenting
    projector.query_params["manage"] = new.survey.code
    projector.query_params["key"] = new.admin_key
    projector.run()
    assert not projector.exception
    assert metrics(projector)[ANSWERS].split(" / ")[0] == "4"
    spec = json.loads(projector.get("vega_lite_chart")[0].proto.spec)
    expected = lesson_survey.PRESENTER_CHART_HEIGHT if presenting else lesson_survey.CHART_HEIGHT
    assert spec["height"] == expected
    assert spec["autosize"]["type"] == "fit-x"  # the plot keeps its height
    # The link on the projector holds the join code only: no admin key, nothing bound.
    assert set(projector.query_params) == {"manage"}
    # The join code and QR come first; the address field is folded under them.
    assert projector.text_input(key="survey_base_url").value.startswith("http")


def test_the_example_question_is_a_real_value_so_create_works_at_once(db_url, store) -> None:
    at = page().run()
    assert at.text_area(key="survey_question").value
    at.button(key="survey_create").click().run()
    assert not at.warning, [w.value for w in at.warning]
    found = store.get_by_code(at.query_params["manage"])
    assert found is not None and found.question.startswith("Have you ever")


def test_an_estimate_outside_0_100_is_shown_clipped_with_a_note(db_url, store) -> None:
    lecturer = page()
    code = create(lecturer, "Did you copy homework?")
    found = store.get_by_code(code)
    store.submit(found.id, security.new_session_token(), 1)  # one reported yes
    lecturer.run()
    estimate = dp.rr_confidence_interval(1, 1, 0.75, 0.75)[0]
    assert estimate > 1  # (1 − 0.25) / 0.5 = 150%
    assert metrics(lecturer)["Estimated true yes"] == "100%"
    notes = " ".join(c.value for c in lecturer.caption)
    assert f"The debiased estimate is {text.percent(estimate, 2)}, outside 0–100%" in notes
    assert "with 1 answer the coins" in notes
    assert_valid_charts(lecturer, "class_survey")  # and its chart draws that one answer


def test_the_projector_interval_is_never_inverted_and_the_line_is_clipped(db_url, store) -> None:
    """On the projector: 30 reported yes at p = q = 3/4 put the raw low
    end at 119% ("101% to 100%" on screen). The band stays within 0..1 and ordered, the
    line is drawn at the edge, and the caption says so."""
    from apptest_helpers import frames_of

    lecturer = page()
    code = create(lecturer, "Did you copy homework?")
    found = store.get_by_code(code)
    for _ in range(30):
        store.submit(found.id, security.new_session_token(), 1)
    lecturer.run()
    assert metrics(lecturer)["95% interval"] == "100%–100%"
    (chart,) = lecturer.get("vega_lite_chart")
    data = frames_of(chart)
    band, lines = data["band"], data["lines"]
    assert (band["low"] <= band["high"]).all() and band["low"].between(0, 1).all()
    assert band["high"].between(0, 1).all() and lines["share"].between(0, 1).all()
    notes = " ".join(c.value for c in lecturer.caption)
    assert "At 30 of the 30 points drawn the raw estimate lay outside 0–100%" in notes


def test_without_settings_the_database_goes_to_the_repository_var_folder(monkeypatch) -> None:
    # README and the module docstring promise the repository's git-ignored var/, not a
    # var/ inside lessons/ (the restructure moved model.py one folder deeper)

    monkeypatch.delenv("SURVEY_DB_URL", raising=False)
    monkeypatch.delenv("SURVEY_DB_DIR", raising=False)
    assert activity.DEFAULT_DB_DIR == ROOT / "var"
    assert activity.database_url().endswith(f"{ROOT / 'var' / 'survey.sqlite3'}")


@pytest.mark.parametrize("make", [survey.two_coins, survey.die])
def test_the_phone_says_what_epsilon_bounds_not_that_nobody_can_tell(store, make) -> None:
    """Finding: the phone said "Nobody — not your lecturer, not this app — can tell whether a
    reported answer is true", while at ε = ln 3, 75% of reports are true. It now says what
    ε bounds, with the protocol's numbers."""
    protocol = make()
    created = store.create_survey("Did you?", protocol)
    phone = AppTest.from_file(PAGE, default_timeout=30)
    phone.query_params["join"] = created.survey.code
    phone.run()
    said = " ".join(i.value for i in phone.info)
    assert "can tell whether a reported answer is true" not in said
    assert f"reported yes {text.percent(protocol.p)} of the time" in said
    assert f"at most {text.number(protocol.likelihood_ratio_bound, 3)} times as likely" in said


def test_the_confirmation_completes_its_comparison_with_the_protocols_numbers(store) -> None:
    """Finding: under "Your reported answer is in" a phone read "A reported yes is at most 2
    times as likely from someone whose true answer is yes.", a comparison with nothing to
    compare with, and for p ≠ q not even the yes report's ratio. At p = 0.7, q = 0.6 a
    reported yes is 0.7/0.4 = 1.75 times as likely from a true yes as from a true no (e^ε =
    max(1.75, 0.6/0.3) = 2 is what the box below says); the phone also says how to answer
    again after a reset."""
    created = store.create_survey("Did you?", survey.custom(0.7, 0.6))
    phone = page()
    phone.query_params["join"] = created.survey.code
    phone.run()
    phone.button(key="survey_report_yes").click().run()
    said = " ".join(c.value for c in phone.caption)
    assert (
        "A reported yes is 1.75 times as likely from someone whose true answer is yes as from "
        "someone whose true answer is no" in said
    )
    assert "privacy loss ε = 0.693." in said
    assert "at most 2 times as likely under one true answer as under the other" in " ".join(
        i.value for i in phone.info
    )
    assert "reload this page to answer again" in said


@pytest.mark.parametrize(("p", "q"), [(0.75, 0.75), (0.9, 0.6), (0.2, 0.3), (0.25, 0.25)])
def test_the_pull_is_toward_the_point_or_across_it(p, q) -> None:
    """The expected share of reported yes, r p + (1 − r)(1 − q), sits (p + q − 1) times as
    far from (1 − q)/(2 − p − q) as the true share r: with p + q < 1 on the other side of it
    (it said "pull toward" for every protocol)."""
    point = (1 - q) / (2 - p - q)
    for r in (0.0, 0.3, 1.0):
        reported = r * p + (1 - r) * (1 - q)
        assert reported - point == pytest.approx((p + q - 1) * (r - point))
    said = model.pull_words(p, q)
    assert f"= {text.percent(point)} (50% only when p = q)" in said
    assert f"keeping {text.percent(abs(p + q - 1))} of the true share's distance" in said
    assert ("across" in said and "evidence for no" in said) == (p + q < 1)
    assert ("pull the dashed line toward" in said) == (p + q > 1)


def test_the_custom_p_and_q_labels_say_nearer_1_minus_the_other(db_url) -> None:
    """Not "more private toward ½": ε is 0 at p = 1 − q (tests/lessons/binary_rr proves the
    direction on a grid)."""
    at = page().run()
    at.radio(key="survey_protocol").set_value(survey.CUSTOM).run()
    assert "nearer 1 − q → more private" in at.slider(key="survey_custom_p").label
    assert "nearer 1 − p → more private" in at.slider(key="survey_custom_q").label


@pytest.mark.parametrize("presenting", [False, True])
def test_after_the_first_answer_the_chart_draws_where_the_room_is(presenting) -> None:
    """Finding: the chart drew its estimate and raw share as lines and its interval as an
    area, which need two answers, so after the first answer the projector showed an empty
    chart beside metrics with numbers. The last answer's two values are points (one per
    series, told apart by shape) and its interval a bar, marks that draw from one row."""
    layers = charts.estimate(10, presenting).spec["layer"]

    def kind(layer) -> str:
        return layer["mark"] if isinstance(layer["mark"], str) else layer["mark"]["type"]

    def last_row_only(layer) -> bool:
        return any(
            "datum.n == datum.last_n" in str(t.get("filter", ""))
            for t in layer.get("transform", [])
        )

    bars = [
        layer
        for layer in layers
        if kind(layer) == "rule"
        and layer["data"]["name"] == "band"
        and layer["encoding"]["y"]["field"] == "low"
        and layer["encoding"]["y2"]["field"] == "high"
        and last_row_only(layer)
    ]
    points = [
        layer
        for layer in layers
        if kind(layer) == "point" and layer["data"]["name"] == "lines" and last_row_only(layer)
    ]
    assert len(bars) == 1
    shown = {
        (series, layer["mark"]["shape"])
        for layer in points
        for series in ("debiased estimate", "share reported yes")
        if f"'{series}'" in str(layer["transform"])
    }
    assert shown == {("debiased estimate", "circle"), ("share reported yes", "diamond")}
