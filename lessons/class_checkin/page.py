"""Progress check-in: how far has the class got? Each phone reports which of the chosen
lessons its student has worked through (from the record kept on that device, ui/progress.py),
randomized in the browser with unary encoding; the projector debiases the counts.

- no parameter: the lecturer chooses the lessons and ε, and creates the check-in;
- ?manage=CODE (&key=ADMIN_KEY from the private link): the projector;
- ?join=CODE: a phone.
"""

import functools

import streamlit as st

import survey
from lessons.class_checkin import charts, model
from ui import activity, classroom, controls, private_progress, text

ACTIVITY = model.ACTIVITY
SAID = {
    survey.SubmitResult.CLOSED: "Too late: the lecturer has closed this check-in.",
    survey.SubmitResult.DUPLICATE: "This browser has already sent its report.",
    survey.SubmitResult.UNKNOWN: "This check-in no longer exists.",
}


def show_fault(reason: str, *, student: bool) -> None:
    activity.show_fault(reason, student=student, activity=ACTIVITY.name)


# --- Lecturer: create --------------------------------------------------------------------------
def create_view(checkins: survey.CheckinStore) -> None:
    controls.lesson_header(
        ACTIVITY.title,
        "How far has your class got, without anyone's progress leaving their device? Each "
        "phone reads the record its browser keeps of the course (“Your progress”), "
        "randomizes which of your chosen lessons it has worked through, and sends only that. "
        "The projector debiases the class's counts, with their uncertainty.",
    )
    if checkins.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    choices = model.choices()
    titles = {lesson.folder: lesson.title for lesson in choices}
    chosen = st.multiselect(
        "Lessons to ask about",
        [lesson.folder for lesson in choices],
        default=[lesson.folder for lesson in choices[: model.DEFAULT_LESSONS]],
        format_func=titles.get,
        max_selections=survey.checkin.MAX_LESSONS,
        key="checkin_lessons",
    )
    epsilon = st.segmented_control(
        "ε each student spends  (← more private · more accurate →)",
        model.EPSILONS,
        default=model.DEFAULT_EPSILON,
        format_func=text.number,
        key="checkin_eps",
    )
    # none chosen (a second tap on the chosen one), or a forged value: the default
    epsilon = float(epsilon) if epsilon in model.EPSILONS else model.DEFAULT_EPSILON
    order = [lesson.folder for lesson in choices if lesson.folder in set(chosen)]
    if order:
        st.caption(model.plan_caption(epsilon, len(order)))
    else:
        st.caption("Choose at least one lesson.")
    if st.button(
        "Create check-in",
        key="checkin_create",
        type="primary",
        icon=":material/checklist:",
        disabled=checkins.read_only or not order,
    ):
        refused = activity.create_refused(
            checkins.store, lambda: ACTIVITY.running_lineage(checkins)
        )
        if refused is not None:
            st.warning(activity.limit_message("create", refused, activity=ACTIVITY.name))
            return
        try:
            made = checkins.create(order, epsilon, lineage=activity.creation_lineage())
        except (TypeError, ValueError) as error:
            st.warning(f"The check-in cannot be created: {text.plain(error)}.")
            return
        activity.count_create(checkins.store)
        activity.created(ACTIVITY, made.checkin.code, made.admin_key)


# --- Lecturer: the projector -------------------------------------------------------------------
def projector_view(checkins: survey.CheckinStore, raw_code: str) -> None:
    gate = activity.lecturer_gate(ACTIVITY, checkins, checkins.store, raw_code)
    if gate is None:
        return
    checkin, admin_key = gate
    if checkins.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    address, main = activity.projector_row(ACTIVITY, checkin.code, model.join_url)
    with main:
        results(checkins, checkin.id, admin_key)
    st.caption(model.reveal_caption(checkin.epsilon, len(checkin.lessons)))
    activity.lecturer_links(ACTIVITY, checkin.code, admin_key, address)


@st.fragment(run_every=model.POLL_S)
@ACTIVITY.faults_shown(student=False)
def results(checkins: survey.CheckinStore, checkin_id: int, admin_key: str) -> None:
    """The reports so far, debiased, read again every POLL_S seconds; the Close button. A
    press reruns only this fragment, so its fault is told here (it was told above it, where
    a browser never showed it: only a whole page's run reached it)."""
    fault = activity.recent_fault(model.LECTURER_FAULT)
    if fault is not None:
        show_fault(fault, student=False)
    checkin = checkins.get(checkin_id)
    if checkin is None:
        st.error("This check-in no longer exists.")
        return
    reports = checkins.reports(checkin.id, len(checkin.lessons))
    frame = model.estimates(reports, checkin.lessons, checkin.epsilon)
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="large")
    with row:
        state = "open: phones can still send" if checkin.is_open else "closed"
        st.metric("Reports", f"{reports.n:,}", help=f"The check-in is {state}.", width="content")
        st.metric("ε each student spent", text.number(checkin.epsilon), width="content")
        if checkin.is_open:
            st.button(
                "Close the check-in",
                key="checkin_close",
                on_click=activity.lecturer_press,
                args=(model.LECTURER_FAULT, checkins.close, checkin.id, admin_key),
                disabled=checkins.read_only,
            )
        else:
            st.caption("Closed: no more reports are taken. These are the final estimates.")
    n = max(reports.n, 1)
    shown = frame.assign(
        sent_share=frame["sent"] / n,
        estimate_share=frame["estimate"].clip(0, n) / n,
        low_share=frame["low"] / n,
        high_share=frame["high"] / n,
    )
    charts.estimates(tuple(frame["lesson"]), classroom.presenting()).show(
        alt=model.describe(frame, reports.n),
        results=shown if reports.n else shown.iloc[0:0],
    )
    st.caption(
        "Blue bar: the debiased estimate of the share who have worked through the lesson, "
        "black: its 95% interval, vermillion tick: the share of phones that sent a 1."
        if reports.n
        else "No reports yet: the estimates appear as phones send theirs."
    )


# --- Student: the phone ------------------------------------------------------------------------
def memory_key(checkin: survey.Checkin) -> str:
    """Where the phone keeps its one report for this check-in (its own storage)."""
    return f"pp-checkin-{checkin.code}"


def send(checkins: survey.CheckinStore, checkin_id: int, token: str, k: int) -> None:
    """Component callback: the phone has randomized already; only what it sent reaches the
    server. Bits that are not k zeros and ones (a forged frame) are ignored."""
    sent = private_progress.sent_value(key(checkin_id), k)
    if sent is None:
        return
    outcome = ACTIVITY.tap(
        checkins.store,
        token,
        model.TAP_LIMIT,
        model.TAPS_PER_MINUTE,
        lambda: checkins.submit(checkin_id, token, sent),
    )
    if outcome is None:  # not stored: the component offers the same report again
        failed = model.failed_taps(checkin_id)
        failed.set(failed.get(0) + 1)
        return
    model.outcome(checkin_id).set(outcome.value)
    if outcome is survey.SubmitResult.ACCEPTED:
        model.stored(checkin_id).set(sent)


def key(checkin_id: int) -> str:
    return f"checkin_private_{checkin_id}"


def phone_view(checkins: survey.CheckinStore, raw_code: str) -> None:
    entry = activity.joined(ACTIVITY, checkins, raw_code)
    if entry is None:
        return
    checkin, token = entry
    st.markdown("## How far have you got?")
    report(checkins, checkin, token)


@st.fragment
@ACTIVITY.faults_shown(student=True)
def report(checkins: survey.CheckinStore, checkin: survey.Checkin, token: str) -> None:
    """The phone's report: its lessons and Send, then the receipt. A fragment: a tap reruns
    only this (the phone has nothing else to redraw), and it does not poll (nothing on it
    changes unless its student taps)."""
    lessons = model.lessons_of(checkin.lessons)  # its lessons and ε never change
    k = len(lessons)
    sent = model.stored(checkin.id).read_through(lambda: checkins.sent(checkin.id, token))
    outcome = model.outcome(checkin.id).get()
    if sent is not None:  # after a tap: no read of the check-in (the room's CPU per tap)
        st.success("Your report is in. " + model.reveal_caption(checkin.epsilon, k))
        private_progress.receipt(key(checkin.id), lessons, memory_key(checkin), sent)
        return
    checkin = checkins.get(checkin.id) or checkin  # open or closed now, not at the page's run
    if not checkin.is_open:
        st.warning(SAID[survey.SubmitResult.CLOSED])
        return
    if checkins.read_only:
        show_fault(survey.database.READ_ONLY, student=True)
        return
    bits = model.bit_probabilities(checkin.epsilon, k)
    st.markdown(
        "Your phone sends which of these lessons you have worked through **on this device**, "
        "each randomized before it leaves: a lesson you worked through is sent as 1 with "
        f"probability {text.percent(bits.p)}, one you did not with probability "
        f"{text.percent(bits.q)}. Worked on another device? Open this check-in there, or "
        "import your progress file on this one (Your progress) first."
    )
    private_progress.ask(
        key(checkin.id),
        lessons,
        bits.p,
        bits.q,
        memory_key(checkin),
        functools.partial(send, checkins, checkin.id, token, k),
        attempt=model.failed_taps(checkin.id).get(0),
    )
    ACTIVITY.tap_feedback(outcome, SAID)


activity.route(
    ACTIVITY,
    activity.opener("checkin"),
    create=create_view,
    projector=projector_view,
    phone=phone_view,
)
