"""Lesson in the classroom: a live quiz on the students' phones, optionally answered
privately. The lecturer builds it from the lessons' own check-yourself questions (or their
own), the projector shows one question at a time with a QR code, the phones answer, and
"Reveal" shows how the class answered. In private mode each phone randomizes its answer with
k-ary randomized response first; the projector debiases the counts.

Three modes, chosen by the URL, as the class survey:
- no parameters: the lecturer builds a quiz;
- ?manage=CODE (&key=ADMIN_KEY from the private link): the projector;
- ?join=CODE: a student's phone.
"""

from __future__ import annotations

import contextlib
import functools
import math

import streamlit as st

import survey
from lessons.catalogue import by_folder
from lessons.class_quiz import charts, model, snippets
from lessons.class_survey import model as survey_model
from ui import browser, classroom, controls, private_choice, tables, text

LETTERS = model.LETTERS
SCROLL_TOP_KEY = "quiz_scroll_top"  # a quiz just created: open its projector at the top
SUBMIT_MESSAGES = {
    survey.SubmitResult.DUPLICATE: "This browser has already answered this question.",
    survey.SubmitResult.CLOSED: "Too late: the lecturer has closed this question.",
    survey.SubmitResult.UNKNOWN: "This question is no longer on show.",
}


def show_fault(reason: str, *, student: bool) -> None:
    message = survey_model.fault_message(reason, student=student, activity="quiz")
    (st.warning if reason == survey.store.BUSY else st.error)(message)


def option_lines(question: survey.QuizQuestion) -> str:
    return "\n".join(
        f"- **{LETTERS[i]}.** {text.plain(option)}" for i, option in enumerate(question.options)
    )


# --- Student -----------------------------------------------------------------------------------
def outcome_key(quiz_id: int, position: int) -> str:
    return f"quiz_outcome_{quiz_id}_{position}"


def private_key(quiz_id: int, position: int) -> str:
    return f"quiz_private_{quiz_id}_{position}"


def send_answer(quiz_id: int, position: int, token: str, choice: int) -> None:
    """Button callback (private mode off): store the option tapped."""
    record(quiz_id, position, token, choice)


def send_private(quiz_id: int, position: int, token: str, k: int) -> None:
    """Component callback (private mode): the phone has randomized already; only what it
    sent reaches the server. A value that is no option (a forged frame) is ignored."""
    sent = private_choice.sent_value(private_key(quiz_id, position), k)
    if sent is not None:
        record(quiz_id, position, token, sent)


def record(quiz_id: int, position: int, token: str, sent: int) -> None:
    """Store what this browser sent (only that; the outcome is kept to tell the student)."""
    try:
        if not model.tap_allowed(store, token):
            st.session_state["quiz_rate_limited"] = True
            return
        outcome = quizzes.submit(quiz_id, position, token, sent)
    except survey.StorageError as error:
        st.session_state["quiz_fault"] = error.reason
        return
    st.session_state[outcome_key(quiz_id, position)] = outcome.value
    if outcome is survey.SubmitResult.ACCEPTED:
        st.session_state[stored_key(quiz_id, position)] = sent


def stored_key(quiz_id: int, position: int) -> str:
    return f"quiz_stored_{quiz_id}_{position}"


def stored_answer(quiz: survey.Quiz, token: str) -> int | None:
    """What this browser sent for the question on show: from this session once known (a
    stored answer never changes), else read from the store (another tab, a reload)."""
    key = stored_key(quiz.id, quiz.position)
    known = st.session_state.get(key)
    if known is None:
        known = quizzes.sent_option(quiz.id, quiz.position, token)
        if known is not None:
            st.session_state[key] = known
    return known


@st.fragment(run_every=model.POLL_S)
def follow(quiz_id: int, token: str) -> None:
    """The question on show and its buttons; it asks every POLL_S seconds which question
    the lecturer shows, so the phone follows without a reload."""
    try:
        _follow(quiz_id, token)
    except survey.StorageError as error:
        show_fault(error.reason, student=True)


def _follow(quiz_id: int, token: str) -> None:
    quiz = quizzes.get_quiz(quiz_id)
    if quiz is None:
        st.error("This quiz no longer exists.")
        return
    if not quiz.started:
        st.info("Waiting for your lecturer to show the first question.", icon=":material/schedule:")
        return
    question = quiz.current
    if question is None:
        st.success(f"The quiz is over. Thank you! {own_result(quiz, token)}")
        return
    st.caption(f"Question {quiz.position + 1} of {len(quiz.questions)}")
    st.markdown(f"### {text.plain(question.prompt)}")
    sent = stored_answer(quiz, token)
    outcome = st.session_state.get(outcome_key(quiz.id, quiz.position))
    left = quiz.seconds_left()
    k = len(question.options)
    if sent is None and quizzes.read_only:
        show_fault(survey.store.READ_ONLY, student=True)  # no buttons that fail when tapped
    elif sent is None and not quiz.revealed and (left is None or left > 0):
        if quiz.private:
            private_choice.ask(
                private_key(quiz.id, quiz.position),
                [f"{LETTERS[i]}.  {option}" for i, option in enumerate(question.options)],
                quiz.epsilon,
                memory=memory_key(quiz),
                on_sent=functools.partial(send_private, quiz.id, quiz.position, token, k),
            )
        else:
            for i, option in enumerate(question.options):
                st.button(
                    f"{LETTERS[i]}.  {text.plain(option)}",
                    key=f"quiz_answer_{quiz.position}_{i}",
                    width="stretch",
                    on_click=send_answer,
                    args=(quiz.id, quiz.position, token, i),
                )
        if left is not None:
            st.caption(f"{left:.0f} s left")
        if st.session_state.pop("quiz_rate_limited", False):
            st.warning("Too many taps in a minute. Wait a moment, then try again.")
        fault = st.session_state.pop("quiz_fault", None)
        if fault is not None:
            show_fault(fault, student=True)
        if outcome in SUBMIT_MESSAGES:
            st.warning(SUBMIT_MESSAGES[survey.SubmitResult(outcome)])
    elif sent is None:
        st.warning("This question is closed: you did not answer it.")
    elif quiz.private:
        st.success(private_receipt(LETTERS[sent], k, quiz.epsilon))
        private_choice.receipt(
            private_key(quiz.id, quiz.position), LETTERS[:k], memory_key(quiz), sent
        )
    else:
        st.success(f"Your answer is in: **{LETTERS[sent]}. {text.plain(question.options[sent])}**")
    if quiz.revealed:
        right = question.correct
        st.info(
            f"The answer: **{LETTERS[right]}. {text.plain(question.options[right])}** — "
            + text.plain(question.explanation)
        )


def memory_key(quiz: survey.Quiz) -> str:
    """Where the phone keeps its student's true choice (its own sessionStorage)."""
    return f"pp-quiz-{quiz.code}-{quiz.position}"


def private_receipt(letter: str, k: int, epsilon: float) -> str:
    """What a private answer means, with this question's numbers: what ε bounds."""
    keep = model.keep_probability(k, epsilon)
    other = (1 - keep) / (k - 1)
    return (
        f"Your answer is in: your phone sent **{letter}**. It keeps a choice with probability "
        f"{text.percent(keep)} and sends each other option with probability "
        f"{text.percent(other)}, so {letter} is at most {text.number(keep / other)} times "
        f"($e^{{\\varepsilon}}$, ε = {text.number(epsilon)}) as likely under one choice as "
        "under another: weak evidence of what you chose. Only the class's counts mean "
        "something."
    )


def own_result(quiz: survey.Quiz, token: str) -> str:
    """What the phone tells its student at the end (read once, then kept in the session)."""
    if quiz.private:
        return (
            "Your phone sent randomized answers, so there is no score: each answer alone "
            "is noise, and only the class's counts mean something."
        )
    key = f"quiz_own_score_{quiz.id}"
    if key not in st.session_state:
        st.session_state[key] = model.own_score(quiz, quizzes.sent_options(quiz.id, token))
    correct, answered = st.session_state[key]
    if answered == 0:
        return "You did not answer any question."
    return f"You got {correct:,} of {len(quiz.questions):,} right ({answered:,} answered)."


def save_nickname(quiz_id: int, token: str) -> None:
    """Form callback: store the nickname typed (empty: none), within the change limit."""
    raw = st.session_state.get("quiz_nickname_input", "")
    st.session_state.pop("quiz_nickname_problem", None)
    try:
        if not model.nickname_allowed(store, token):
            st.session_state["quiz_nickname_problem"] = (
                "Too many changes: wait a few minutes, then try again."
            )
            return
        saved = quizzes.set_nickname(quiz_id, token, raw)
    except (ValueError, TypeError) as error:
        st.session_state["quiz_nickname_problem"] = nickname_problem(str(error))
        return
    except survey.StorageError as error:
        st.session_state["quiz_nickname_problem"] = survey_model.fault_message(
            error.reason, student=True, activity="quiz"
        )
        return
    st.session_state[f"quiz_nickname_{quiz_id}"] = saved or ""
    st.session_state["quiz_nickname_input"] = saved or ""


def nickname_problem(reason: str) -> str:
    """Why a nickname was refused, in a student's words (the store's reason names code
    points, as U+202E, for the logs and tests)."""
    if "printable" in reason:
        return (
            "Not saved: your nickname holds an invisible or control character (one that "
            "can hide or reverse text). Type it again with letters, digits or emoji."
        )
    if "visible" in reason:
        return "Not saved: your nickname shows as blank. Use at least one letter, digit or emoji."
    return f"Not saved: {reason}."


def nickname_box(quiz: survey.Quiz, token: str) -> None:
    """An optional nickname, below the question: only the lecturer's scores table at the
    end ever shows it, and only when the lecturer chooses to. Not in private mode."""
    if quiz.private or quizzes.read_only:
        return
    key = f"quiz_nickname_{quiz.id}"
    if key not in st.session_state:  # read once per session
        st.session_state[key] = quizzes.nickname(quiz.id, token) or ""
        st.session_state["quiz_nickname_input"] = st.session_state[key]
    current = st.session_state[key]
    title = f"Nickname: {text.plain(current)}" if current else "Nickname (optional)"
    with st.expander(title, expanded=not quiz.started and not current):
        with st.form("quiz_nickname", border=False):
            st.text_input(
                f"Nickname (at most {survey.MAX_NICKNAME_CHARS} characters; empty: none)",
                max_chars=survey.MAX_NICKNAME_CHARS,
                key="quiz_nickname_input",
            )
            st.form_submit_button("Save nickname", on_click=save_nickname, args=(quiz.id, token))
        problem = st.session_state.get("quiz_nickname_problem")
        if problem:
            st.warning(text.plain(problem))
        st.caption(
            "You can stay anonymous. A nickname is shown only if your lecturer projects "
            "the scores at the end, beside how many questions you got right."
        )


def student_view(raw_code: str) -> None:
    refused = survey_model.lookup_refused(store)
    if refused is not None:
        st.warning(survey_model.limit_message("guess", refused, activity="quiz"))
        return
    found = quizzes.get_quiz_by_code(raw_code)
    if found is None:
        survey_model.record_guess(store)
        st.error("There is no quiz with this code. Check the code on the projector.")
        return
    st.caption(f"{text.plain(found.title)} · quiz {found.code}")
    token = survey_model.session_token(store)
    follow(found.id, token)
    nickname_box(found, token)
    if found.private:
        st.caption(
            "Private mode: this browser randomizes your answer before sending it (k-ary "
            f"randomized response, ε = {text.number(found.epsilon)}); the server never receives "
            "your choice. No names are asked."
        )
    else:
        st.caption(
            "No names are asked: the lecturer sees how many chose each option, and a "
            "nickname only if you give one and the scores are shown."
        )


# --- Lecturer: build ---------------------------------------------------------------------------
def add_custom() -> None:
    """Form callback: validate the lecturer's own question and keep it."""
    prompt = st.session_state.get("quiz_own_prompt", "")
    options = model.parse_options(st.session_state.get("quiz_own_options", ""))
    correct = st.session_state.get("quiz_own_correct", 1)
    correct = int(correct) - 1 if isinstance(correct, int | float) and math.isfinite(correct) else 0
    explanation = st.session_state.get("quiz_own_explanation", "")
    try:
        question = survey.QuizQuestion(prompt, options, correct, explanation)
    except (ValueError, TypeError) as error:
        st.session_state["quiz_own_error"] = str(error)
        return
    st.session_state.pop("quiz_own_error", None)
    st.session_state.setdefault(model.CUSTOM_KEY, []).append(question)
    for key in ("quiz_own_prompt", "quiz_own_options", "quiz_own_explanation"):
        st.session_state[key] = ""


def remove_custom(index: int) -> None:
    own = st.session_state.get(model.CUSTOM_KEY, [])
    if 0 <= index < len(own):
        own.pop(index)


def picked_questions() -> list[survey.QuizQuestion]:
    titles = dict(model.sources())
    chosen = st.multiselect(
        "Questions from these lessons",
        list(titles),
        format_func=lambda folder: titles.get(folder, "?"),
        key="quiz_lessons",
        placeholder="Pick one or more lessons",
    )
    picked: list[survey.QuizQuestion] = []
    for folder in [f for f in chosen if f in titles]:  # a forged value names no lesson
        with st.expander(titles[folder], expanded=True):
            for i, question in enumerate(model.lesson_questions(folder)):
                if st.checkbox(text.plain(question.prompt), value=True,
                               key=f"quiz_pick_{folder}_{i}"):  # fmt: skip
                    picked.append(question)
    return picked


def own_questions() -> list[survey.QuizQuestion]:
    st.subheader("Your own questions")
    with st.form("quiz_own", border=True):
        st.text_input(f"Question (at most {survey.store.MAX_QUESTION_CHARS} characters)",
                      max_chars=survey.store.MAX_QUESTION_CHARS, key="quiz_own_prompt")  # fmt: skip
        st.text_area(
            f"Options, one per line ({survey.MIN_OPTIONS} to {survey.MAX_OPTIONS}, at most "
            f"{survey.MAX_OPTION_CHARS} characters each)",
            key="quiz_own_options",
            height=130,
        )
        st.number_input("Number of the correct option", 1, survey.MAX_OPTIONS, 1,
                        key="quiz_own_correct")  # fmt: skip
        st.text_input("Explanation shown with the answer (optional)", max_chars=500,
                      key="quiz_own_explanation")  # fmt: skip
        st.form_submit_button("Add question", on_click=add_custom, icon=":material/add:")
    error = st.session_state.get("quiz_own_error")
    if error:
        st.warning(f"Not added: {text.plain(error)}.")
    own = st.session_state.get(model.CUSTOM_KEY, [])
    for i, question in enumerate(own):
        left, right = st.columns([5, 1], vertical_alignment="center")
        left.markdown(f"**{i + 1}.** {text.plain(question.prompt)}")
        right.button("Remove", key=f"quiz_own_remove_{i}", on_click=remove_custom, args=(i,))
    return list(own)


def resume_managed() -> None:
    """Without parameters: a browser that runs a quiz (its key still valid) goes back to
    its projector, after a reload or a visit to another page."""
    managed = model.managed_in_browser()
    if managed is None:
        return
    found = quizzes.get_quiz_by_code(managed[0])
    if found is not None and quizzes.check_admin_key(found.id, managed[1]):
        st.query_params.from_dict({"manage": found.code})
        st.rerun()


def new_quiz() -> None:
    model.forget_managed()
    st.query_params.clear()


def private_mode_caption(questions: list[survey.QuizQuestion], epsilon: float) -> str:
    """What private mode does at this ε, for the numbers of options the chosen questions
    have (a phone keeps its choice with probability e^ε/(e^ε + k − 1))."""
    sizes = sorted({len(q.options) for q in questions}) or [4]
    keeps = [f"{text.percent(model.keep_probability(k, epsilon))} with {k} options" for k in sizes]
    return (
        "Each phone randomizes in the browser: it keeps its student's choice with probability "
        + ", ".join(keeps)
        + ", and otherwise sends one of the other options at random; the projector debiases "
        "the counts."
    )


def create_view() -> None:
    controls.lesson_header(
        "Class quiz",
        "You quiz your class live: build a quiz from the lessons' own questions (or write "
        "yours), project one question at a time with a QR code, and students answer on "
        "their phones. “Reveal” shows how the class answered. In private mode every phone "
        "randomizes its answer before sending it, and the projector shows what was sent "
        "beside the debiased estimate: the class feels a mechanism on its own answers.",
    )
    if quizzes.read_only:
        show_fault(survey.store.READ_ONLY, student=False)
    title = st.text_input("Title", value="Class quiz", max_chars=survey.quiz.MAX_TITLE_CHARS,
                          key="quiz_title")  # fmt: skip
    questions = picked_questions() + own_questions()
    st.subheader("Settings")
    private = st.toggle("Private mode: phones randomize each answer", key="quiz_private")
    epsilon = None
    if private:
        epsilon = float(controls.select_slider(
            "ε of each answer  (← more private · more accurate →)",
            options=model.EPSILONS, value=1.0, key="quiz_eps",
        ))  # fmt: skip
        st.caption(private_mode_caption(questions, epsilon))
    countdown = st.radio(
        "Time per question",
        model.COUNTDOWNS,
        format_func=lambda seconds: "until you reveal" if seconds == 0 else f"{seconds} s",
        horizontal=True,
        key="quiz_countdown",
    )
    if countdown not in model.COUNTDOWNS:  # only a forged value: the default
        countdown = model.COUNTDOWNS[0]
    n = len(questions)
    st.markdown(f"**{n} {'question' if n == 1 else 'questions'}** in this quiz.")
    if n > survey.MAX_QUESTIONS:
        st.warning(f"A quiz holds at most {survey.MAX_QUESTIONS} questions: untick some.")
    if st.button("Create quiz", key="quiz_create", type="primary", icon=":material/quiz:",
                 disabled=not 1 <= n <= survey.MAX_QUESTIONS or quizzes.read_only):  # fmt: skip
        refused = survey_model.create_refused(
            store,
            lambda: survey_model.manages_a_survey(store) or model.manages_open_quiz(quizzes),
        )
        if refused is not None:
            st.warning(survey_model.limit_message("create", refused, activity="quiz"))
            return
        try:
            created = quizzes.create_quiz(title or "Class quiz", questions, epsilon=epsilon,
                                          countdown_s=int(countdown))  # fmt: skip
        except ValueError as error:
            st.warning(f"The quiz cannot be created: {text.plain(error)}.")
            return
        survey_model.count_create(store)
        model.remember_admin_key(created.quiz.code, created.admin_key)
        st.session_state[SCROLL_TOP_KEY] = created.quiz.code  # the projector view: its top
        st.query_params.from_dict({"manage": created.quiz.code})
        st.rerun()


# --- Lecturer: the projector ------------------------------------------------------------------
def admin_key_for(code: str, quiz_id: int) -> str | None:
    """As the survey: a key from the private link is checked, kept in this session and a
    cookie, and taken out of the address bar, so it is never projected."""
    from_url = st.query_params.get("key")
    if from_url is not None:
        del st.query_params["key"]
        if quizzes.check_admin_key(quiz_id, from_url):
            model.remember_admin_key(code, from_url)
    remembered = model.remembered_admin_key(code)
    if remembered is not None and quizzes.check_admin_key(quiz_id, remembered):
        model.remember_admin_key(code, remembered)  # on every run: a finished run sets it
        return remembered
    return None


@st.fragment(run_every=2)
def projector(quiz_id: int, admin_key: str) -> None:
    """The question, the count of answers, the countdown, Reveal and Next; every 2 s."""
    try:
        _projector(quiz_id, admin_key)
    except survey.StorageError as error:
        show_fault(error.reason, student=False)


LECTURER_FAULT_KEY = "quiz_lecturer_fault"  # a Start/Next/Reveal/Back that could not save


def _move(quiz_id: int, admin_key: str, position: int) -> None:
    """Start / Next / Summary / Back (a callback): a storage fault is told in words on the
    projector, never as a traceback."""
    try:
        quizzes.show(quiz_id, admin_key, position)
    except survey.StorageError as error:
        st.session_state[LECTURER_FAULT_KEY] = error.reason


def _reveal(quiz_id: int, admin_key: str) -> None:
    try:
        quizzes.reveal(quiz_id, admin_key)
    except survey.StorageError as error:
        st.session_state[LECTURER_FAULT_KEY] = error.reason


def _projector(quiz_id: int, admin_key: str) -> None:
    fault = st.session_state.pop(LECTURER_FAULT_KEY, None)
    if fault is not None:
        show_fault(fault, student=False)
    quiz = quizzes.get_quiz(quiz_id)
    if quiz is None:
        st.error("This quiz no longer exists.")
        return
    counts = quizzes.counts(quiz.id)
    # One line: where we are, how many answered, the time left, and the buttons (→ next, V
    # reveal); then the question, and once revealed the options beside the chart, so that
    # everything fits a 1280×720 projector.
    status, *buttons = st.columns([5, 2, 2], vertical_alignment="center")
    if not quiz.started:
        n = len(quiz.questions)
        status.markdown(
            f"**{n} {'question' if n == 1 else 'questions'}.** Students join now, then press Start."
        )
        buttons[0].button("Start", key="quiz_start", type="primary", shortcut="Right",
                          on_click=_move, args=(quiz.id, admin_key, 0),
                          disabled=quizzes.read_only)  # fmt: skip
        return
    if quiz.finished:
        status.markdown("**The quiz is over.** Share correct per question:")
        buttons[0].button(
            "Back",
            key="quiz_back",
            on_click=_move,
            args=(quiz.id, admin_key, len(quiz.questions) - 1),
            disabled=quizzes.read_only,
        )
        tables.show(model.summary(quiz, counts), key="quiz-summary")
        scores_table(quiz)
        return
    question = quiz.current
    result = model.results(question, counts[quiz.position], quiz.epsilon)
    left = quiz.seconds_left()
    timing = "" if left is None else (f" · {left:.0f} s left" if left > 0 else " · time is up")
    status.markdown(
        f"Question {quiz.position + 1} of {len(quiz.questions)} · "
        f"**{result.n:,} {'answer' if result.n == 1 else 'answers'}**{timing}"
    )
    if not quiz.revealed:
        buttons[0].button("Reveal", key="quiz_reveal", type="primary", shortcut="V",
                          on_click=_reveal, args=(quiz.id, admin_key),
                          disabled=quizzes.read_only)  # fmt: skip
    last = quiz.position + 1 == len(quiz.questions)
    buttons[1].button("Summary" if last else "Next", key="quiz_next", shortcut="Right",
                      on_click=_move, args=(quiz.id, admin_key, quiz.position + 1),
                      disabled=quizzes.read_only)  # fmt: skip
    st.markdown(f"### {text.plain(question.prompt)}")
    if not quiz.revealed:
        st.markdown(option_lines(question))
        return
    options, chart = st.columns([2, 3], gap="medium")
    options.markdown(option_lines(question))
    right = question.correct
    options.success(
        f"**{LETTERS[right]}. {text.plain(question.options[right])}** — "
        + text.plain(question.explanation)
    )
    with chart:
        charts.answers(len(question.options), quiz.private, classroom.presenting()).show(
            alt=model.describe(result, question), results=result.frame
        )
    if quiz.private and result.n:
        st.caption(
            "Black ticks: what the phones sent. Bars: the debiased estimate of what the "
            "class chose (the nearest shares that are never negative and add up to 100%), "
            f"± {text.percent(min(result.half_width, 1.0))} at most (95%). "
            f"The raw shares sit up to {text.percent(result.pull)} from what the class "
            "would have answered: randomized response pulls every option toward the "
            "same share."
        )
        snippets.PRIVATE_ESTIMATE.show(epsilon=quiz.epsilon, sent=result.frame["sent"].tolist())


def scores_table(quiz: survey.Quiz) -> None:
    """The nicknamed students' scores, hidden until the lecturer shows them (a nickname is
    never projected by default). A private quiz has no nicknames and no scores."""
    if quiz.private:
        st.caption(
            "Private mode: no scores. Each phone sent a randomized answer, so one "
            "student's answers are noise; only the class's counts can be debiased."
        )
        return
    scores = quizzes.scores(quiz.id)
    # per quiz: a lecturer who showed one quiz's scores starts the next with them hidden
    show = st.toggle("Show nicknames and scores", key=f"quiz_show_scores_{quiz.id}",
                     disabled=not scores)  # fmt: skip
    if not scores:
        st.caption("No student gave a nickname, so there are no scores to show.")
    elif show:
        st.dataframe(model.score_table(scores), hide_index=True,
                     width="stretch")  # fmt: skip
    else:
        n = len(scores)
        st.caption(
            f"{n:,} {'student' if n == 1 else 'students'} gave a nickname; the best "
            f"{min(n, model.SCORES_SHOWN)} appear here only when you show them."
        )


def lecturer_view(raw_code: str) -> None:
    code = survey.normalize_join_code(raw_code) or ""
    has_key = "key" in st.query_params or model.remembered_admin_key(code)
    found = quizzes.get_quiz_by_code(raw_code) if has_key else None
    admin_key = admin_key_for(found.code, found.id) if found is not None else None
    if "key" in st.query_params:
        del st.query_params["key"]
    if admin_key is None:
        st.title("Class quiz")
        refused = survey_model.lookup_refused(store)
        if refused is not None:
            st.warning(survey_model.limit_message("guess", refused, activity="quiz"))
            return
        survey_model.record_guess(store)
        st.warning(
            "To run a quiz, open your private lecturer link in this browser. Students join "
            "with the link or the code on the projector."
        )
        return
    if st.session_state.pop(SCROLL_TOP_KEY, None) == found.code:
        browser.scroll_to_top(f"quiz-created-{found.code}")  # "Create quiz" sat at the bottom
    st.markdown(f"#### {text.plain(found.title)}")
    if quizzes.read_only:
        show_fault(survey.store.READ_ONLY, student=False)
    default_base, note = survey_model.base_url_guess(st.context.url,
                                                     st.get_option("server.address"))  # fmt: skip
    base = st.session_state.get("quiz_base_url", default_base)
    link = model.join_url(base, found.code)
    join_column, main_column = st.columns([1, 3], gap="medium")
    with join_column:
        st.metric("Join code", found.code)
        st.image(survey_model.qr_png(link), caption="Scan to join",
                 width=survey_model.QR_WIDTH, output_format="PNG")  # fmt: skip
        # broken only after a "/" or before "?" (st.code broke it mid-port: "…:861 / 1/")
        st.markdown(
            f'<p class="pp-join-link">{text.breakable_url(link)}</p>', unsafe_allow_html=True
        )
    with main_column:
        projector(found.id, admin_key)
    mode = (
        f"Private mode: k-ary randomized response, ε = {text.number(found.epsilon)} per answer."
        if found.private
        else "Answers as given (private mode is off)."
    )
    st.caption(f"{mode} Keys: → next, V reveal.")
    with st.expander("Address of this app for students", expanded=bool(note)):
        st.text_input("Address of this app for students", value=default_base,
                      key="quiz_base_url", label_visibility="collapsed")  # fmt: skip
        if note:
            st.caption(note)
    with st.expander("Private lecturer link — do not project"):
        st.markdown("Anyone with this link can run this quiz. Keep it to yourself.")
        st.code(model.lecturer_url(base, found.code, admin_key), language=None, wrap_lines=True)
    st.button("New quiz", key="quiz_new", on_click=new_quiz, icon=":material/add_circle:",
              help="This browser comes back to this quiz until you start a new one; your "
              "private link still opens it.")  # fmt: skip


params = st.query_params
model.keep_browser_in_step()
try:
    quizzes = model.quiz_store(survey_model.database_url())
    store = quizzes.store
    if "join" in params:
        student_view(params["join"])
    elif "manage" in params:
        lecturer_view(params["manage"])
    else:
        resume_managed()
        create_view()
except survey.StorageError as error:
    with contextlib.suppress(Exception):
        st.title("Class quiz")
    show_fault(error.reason, student="join" in params)
except OSError:
    show_fault(survey.store.UNREACHABLE, student="join" in params)

survey_page = by_folder("class_survey")
if "join" not in params:
    controls.page_link(survey_page.path, label="The class survey (one yes/no question)",
                       icon=survey_page.icon)  # fmt: skip
