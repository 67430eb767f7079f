"""The class heist: the room's made-up answers are the data of a statistics "agency" on the
projector, which answers only counts and sums about groups of at least a minimum size. The
lecturer, as the attacker, isolates one student with two allowed queries (a differencing
attack); then asks them again through the Laplace mechanism, with the budget ledger live.

Three modes, chosen by the URL, as the class survey and quiz:
- no parameters: the lecturer sets up a heist;
- ?manage=CODE (&key=ADMIN_KEY from the private link): the projector;
- ?join=CODE: a student's phone.
"""

from __future__ import annotations

import streamlit as st

import survey
from lessons.catalogue import by_folder
from lessons.class_heist import charts, model, snippets
from survey import heist as store
from ui import activity, classroom, controls, downloads, tables, text

ACTIVITY = model.ACTIVITY
EPSILON_KEY, BUDGET_KEY = "heist_eps", "heist_budget"  # the projector's two privacy widgets
SUBMIT_MESSAGES = {
    survey.SubmitResult.DUPLICATE: "This browser has already sent its answer.",
    survey.SubmitResult.CLOSED: "Too late: the lecturer has closed the answers.",
    survey.SubmitResult.UNKNOWN: "This heist no longer exists.",
}
WHY_MADE_UP = (
    "**Make everything up.** No real personal data is asked for: this heist shows how a "
    "secret leaks from statistics that look safe, so whatever you type here can leak, to "
    "the whole room. No name is asked; pick any number."
)


def show_fault(reason: str, *, student: bool) -> None:
    activity.show_fault(reason, student=student, activity=ACTIVITY.name)


# --- Student -----------------------------------------------------------------------------------
def send(heists: survey.HeistStore, heist: survey.Heist, token: str) -> None:
    """Form callback: store this browser's made-up answer (once)."""

    def submit() -> survey.SubmitResult:
        try:
            return heists.submit(
                heist.id,
                token,
                st.session_state["heist_secret"],
                st.session_state["heist_a"],
                st.session_state["heist_b"],
                volunteer=bool(st.session_state.get("heist_volunteer", False)),
            )
        except (TypeError, ValueError):  # a forged widget value: nothing stored
            return survey.SubmitResult.UNKNOWN

    result = ACTIVITY.tap(heists.store, token, model.TAP_LIMIT, model.TAPS_PER_MINUTE, submit)
    if result is not None:
        model.outcome(heist.id).set(result.value)


def answer_form(heists: survey.HeistStore, heist: survey.Heist, token: str) -> None:
    st.markdown(WHY_MADE_UP)
    with st.form("heist_answer", border=False):
        st.selectbox(
            "Your secret: a made-up number from 1 to 10",
            model.SECRETS,
            index=None,
            key="heist_secret",
            placeholder="Pick a number",
        )
        controls.with_plain_label(
            st.selectbox,
            heist.a_name,
            range(1, heist.a_max + 1),
            index=None,
            key="heist_a",
            placeholder="Pick one",
        )
        controls.with_plain_label(
            st.selectbox,
            heist.b_name,
            range(1, heist.b_max + 1),
            index=None,
            key="heist_b",
            placeholder="Pick one",
        )
        st.checkbox("I volunteer to be the target", key="heist_volunteer")
        st.form_submit_button(
            "Send my made-up answer",
            type="primary",
            width="stretch",
            on_click=send,
            args=(heists, heist, token),
        )
    last = model.outcome(heist.id).pop()
    if last == survey.SubmitResult.UNKNOWN.value and heists.get_heist(heist.id) is not None:
        ACTIVITY.tap_feedback()
        st.warning("Pick a secret and both values, then send.")
    else:
        ACTIVITY.tap_feedback(last, SUBMIT_MESSAGES)


@st.fragment(run_every=model.POLL_S)
@ACTIVITY.faults_shown(student=True)
def follow(heists: survey.HeistStore, heist_id: int, token: str) -> None:
    """The phone: its answer, then whether it is the target and what the attacker knows;
    it asks every POLL_S seconds, so it follows the projector without a reload."""
    heist = heists.get_heist(heist_id)
    if heist is None:
        st.error("This heist no longer exists.")
        return
    mine = model.sent(heist.id).read_through(lambda: heists.own_answer(heist.id, token))
    if mine is None:
        if heist.closed:
            st.warning("The answers are closed: you did not send one.")
        elif heists.read_only:
            show_fault(survey.database.READ_ONLY, student=True)
        else:
            answer_form(heists, heist, token)
        return
    st.success(
        f"Your made-up answer is in: secret **{mine.secret}**, "
        f"{model.value_name(heist, mine.a, mine.b)}."
    )
    if not heist.has_target:
        st.info("Waiting for the lecturer to pick a target.", icon=":material/schedule:")
        return
    if heists.digest(heist.id, token) != heist.target_hash:
        target = model.target_values(heist.id).read_through(
            lambda: (lambda t: None if t is None else (t.a, t.b))(heists.target_answer(heist))
        )
        if target == (mine.a, mine.b):
            st.warning(
                "The target is picked, and it is not you, but it shares your two values: "
                "the pair's answers are your group's total, and your secret is in it. Watch "
                "the projector."
            )
        else:
            st.info("The target is picked, and it is not you. Watch the projector.")
        return
    st.error(
        f"**You are the target.** The attacker knows your "
        f"{model.value_name(heist, mine.a, mine.b)}, and nothing else."
    )
    group = heists.group_size(heist.id, mine.a, mine.b)
    found = model.attack(heists.ledger(heist.id), mine, group)
    if group > 1:
        st.caption(
            f"{group - 1:,} other {'student shares' if group == 2 else 'students share'} your "
            "two values: the attack reads your group's total, not your secret alone."
        )
    if found.exact is not None:
        if group == 1:
            verdict = "**They found you.**" if found.exact == mine.secret else "They missed."
            st.warning(
                f"{verdict} The agency's two exact answers differ by {found.exact:,}; your "
                f"secret is {mine.secret}."
            )
        else:
            st.warning(
                f"The agency's two exact answers differ by {found.exact:,}: your group's "
                f"total. Your secret is {mine.secret}; one more query about the group's "
                "size, and a classmate's word, would finish the job."
            )
    claim = model.claim(found, "your secret" if group == 1 else "your group's total", "95%")
    if claim is not None:
        stated = found.stated()
        inside = stated[0] <= mine.secret <= stated[1] if group == 1 and stated else None
        where = "" if inside is None else f" ({'inside' if inside else 'outside'})"
        st.info(
            f"With noise, after {model.pairs_text(found.pairs)}, {claim}. Your secret is "
            f"{mine.secret}{where}. Only your phone shows it."
        )


def student_view(heists: survey.HeistStore, raw_code: str) -> None:
    phone = activity.joined(ACTIVITY, heists, raw_code)
    if phone is None:
        return
    found, token = phone
    follow(heists, found.id, token)
    st.caption(
        "No names are asked. The agency keeps your made-up answer; the projector shows only "
        "counts and sums over groups, and the target's two values."
    )


# --- Lecturer: set up ------------------------------------------------------------------------
def create_view(heists: survey.HeistStore) -> None:
    controls.lesson_header(
        "Class heist",
        "Your room becomes a statistics agency's data. Every phone sends a made-up secret "
        "and two harmless attributes; the projector answers only counts and sums about "
        "groups of at least a few people, like a statistics office. You, the attacker, "
        "find one student's secret with two allowed queries (a differencing attack); then "
        "the same queries through the Laplace mechanism, with the privacy budget's ledger "
        "live, turn the difference into noise.",
    )
    if heists.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    title = st.text_input(
        "Title", value="Class heist", max_chars=store.MAX_TITLE_CHARS, key="heist_title"
    )
    left, right = st.columns(2)
    a_name = left.text_input(
        "Attribute A (harmless)",
        value="Seat row",
        max_chars=store.MAX_ATTRIBUTE_CHARS,
        key="heist_a_name",
    )
    a_max = left.number_input(
        "Values of A: 1 to", store.MIN_VALUES, store.MAX_VALUES, 20, key="heist_a_max"
    )
    b_name = right.text_input(
        "Attribute B (harmless)",
        value="Birthday month (made up)",
        max_chars=store.MAX_ATTRIBUTE_CHARS,
        key="heist_b_name",
    )
    b_max = right.number_input(
        "Values of B: 1 to", store.MIN_VALUES, store.MAX_VALUES, 12, key="heist_b_max"
    )
    min_group = st.number_input(
        "The agency answers only about groups of at least (people)",
        *store.MIN_GROUP_RANGE,
        5,
        key="heist_min_group",
        help="A statistics office's rule for exact answers: no table cell about fewer "
        "people. Larger refuses more queries; the differencing attack passes it in any room "
        "with more answers than this. Noisy answers do not use it: a refusal decided on an "
        "exact group size would itself leak.",
    )
    if st.button(
        "Create heist",
        key="heist_create",
        type="primary",
        icon=":material/policy:",
        disabled=heists.read_only,
    ):
        limits = heists.store
        refused = activity.create_refused(limits, lambda: ACTIVITY.running_lineage(heists))
        if refused is not None:
            st.warning(activity.limit_message("create", refused, activity=ACTIVITY.name))
            return
        try:
            made = heists.create_heist(
                title or "Class heist",
                a_name,
                int(a_max),
                b_name,
                int(b_max),
                min_group=int(min_group),
                lineage=activity.creation_lineage(),
            )
        except (TypeError, ValueError) as error:
            st.warning(f"The heist cannot be created: {text.plain(error)}.")
            return
        activity.count_create(limits)
        activity.created(ACTIVITY, made.heist.code, made.admin_key)


# --- Lecturer: the projector ------------------------------------------------------------------
def _do(move, *args, **kwargs) -> None:
    """A projector button (a callback): a fault or a refusal is told in words."""
    try:
        move(*args, **kwargs)
    except survey.StorageError as error:
        activity.keep_fault(model.LECTURER_FAULT, error.reason)
    except survey.StaleState:
        activity.keep_fault(model.LECTURER_FAULT, activity.STALE_PRESS)
    except (ValueError, TypeError) as error:  # the store's checks (a forged value too)
        model.PROBLEM.set(str(error))
    else:
        model.LECTURER_FAULT.pop()


def said() -> None:
    """What the lecturer's last button could not do: a database fault, or the agency's
    refusal (shown once)."""
    fault = activity.recent_fault(model.LECTURER_FAULT)
    if fault is not None:
        show_fault(fault, student=False)
    problem = model.PROBLEM.pop()
    if problem:
        st.warning(f"Not done: {text.plain(problem)}.")


def _ask(heists, heist_id, admin_key, kind, who, a, b, private, repeats=1, *, since) -> None:
    """Ask the agency at the ε a query the button showed (`since`: another tab's change of
    ε makes the press stale, not dearer); a refusal (a small group, a spent budget) is said
    on the projector."""
    query = heists.ask(
        heist_id, admin_key, kind, who, a, b, private=private, repeats=repeats, since=since
    )
    if query.refused is not None:
        model.PROBLEM.set(f"the agency refused: {query.refused}")


@st.fragment(run_every=model.POLL_S)
@ACTIVITY.faults_shown(student=False)
def collecting(heists: survey.HeistStore, heist: survey.Heist, admin_key: str) -> None:
    """While the room answers: the count, every POLL_S seconds, and the button. Once a
    target is picked (here, or from another tab), the whole page moves to the attack."""
    said()  # a fault or a refusal of this fragment's button, at its own rerun
    now = heists.get_heist(heist.id)
    if now is not None and now.has_target:
        st.rerun(scope="app")
    n, volunteers = heists.count_answers(heist.id)
    st.metric("Made-up answers", f"{n:,}", help="One per browser.")
    st.markdown(
        f"{volunteers:,} {'volunteers' if volunteers != 1 else 'volunteer'} to be the "
        "target. When everyone has answered, close the answers: the target is drawn at "
        "random among the volunteers (among everyone if nobody volunteers)."
    )
    needs = model.exact_needs(n, heist.min_group)
    if needs is not None and n:
        st.caption(needs)
    st.button(
        "Close answers and pick the target",
        key="heist_pick",
        type="primary",
        on_click=_do,
        args=(heists.pick_target, heist.id, admin_key),
        disabled=n == 0 or heists.read_only,
        icon=":material/person_search:",
    )


def without_dp(heists, heist: survey.Heist, admin_key: str, target, found, answers: int) -> None:
    st.markdown(model.exact_words(answers, found.group, heist.min_group))
    button, result = st.columns(2, vertical_alignment="center")
    button.button(
        "Ask both, exactly",
        key="heist_exact",
        type="primary",
        on_click=_do,
        args=(_ask, heists, heist.id, admin_key, "sum", "pair", target.a, target.b, False),
        kwargs={"since": heist.epsilon},
        disabled=heists.read_only,
    )
    if found.exact is not None:
        result.metric(
            "Their difference",
            f"{found.exact:,}",
            help=(
                "The target's secret. No group of one was asked about, and the rule was "
                "kept: the difference of two large groups is the person. Only the target's "
                "phone can confirm it."
            )
            if found.group == 1
            else "The total of the people who share the target's two values.",
        )


def noisy_buttons(heists, heist: survey.Heist, admin_key: str, target) -> None:
    st.markdown("**2. With noise.** The same pair, noise of scale 10/ε on each answer:")
    buttons = st.columns(len(model.REPEATS))
    for column, repeats in zip(buttons, model.REPEATS, strict=True):
        pair = (heists, heist.id, admin_key, "sum", "pair", target.a, target.b, True, repeats)
        column.button(
            "Ask once" if repeats == 1 else f"× {repeats:,}",
            key=f"heist_noisy_{repeats}",
            on_click=_do,
            args=(_ask, *pair),
            kwargs={"since": heist.epsilon},
            disabled=heists.read_only,
            help=f"Ask the pair {'once' if repeats == 1 else f'{repeats:,} times'}: costs "
            f"ε = {text.number(2 * heist.epsilon * repeats)} (two queries of "
            f"ε = {text.number(heist.epsilon)} each time).",
        )


def privacy_controls(heists, heist: survey.Heist, admin_key: str, where) -> survey.Heist:
    """ε a query and the budget, in `where`; a move is stored, and the heist as it now is
    returned (drawn before the buttons whose cost it sets).

    The two widgets show what the store holds. A move is a widget holding another value
    than it showed in this tab's last run, and is stored from exactly the (ε, budget) that
    run showed (`since`, PRIVACY_SEEN): a second tab that still shows a budget of 5, which
    another tab lowered to 2, changes nothing when its ε is moved, and says so. Then the
    widgets are set to what the store holds, so another tab's change shows here and an ε
    tapped off (none chosen) comes back. (A select slider fed a forged frame of the wrong
    type raised a TypeError inside Streamlit; a segmented control does not.)"""
    seen = model.PRIVACY_SEEN.get()
    seen = seen[1] if seen is not None and seen[0] == heist.id else None  # this heist's
    held = (st.session_state.get(EPSILON_KEY), st.session_state.get(BUDGET_KEY))
    picked = model.privacy_choice(*held)
    if seen is not None and picked is not None and held != model.privacy_widgets(*seen):
        _do(heists.set_privacy, heist.id, admin_key, *picked, since=seen)
        heist = heists.get_heist(heist.id) or heist
    model.PRIVACY_SEEN.set((heist.id, (heist.epsilon, heist.budget)))
    shown = model.privacy_widgets(heist.epsilon, heist.budget)
    for key, value in zip((EPSILON_KEY, BUDGET_KEY), shown, strict=True):
        if key in st.session_state and st.session_state[key] != value:
            st.session_state[key] = value
    eps_col, budget_col = where.columns([3, 2], vertical_alignment="bottom")
    eps_col.segmented_control(  # the store holds it (not the link)
        "ε a query  (← more private)",
        model.EPSILONS,
        default=shown[0],
        key=EPSILON_KEY,
        format_func=model.epsilon_label,
        help="One student added or removed moves a sum of secrets by at most 10 (its "
        "sensitivity), so each answer gets discrete Laplace noise of scale 10/ε. The "
        "budget adds up the ε of every query (basic composition).",
    )
    budget_col.selectbox(
        "Budget  (← more private)",
        range(len(model.BUDGETS)),
        index=shown[1],
        format_func=model.budget_choice,
        key=BUDGET_KEY,
    )
    return heist


def closing_in(heist: survey.Heist, target, found, ledger) -> None:
    """The budget's ledger, and the attacker's estimate closing in on the secret."""
    budget = heist.budget
    left = "no limit" if budget is None else text.number(max(budget - found.spent, 0.0))
    spent = f"ε spent {text.number(found.spent)}" + (
        "" if budget is None else f" of {text.number(budget)}"
    )
    if found.estimate is None:
        alt_text, title = f"{spent}. No noisy pair asked yet.", f"{spent} · no noisy pair yet"
    else:
        estimate, half = text.number(found.estimate, 3), text.number(found.half_width, 3)
        alt_text = (
            f"{spent}. After {model.pairs_text(found.pairs, 'noisy pair')} the estimate is "
            f"{estimate}\u00a0±\u00a0{half} (95%)."
        )
        title = f"{spent} · after {model.pairs_text(found.pairs)}: {estimate}\u00a0±\u00a0{half}"
    charts.closing_in(classroom.presenting(), found.group).show(
        alt=f"{alt_text} Grey band: {charts.range_words(found.group)}.",
        title=charts.title(title, found.group),
        running=model.running(ledger, target, found.group),
    )
    claim = model.claim(found, "the secret" if found.group == 1 else "the group's total")
    if claim is not None:
        st.caption(
            f"{claim[0].upper()}{claim[1:]}. More pairs narrow the interval as 1/√pairs; the "
            f"budget ({left} left) is what stops them."
        )


def own_query(heists, heist: survey.Heist, admin_key: str) -> None:
    with st.expander("Ask the agency a query of your own"):
        kind = st.radio(
            "What",
            store.KINDS,
            horizontal=True,
            key="heist_q_kind",
            format_func=lambda k: {"count": "number of people", "sum": "sum of secrets"}[k],
        )
        who = st.radio(
            "About",
            ("all", "only", "except"),
            horizontal=True,
            key="heist_q_who",
            format_func=lambda w: {
                "all": "everyone",
                "only": "a group",
                "except": "everyone but a group",
            }[w],
        )
        any_value = "any"
        a_col, b_col = st.columns(2)
        a = controls.with_plain_label(
            a_col.selectbox,
            heist.a_name,
            (any_value, *range(1, heist.a_max + 1)),
            where=a_col,
            key="heist_q_a",
        )
        b = controls.with_plain_label(
            b_col.selectbox,
            heist.b_name,
            (any_value, *range(1, heist.b_max + 1)),
            where=b_col,
            key="heist_q_b",
        )
        private = st.toggle("Through the Laplace mechanism (spends ε)", key="heist_q_private")
        a = None if a == any_value else a
        b = None if b == any_value else b
        st.button(
            "Ask",
            key="heist_q_ask",
            on_click=_do,
            args=(_ask, heists, heist.id, admin_key, kind, who, a, b, private),
            kwargs={"since": heist.epsilon},
            disabled=heists.read_only or (who != "all" and a is None and b is None),
        )


def attack_view(heists: survey.HeistStore, heist: survey.Heist, admin_key: str) -> None:
    target = heists.target_answer(heist)
    ledger = heists.ledger(heist.id)
    group = heists.group_size(heist.id, target.a, target.b)
    found = model.attack(ledger, target, group)
    n, _ = heists.count_answers(heist.id)
    st.markdown(f"#### The target: {model.value_name(heist, target.a, target.b)}")
    st.caption(
        f"{text.plain(heist.title)}: {n:,} made-up answers, closed. Exact answers: only "
        f"about groups of at least {heist.min_group:,}. Noisy answers: any group, never a "
        "refusal for its size (checking an exact size would leak it), only for the ε budget. "
        "The attacker knows the target's two values, nothing else."
    )
    moves, chart = st.columns([2, 3], gap="large")
    heist = privacy_controls(heists, heist, admin_key, chart)  # before the buttons' costs
    with moves:
        without_dp(heists, heist, admin_key, target, found, n)
        noisy_buttons(heists, heist, admin_key, target)
        said()  # a refusal or a fault, beside the buttons that asked
        own_query(heists, heist, admin_key)
    with chart:
        closing_in(heist, target, found, ledger)
        if group > 1:
            st.caption(
                f"{group:,} people share the target's two values: the pair's difference is "
                "their total, not one secret."
            )
    with st.expander(f"The ledger: {len(ledger):,} queries"):
        frame = model.ledger_frame(heist, ledger)
        tables.show(frame.tail(model.LEDGER_ROWS), key="heist-ledger")
        downloads.download_csv(
            frame,
            filename="heist_ledger.csv",
            label="Download the ledger (CSV)",
            key="heist_ledger_csv",
        )
        snippets.ATTACK.show(epsilon=heist.epsilon, pairs=max(found.pairs, 1))


def lecturer_view(heists: survey.HeistStore, raw_code: str) -> None:
    gate = activity.lecturer_gate(ACTIVITY, heists, heists.store, raw_code)
    if gate is None:
        return
    found, admin_key = gate
    if not found.has_target:
        st.markdown(f"#### {text.plain(found.title)}")
    if heists.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    if not found.has_target:
        address, main_column = activity.projector_row(ACTIVITY, found.code, model.join_url)
        with main_column:
            collecting(heists, found, admin_key)
    else:
        address = activity.student_address(ACTIVITY)
        attack_view(heists, found, admin_key)
    activity.lecturer_links(ACTIVITY, found.code, admin_key, address)


activity.route(
    ACTIVITY,
    activity.opener("heist"),
    create=create_view,
    projector=lecturer_view,
    phone=student_view,
)

if "join" not in st.query_params:
    game = by_folder("class_game")
    controls.page_link(game.path, label="The ε guessing game", icon=game.icon)
