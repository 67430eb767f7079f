"""Lesson in the classroom: a live survey with randomized response. The lecturer asks a
sensitive yes/no question; students randomize with their own coins or die and report only
the result from their phones; the projector shows the debiased estimate live.

Three modes, chosen by the URL:
- no parameters: the lecturer creates a survey;
- ?manage=CODE (&key=ADMIN_KEY from the private link): the projector view;
- ?join=CODE: the student view (phone layout).
"""

from __future__ import annotations

import contextlib

import streamlit as st

import dp
import survey
from lessons.class_survey import charts, model, snippets
from ui import activity, classroom, controls, notebook, text

ACTIVITY = model.ACTIVITY
EXAMPLE_QUESTION = "Have you ever copied homework from a classmate?"
PROTOCOL_LABELS = {
    survey.TWO_COINS: "Two coins (p = q = ¾, ε = ln 3)",
    survey.DIE: "One die (p = q = 5/6, ε = ln 5)",
    survey.CUSTOM: "Custom p and q",
}
SUBMIT_MESSAGES = {
    survey.SubmitResult.ACCEPTED: (st.success, "Your reported answer is in. Thank you!"),
    survey.SubmitResult.DUPLICATE: (
        st.info,
        "This browser has already answered this survey. Only its first answer counts.",
    ),
    survey.SubmitResult.CLOSED: (
        st.warning,
        "This survey is closed: your answer was not recorded. If your lecturer reopens it, "
        "reload this page to answer.",
    ),
    survey.SubmitResult.UNKNOWN: (
        st.error,
        "This survey no longer exists: your answer was not recorded.",
    ),
}


def show_fault(reason: str, *, student: bool) -> None:
    """The class database failed: say what happened (and, to the lecturer, what to do)."""
    activity.show_fault(reason, student=student, activity=ACTIVITY.name)


def show_question(question: str) -> None:
    """The question, large, always as literal text (never HTML or Markdown)."""
    with st.container(border=True):
        st.caption("The question")
        st.markdown(f"## {text.plain(question)}")


def show_math(p: float, q: float) -> None:
    """The estimator and its interval, for the protocol's p and q."""
    st.markdown(
        "If a share $r$ of the room would truly say yes, the share of reported yes you expect is"
    )
    notebook.latex(r"\mathbb{E}[\hat Y] = r\,p + (1 - r)(1 - q).")
    st.markdown("Solve it for $r$ and you get the debiased estimate, with its variance:")
    notebook.latex(r"\hat r = \frac{\hat Y + q - 1}{p + q - 1}")
    notebook.latex(r"\operatorname{Var}[\hat r] = \frac{r\,p(1-p) + (1-r)\,q(1-q)}{n\,(p+q-1)^2}")
    st.markdown(
        r"The projector shows the 95% interval $\hat r \pm 1.96\sqrt{\operatorname{Var}}$, "
        "cut to 0–100 %. The estimate itself is not cut, so with few answers it may lie "
        "below 0 % or above 100 %: that is the price of being unbiased."
    )
    notebook.latex(
        rf"\varepsilon = \max\!\left(\left|\ln\frac{{p}}{{1-q}}\right|,"
        rf" \left|\ln\frac{{q}}{{1-p}}\right|\right) = {text.number(dp.rr_epsilon(p, q))}"
    )
    st.caption(
        "The absolute values matter when p + q < 1: a report is then evidence for the other "
        "answer, and its log-ratio is negative."
    )


def join_with_code_form(key: str) -> None:
    """A small form for students who type the code instead of scanning."""
    with st.form(key=f"survey_join_form_{key}", border=False):
        typed = st.text_input(
            "Join code", max_chars=12, key=f"survey_join_code_{key}", placeholder="e.g. K7QX2M"
        )
        if st.form_submit_button("Join"):
            code = survey.normalize_join_code(typed)
            if code is None:
                st.warning("A join code has 6 letters and digits, as shown on the projector.")
            else:
                st.query_params.from_dict({"join": code})
                st.rerun()


# --- Student -------------------------------------------------------------------------------
def submit_report(store: survey.SurveyStore, survey_id: int, reported_bit: int) -> None:
    """Button callback: send the reported bit (once per session; rate-limited). Runs
    before the rerun, so the page that follows already shows the outcome, not buttons."""
    token = activity.session_token(store)
    outcome = ACTIVITY.tap(
        store,
        token,
        model.TAP_LIMIT,
        model.SUBMITS_PER_MINUTE,
        lambda: store.submit(survey_id, token, reported_bit),
    )
    if outcome is not None:  # else not recorded: the buttons stay, to tap again
        model.outcome(survey_id).set(outcome.value)


def show_outcome(found: survey.Survey, result: survey.SubmitResult) -> None:
    show, message = SUBMIT_MESSAGES[result]
    show(message)
    st.caption(model.answered_words(found.protocol))


@st.fragment
def answer_box(store: survey.SurveyStore, found: survey.Survey, token: str) -> bool:
    """The two buttons, or what became of the answer. A fragment: a tap reruns
    this box only, not the page around it, so the server does the least work per tap when
    a whole class answers within seconds (bench/bench_room.py, "survey"). A fragment rerun
    is outside the page's own handler, so a storage fault is caught here as well. True when
    the student can still answer or has answered: the page then explains how to answer."""
    with ACTIVITY.faults_shown(student=True):
        return _answer_box(store, found, token)
    return False


def _answer_box(store: survey.SurveyStore, found: survey.Survey, token: str) -> bool:
    answered = store.has_answered(found.id, token)
    outcome = model.outcome(found.id).get()
    # A failed tap, and a closed survey, come first: a phone shows them without scrolling.
    if not answered and outcome in (
        survey.SubmitResult.CLOSED.value,
        survey.SubmitResult.UNKNOWN.value,
    ):
        model.outcome(found.id).pop()  # the tap just failed: say so once
        show_outcome(found, survey.SubmitResult(outcome))
        return False
    if not found.is_open and not answered:
        st.warning(
            # a phone does not poll: after a reopen only a reload shows the buttons again
            "This survey is closed: it no longer accepts answers. If your lecturer reopens it, "
            "reload this page to answer."
        )
        return False
    if store.read_only and not answered:
        show_fault(survey.database.READ_ONLY, student=True)
        return False
    # On a phone: the question, the two buttons (or the confirmation) first, above the fold;
    # how to randomize follows below them.
    if answered:
        accepted = outcome == survey.SubmitResult.ACCEPTED.value
        show_outcome(
            found, survey.SubmitResult.ACCEPTED if accepted else survey.SubmitResult.DUPLICATE
        )
    else:
        st.caption(
            "Randomize first with your own coin or die (how: below this). Then tap what it "
            "told you to say."
        )
        yes_column, no_column = st.columns(2)
        for column, label, bit in ((yes_column, "Yes", 1), (no_column, "No", 0)):
            column.button(
                label,
                key=f"survey_report_{label.lower()}",
                type="primary",
                width="stretch",
                on_click=submit_report,
                args=(store, found.id, bit),
            )
        ACTIVITY.tap_feedback()
    return True


def student_view(store: survey.SurveyStore, raw_code: str) -> None:
    st.title("Class survey")
    refused = activity.lookup_refused(store)
    if refused is not None:
        st.warning(activity.limit_message("guess", refused), icon=":material/hourglass_top:")
        return
    found = store.get_by_code(raw_code)
    if found is None:
        activity.record_guess(store)
        st.error(
            "There is no survey with this code. Check the code on the projector and try again."
        )
        join_with_code_form("student")
        return
    show_question(found.question)
    token = activity.session_token(store)  # also in a cookie of this browser, before any tap
    with contextlib.suppress(survey.StorageError):  # counting devices is best effort
        activity.record_join(store, found.id, token)
    if not answer_box(store, found, token):
        return
    st.info(model.phone_promise(found.protocol))
    st.header("How to answer")
    for number, step in enumerate(found.protocol.steps, 1):
        st.markdown(f"{number}. {step}")


# --- Lecturer: create -------------------------------------------------------------------
def chosen_protocol() -> survey.Protocol | None:
    """The protocol picked in the form, or None (with a warning) for a bad custom p, q."""
    key = st.radio(
        "How students randomize",
        list(PROTOCOL_LABELS),
        format_func=PROTOCOL_LABELS.get,
        key="survey_protocol",
    )
    if key != survey.CUSTOM:
        return survey.protocol_for(key)
    # ε shrinks as p nears 1 − q (both likelihood ratios near 1), on either side of it, and
    # the estimate's variance grows as 1/(p + q − 1)²: not "toward ½" (at q = 0.9, p = 0.1)
    p = st.slider(
        "p: keep a true yes  (nearer 1 − q → more private · farther → more accurate)",
        0.01,
        0.99,
        0.75,
        0.01,
        key="survey_custom_p",
    )
    q = st.slider(
        "q: keep a true no  (nearer 1 − p → more private · farther → more accurate)",
        0.01,
        0.99,
        0.75,
        0.01,
        key="survey_custom_q",
    )
    try:
        return survey.custom(p, q)
    except ValueError as error:
        st.warning(f"These p and q cannot be used: {error}. Move p or q so that p + q is not 1.")
        return None


def create_view(store: survey.SurveyStore) -> None:
    controls.lesson_header(
        "Class survey",
        "You ask your class a sensitive yes/no question. Every student randomizes the "
        "answer with their own coins or die and reports only the result from their phone, "
        "so no single answer gives anyone away. The projector shows how many have answered, "
        "the share of reported yes, and the debiased estimate of the true share with its "
        "95% interval, updating every two seconds.",
    )
    if store.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    st.markdown(
        "**Before class:** serve the app on the room's network (`make run HOST=0.0.0.0`) "
        "so phones can reach it. Then write your question, pick a protocol and create the "
        "survey. Students join with a QR code, a link or a six-character code."
    )
    question = st.text_area(
        f"Your yes/no question (at most {survey.MAX_QUESTION_CHARS} characters)",
        max_chars=survey.MAX_QUESTION_CHARS,
        value=EXAMPLE_QUESTION,  # a real value, not a placeholder that only looks filled in
        key="survey_question",
        placeholder="Type a yes/no question",
    )
    protocol = chosen_protocol()
    if protocol is not None:
        columns = st.columns(3)
        columns[0].metric("p: keep a true yes", f"{text.number(protocol.p)}")
        columns[1].metric("q: keep a true no", f"{text.number(protocol.q)}")
        columns[2].metric("Privacy loss ε", text.number(protocol.epsilon))
        st.caption(model.precision_words(protocol))
        with st.expander("What students will be told to do"):
            for number, step in enumerate(protocol.steps, 1):
                st.markdown(f"{number}. {step}")
        with st.expander("The math the projector uses"):
            show_math(protocol.p, protocol.q)
    if st.button(
        "Create survey",
        key="survey_create",
        type="primary",
        disabled=protocol is None or store.read_only,
        icon=":material/add_circle:",
    ):
        try:
            cleaned = survey.clean_question(question)
        except ValueError:
            st.warning("Write a question first (at most 200 characters).")
            return
        refused = activity.create_refused(store, lambda: ACTIVITY.running_lineage(store))
        if refused is not None:
            message = activity.limit_message("create", refused)
            st.warning(message, icon=":material/hourglass_top:")
            return
        # a StorageError costs nothing
        created = store.create_survey(cleaned, protocol, lineage=activity.creation_lineage())
        activity.count_create(store)
        activity.created(ACTIVITY, created.survey.code, created.admin_key)

    st.divider()
    st.header("Are you a student?")
    st.caption("Type the code from the projector.")
    join_with_code_form("create")


# --- Lecturer: the projector -------------------------------------------------------------
@st.fragment(run_every=2)
@ACTIVITY.faults_shown(student=False)
def live_results(store: survey.SurveyStore, survey_id: int, admin_key: str) -> None:
    """Counts, estimate, interval and chart; reruns on its own every 2 seconds. A database
    fault is explained in place (and the next refresh tries again)."""
    current = store.get_by_id(survey_id)
    if current is None:
        st.error("This survey no longer exists.")
        return
    p, q = current.protocol.p, current.protocol.q
    responses = store.responses(survey_id)
    reports = model.reported_bits(responses)
    n = len(reports)
    status = "open: accepting answers" if current.is_open else "closed: not accepting answers"
    # The numbers stacked beside the chart: on a projector both fit one screen with the QR.
    numbers, chart = st.columns([1, 2], gap="small")
    chart.markdown(f"**Survey {current.code} is {status}.**")
    joined = store.joined(survey_id)
    numbers.metric(
        "Answers / devices joined",
        f"{n:,} / {joined:,}",
        help="Devices joined: browsers that opened the student page. More answers than the "
        "room has students means someone answered from a private window or a second device.",
    )
    notes: list[str] = []
    if n == 0:
        numbers.metric("Reported yes", "–")
        numbers.metric("Estimated true yes", "–")
        numbers.metric("95% interval", "–")
        chart.info("Waiting for the first answer. Scan the QR code or open the join link.")
    else:
        estimate, low, high = dp.rr_confidence_interval(int(reports.sum()), n, p, q)
        frame = model.running_frame(reports, p, q)
        reported_share = float(frame["reported_share"].iloc[-1])
        numbers.metric("Reported yes", f"{text.percent(reported_share, 2)}")
        shown_estimate = min(max(estimate, 0.0), 1.0)
        numbers.metric("Estimated true yes", f"{text.percent(shown_estimate, 2)}")
        numbers.metric("95% interval", f"{text.percent(low, 2)}–{text.percent(high, 2)}")
        if shown_estimate != estimate:
            notes.append(
                f"The debiased estimate is {text.percent(estimate, 2)}, outside 0–100%: with "
                f"{n:,} {'answer' if n == 1 else 'answers'} the coins' noise still dominates. "
                f"It is shown as {text.percent(shown_estimate, 2)}; the interval tells how "
                "little is known yet."
            )
        description = model.describe_estimate(n, reported_share, estimate, low, high)
        n_max, chart_data = model.estimate_data(frame)
        with chart:
            charts.estimate(n_max, classroom.presenting()).show(alt=description, **chart_data)
        outside = model.clipped_points(frame)
        edge = (
            f" At {outside:,} of the {len(frame):,} points drawn the raw estimate lay outside "
            "0–100%: the line is drawn at the edge there, and the interval is cut to 0–100%."
            if outside
            else ""
        )
        notes.append(
            description + " The true share is unknown — that is the point: nobody's answer "
            f"was revealed. {model.pull_words(p, q)}" + edge
        )
    for note in notes:
        st.caption(note)
    if n:
        snippets.RUNNING_ESTIMATE.show(p=p, q=q, reports=reports)

    # Each press is a callback, applied before the fragment reruns, so this run shows its
    # result. Closing and reopening set what the button says; a reset names the resets the
    # screen showed (a second tab's late press is refused, not applied to new answers). What
    # a press could not do is said right above the buttons, where the lecturer is looking.
    fault = activity.recent_fault(model.LECTURER_FAULT)
    if fault is not None:
        show_fault(fault, student=False)
    buttons = st.columns(3)
    label, key, icon, move = (
        ("Close survey", "survey_close", ":material/lock:", store.close)
        if current.is_open
        else ("Reopen survey", "survey_reopen", ":material/lock_open:", store.reopen)
    )
    buttons[0].button(
        label,
        key=key,
        icon=icon,
        on_click=activity.lecturer_press,
        args=(model.LECTURER_FAULT, move, survey_id, admin_key),
    )
    buttons[1].download_button(
        "Download CSV",
        data=lambda: model.responses_csv(store.responses(survey_id)),
        file_name=f"survey-{current.code}-randomized-responses.csv",
        mime="text/csv",
        key="survey_download",
        on_click="ignore",
        icon=":material/download:",
    )
    with buttons[2].popover("Reset…", icon=":material/restart_alt:"):
        st.markdown("Delete every answer of this survey? Students may then answer again.")
        st.button(
            "Yes, delete all answers",
            key="survey_reset",
            type="primary",
            args=(model.LECTURER_FAULT, store.reset, survey_id, admin_key),
            kwargs={"since": current.resets},
            on_click=activity.lecturer_press,
        )
    st.caption(
        "The CSV holds only the randomized answers: response number, reported yes (1) or "
        "no (0), and the minute it arrived. No names, no IP addresses, no true answers. "
        "One answer per browser: a reload, a new tab or a dropped connection cannot answer "
        "again; a private window or another device can, so compare the answers with the "
        "devices joined and with the room."
    )


def lecturer_view(store: survey.SurveyStore, raw_code: str) -> None:
    """The projector, for a browser holding the survey's key (activity.lecturer_gate)."""
    gate = activity.lecturer_gate(ACTIVITY, store, store, raw_code)
    if gate is None:
        return
    found, admin_key = gate
    if store.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    # The projector: the question, then join (code, QR, link), the numbers and the chart in
    # one row that fits a 1280×720 projector; the lecturer's controls come below it.
    st.markdown(f"## {text.plain(found.question)}")
    address, results_column = activity.projector_row(ACTIVITY, found.code, model.join_url)
    with results_column:
        live_results(store, found.id, admin_key)
    st.caption(f"Protocol: {found.protocol.summary}.")
    with st.expander("How the estimate is computed"):
        show_math(found.protocol.p, found.protocol.q)
    activity.lecturer_links(ACTIVITY, found.code, admin_key, address)


activity.route(
    ACTIVITY, activity.open_surveys, create=create_view, projector=lecturer_view, phone=student_view
)
