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

import functools
import math

import streamlit as st

import survey
from lessons.catalogue import by_folder
from lessons.class_quiz import charts, model, snippets
from ui import activity, classroom, controls, private_choice, tables, text

ACTIVITY = model.ACTIVITY
LETTERS = model.LETTERS
SUBMIT_MESSAGES = {
    survey.SubmitResult.DUPLICATE: "This browser has already answered this question.",
    survey.SubmitResult.CLOSED: "Too late: the lecturer has closed this question.",
    survey.SubmitResult.UNKNOWN: "This question is no longer on show.",
}


def show_fault(reason: str, *, student: bool) -> None:
    """The class database failed: say what happened (and, to the lecturer, what to do)."""
    activity.show_fault(reason, student=student, activity=ACTIVITY.name)


def option_lines(question: survey.QuizQuestion) -> str:
    return "\n".join(
        f"- **{LETTERS[i]}.** {text.plain(option)}" for i, option in enumerate(question.options)
    )


# --- Student -----------------------------------------------------------------------------------
def private_key(quiz_id: int, position: int) -> str:
    return f"quiz_private_{quiz_id}_{position}"


def send_answer(
    quizzes: survey.QuizStore, quiz_id: int, position: int, token: str, choice: int
) -> None:
    """Button callback (private mode off): store the option tapped."""
    record(quizzes, quiz_id, position, token, choice)


def send_private(
    quizzes: survey.QuizStore, quiz_id: int, position: int, token: str, k: int
) -> None:
    """Component callback (private mode): the phone has randomized already; only what it
    sent reaches the server. A value that is no option (a forged frame) is ignored."""
    sent = private_choice.sent_value(private_key(quiz_id, position), k)
    if sent is not None:
        record(quizzes, quiz_id, position, token, sent)


def record(quizzes: survey.QuizStore, quiz_id: int, position: int, token: str, sent: int) -> None:
    """Store what this browser sent (only that; the outcome is kept to tell the student)."""
    outcome = ACTIVITY.tap(
        quizzes.store,
        token,
        model.TAP_LIMIT,
        model.TAPS_PER_MINUTE,
        lambda: quizzes.submit(quiz_id, position, token, sent),
    )
    if outcome is None:  # not stored: the private component offers the same report again
        failed = model.failed_taps(quiz_id, position)
        failed.set(failed.get(0) + 1)
        return
    model.outcome(quiz_id, position).set(outcome.value)
    if outcome is survey.SubmitResult.ACCEPTED:
        model.stored(quiz_id, position).set(sent)


@st.fragment(run_every=model.POLL_S)
@ACTIVITY.faults_shown(student=True)
def follow(quizzes: survey.QuizStore, quiz_id: int, token: str) -> None:
    """The question on show and its buttons; it asks every POLL_S seconds which question
    the lecturer shows, so the phone follows without a reload."""
    quiz = quizzes.get_quiz(quiz_id)
    if quiz is None:
        st.error("This quiz no longer exists.")
        return
    if not quiz.started:
        st.info("Waiting for your lecturer to show the first question.", icon=":material/schedule:")
        return
    question = quiz.current
    if question is None:
        st.success(f"The quiz is over. Thank you! {own_result(quizzes, quiz, token)}")
        return
    st.caption(f"Question {quiz.position + 1} of {len(quiz.questions)}")
    st.header(text.plain(question.prompt), anchor=False)  # no link icon beside it on a phone
    sent = model.stored(quiz.id, quiz.position).read_through(
        lambda: quizzes.sent_option(quiz.id, quiz.position, token)
    )
    outcome = model.outcome(quiz.id, quiz.position).get()
    left = quiz.seconds_left()
    k = len(question.options)
    if sent is None and quizzes.read_only:
        show_fault(survey.database.READ_ONLY, student=True)  # no buttons that fail when tapped
    elif sent is None and not quiz.revealed and (left is None or left > 0):
        if quiz.private:
            private_choice.ask(
                private_key(quiz.id, quiz.position),
                [f"{LETTERS[i]}.  {option}" for i, option in enumerate(question.options)],
                quiz.epsilon,
                memory=memory_key(quiz),
                on_sent=functools.partial(send_private, quizzes, quiz.id, quiz.position, token, k),
                letters=LETTERS[:k],
                attempt=model.failed_taps(quiz.id, quiz.position).get(0),
            )
        else:
            for i, option in enumerate(question.options):
                st.button(
                    f"{LETTERS[i]}.  {text.plain(option)}",
                    key=f"quiz_answer_{quiz.position}_{i}",
                    width="stretch",
                    on_click=send_answer,
                    args=(quizzes, quiz.id, quiz.position, token, i),
                )
        if left is not None:
            st.caption(f"{left:.0f} s left")
        ACTIVITY.tap_feedback(outcome, SUBMIT_MESSAGES)
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


def own_result(quizzes: survey.QuizStore, quiz: survey.Quiz, token: str) -> str:
    """What the phone tells its student at the end (read once, then kept in the session)."""
    if quiz.private:
        return (
            "Your phone sent randomized answers, so there is no score: each answer alone "
            "is noise, and only the class's counts mean something."
        )
    kept = model.kept_score(quiz.id)
    if not kept.is_set():
        kept.set(model.own_score(quiz, quizzes.sent_options(quiz.id, token)))
    correct, answered = kept.get()
    if answered == 0:
        return "You did not answer any question."
    return f"You got {correct:,} of {len(quiz.questions):,} right ({answered:,} answered)."


def nickname_box(quizzes: survey.QuizStore, quiz: survey.Quiz, token: str) -> None:
    """An optional nickname, below the question (ui/activity.py). Not in private mode."""
    if quiz.private or quizzes.read_only:
        return
    activity.nickname_box(
        ACTIVITY,
        quizzes,
        quiz.id,
        token,
        expanded=not quiz.started,
        scored="how many questions you got right",
    )


def student_view(quizzes: survey.QuizStore, raw_code: str) -> None:
    phone = activity.joined(ACTIVITY, quizzes, raw_code)
    if phone is None:
        return
    found, token = phone
    follow(quizzes, found.id, token)
    nickname_box(quizzes, found, token)
    if found.private:
        st.caption(
            "Private mode: this browser randomizes your answer before sending it (k-ary "
            f"randomized response, ε = {text.number(found.epsilon)}); the server never receives "
            "your choice. "
            + answers_spend(len(found.questions), found.epsilon, "your")
            + " No names are asked."
        )
    else:
        st.caption(
            "No names are asked: the lecturer sees how many chose each option, and a "
            "nickname only if you give one and the scores are shown."
        )


# --- Lecturer: build ---------------------------------------------------------------------------
def add_custom() -> None:
    """Form callback: validate the lecturer's own question and keep it."""
    prompt = model.OWN_PROMPT.get("")
    options = model.parse_options(model.OWN_OPTIONS.get(""))
    correct = model.OWN_CORRECT.get(1)
    correct = int(correct) - 1 if isinstance(correct, int | float) and math.isfinite(correct) else 0
    explanation = model.OWN_EXPLANATION.get("")
    try:
        question = survey.QuizQuestion(prompt, options, correct, explanation)
    except (ValueError, TypeError) as error:
        model.OWN_ERROR.set(str(error))
        return
    model.OWN_ERROR.pop()
    model.CUSTOM.setdefault([]).append(question)
    for value in (model.OWN_PROMPT, model.OWN_OPTIONS, model.OWN_EXPLANATION):
        value.set("")


def remove_custom(index: int) -> None:
    own = model.CUSTOM.get([])
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
            # the course's own prose, shown as the lesson shows it (a label escaped for
            # Markdown would be read out with its backslashes)
            for i, question in enumerate(model.lesson_questions(folder)):
                if st.checkbox(question.prompt, value=True, key=f"quiz_pick_{folder}_{i}"):
                    picked.append(question)
    return picked


def own_questions() -> list[survey.QuizQuestion]:
    st.header("Your own questions")
    with st.form("quiz_own", border=True):
        st.text_input(
            f"Question (at most {survey.MAX_QUESTION_CHARS} characters)",
            max_chars=survey.MAX_QUESTION_CHARS,
            key=model.OWN_PROMPT.key,
        )
        st.text_area(
            f"Options, one per line ({survey.MIN_OPTIONS} to {survey.MAX_OPTIONS}, at most "
            f"{survey.MAX_OPTION_CHARS} characters each)",
            key=model.OWN_OPTIONS.key,
            height=130,
        )
        st.number_input(
            "Number of the correct option", 1, survey.MAX_OPTIONS, 1, key=model.OWN_CORRECT.key
        )
        st.text_input(
            "Explanation shown with the answer (optional)",
            max_chars=500,
            key=model.OWN_EXPLANATION.key,
        )
        st.form_submit_button("Add question", on_click=add_custom, icon=":material/add:")
    error = model.OWN_ERROR.get()
    if error:
        st.warning(f"Not added: {text.plain(error)}.")
    own = model.CUSTOM.get([])
    for i, question in enumerate(own):
        left, right = st.columns([5, 1], vertical_alignment="center")
        left.markdown(f"**{i + 1}.** {text.plain(question.prompt)}")
        right.button("Remove", key=f"quiz_own_remove_{i}", on_click=remove_custom, args=(i,))
    return list(own)


def private_mode_caption(questions: list[survey.QuizQuestion], epsilon: float) -> str:
    """What private mode does at this ε, for the numbers of options the chosen questions
    have (a phone keeps its choice with probability e^ε/(e^ε + k − 1))."""
    sizes = sorted({len(q.options) for q in questions}) or [4]
    keeps = [f"{text.percent(model.keep_probability(k, epsilon))} with {k} options" for k in sizes]
    return (
        "Each phone randomizes in the browser: it keeps its student's choice with probability "
        + ", ".join(keeps)
        + ", and otherwise sends one of the other options at random; the projector debiases "
        f"the counts. {model.precision_words(epsilon, max(sizes))} "
        + answers_spend(len(questions), epsilon)
    )


def answers_spend(questions: int, epsilon: float, whose: str = "a student's") -> str:
    """What a student's answers to the whole quiz spend together (sequential composition),
    to the lecturer ("a student's") or to the student ("your")."""
    if questions < 1:
        return ""
    if questions == 1:
        return f"The quiz's one answer spends ε = {text.number(epsilon)}."
    return (
        f"Each answer spends ε = {text.number(epsilon)}, so {whose} {questions} answers "
        f"spend {questions}ε = {text.number(questions * epsilon)} together (composition)."
    )


def create_view(quizzes: survey.QuizStore) -> None:
    controls.lesson_header(
        "Class quiz",
        "You quiz your class live: build a quiz from the lessons' own questions (or write "
        "yours), project one question at a time with a QR code, and students answer on "
        "their phones. “Reveal” shows how the class answered. In private mode every phone "
        "randomizes its answer before sending it, and the projector shows what was sent "
        "beside the debiased estimate: the class feels a mechanism on its own answers.",
    )
    if quizzes.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    title = st.text_input(
        "Title", value="Class quiz", max_chars=survey.quiz.MAX_TITLE_CHARS, key="quiz_title"
    )
    questions = picked_questions() + own_questions()
    st.header("Settings")
    private = st.toggle("Private mode: phones randomize each answer", key="quiz_private")
    epsilon = None
    if private:
        epsilon = controls.number_slider(
            "ε of each answer  (← more private · more accurate →)",
            model.EPSILONS,
            model.DEFAULT_EPSILON,
            key="quiz_eps",
        )
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
    if st.button(
        "Create quiz",
        key="quiz_create",
        type="primary",
        icon=":material/quiz:",
        disabled=not 1 <= n <= survey.MAX_QUESTIONS or quizzes.read_only,
    ):
        store = quizzes.store
        refused = activity.create_refused(store, lambda: ACTIVITY.running_lineage(quizzes))
        if refused is not None:
            st.warning(activity.limit_message("create", refused, activity=ACTIVITY.name))
            return
        try:
            created = quizzes.create_quiz(
                title or "Class quiz",
                questions,
                epsilon=epsilon,
                countdown_s=int(countdown),
                lineage=activity.creation_lineage(),
            )
        except ValueError as error:
            st.warning(f"The quiz cannot be created: {text.plain(error)}.")
            return
        activity.count_create(store)
        activity.created(ACTIVITY, created.quiz.code, created.admin_key)


# --- Lecturer: the projector ------------------------------------------------------------------
def _move(quizzes: survey.QuizStore, quiz_id: int, admin_key: str, position: int, since) -> None:
    """Start / Next / Summary / Back (a callback), from the (position, revealed) this screen
    showed: a storage fault, or a press another tab made stale, is told in words."""
    activity.lecturer_press(
        model.LECTURER_FAULT, quizzes.show, quiz_id, admin_key, position, since=since
    )


def _reveal(quizzes: survey.QuizStore, quiz_id: int, admin_key: str, since: int) -> None:
    activity.lecturer_press(model.LECTURER_FAULT, quizzes.reveal, quiz_id, admin_key, since=since)


def _button(where, label: str, on_click, args: tuple, *, key: str = "", **kwargs) -> None:
    """A Start, Back, Reveal or Next button on the projector (`args[0]` the quiz store: off
    while nothing can be saved); its key is "quiz_" and its label unless given."""
    key = key or f"quiz_{label.lower()}"
    disabled = args[0].read_only
    where.button(label, key=key, on_click=on_click, args=args, disabled=disabled, **kwargs)


@st.fragment(run_every=2)
@ACTIVITY.faults_shown(student=False)
def projector(quizzes: survey.QuizStore, quiz_id: int, admin_key: str) -> None:
    """The question, the count of answers, the countdown, Reveal and Next; every 2 s."""
    fault = activity.recent_fault(model.LECTURER_FAULT)
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
        start = (quizzes, quiz.id, admin_key, 0, (quiz.position, quiz.revealed))
        _button(buttons[0], "Start", _move, start, type="primary", shortcut="Right")
        return
    if quiz.finished:
        status.markdown("**The quiz is over.** Share correct per question:")
        back = (
            quizzes,
            quiz.id,
            admin_key,
            len(quiz.questions) - 1,
            (quiz.position, quiz.revealed),
        )
        _button(buttons[0], "Back", _move, back)
        tables.show(model.summary(quiz, counts), key="quiz-summary")
        scores_table(quizzes, quiz)
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
        _button(
            buttons[0],
            "Reveal",
            _reveal,
            (quizzes, quiz.id, admin_key, quiz.position),
            type="primary",
            shortcut="V",
        )
    last = quiz.position + 1 == len(quiz.questions)
    label = "Summary" if last else "Next"
    forward = (quizzes, quiz.id, admin_key, quiz.position + 1, (quiz.position, quiz.revealed))
    _button(buttons[1], label, _move, forward, key="quiz_next", shortcut="Right")
    st.markdown(f"## {text.plain(question.prompt)}")
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
            f"±\u00a0{text.percent(min(result.half_width, 1.0))} at most (95%). "
            + model.pull_words(result.pull)
        )
        snippets.PRIVATE_ESTIMATE.show(epsilon=quiz.epsilon, sent=result.frame["sent"].tolist())


def scores_table(quizzes: survey.QuizStore, quiz: survey.Quiz) -> None:
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
    show = st.toggle(
        "Show nicknames and scores", key=f"quiz_show_scores_{quiz.id}", disabled=not scores
    )
    if not scores:
        st.caption("No student gave a nickname, so there are no scores to show.")
    elif show:
        tables.show(model.score_table(scores), key="quiz-scores")
    else:
        n = len(scores)
        st.caption(
            f"{n:,} {'student' if n == 1 else 'students'} gave a nickname; the best "
            f"{min(n, model.SCORES_SHOWN)} appear here only when you show them."
        )


def lecturer_view(quizzes: survey.QuizStore, raw_code: str) -> None:
    """The projector, for a browser holding the quiz's key (activity.lecturer_gate)."""
    gate = activity.lecturer_gate(ACTIVITY, quizzes, quizzes.store, raw_code)
    if gate is None:
        return
    found, admin_key = gate
    st.markdown(f"#### {text.plain(found.title)}")
    if quizzes.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    address, main_column = activity.projector_row(ACTIVITY, found.code, model.join_url)
    with main_column:
        projector(quizzes, found.id, admin_key)
    mode = (
        f"Private mode: k-ary randomized response, ε = {text.number(found.epsilon)} per answer."
        if found.private
        else "Answers as given (private mode is off)."
    )
    st.caption(f"{mode} Keys: → next, V reveal.")
    activity.lecturer_links(ACTIVITY, found.code, admin_key, address)


activity.route(
    ACTIVITY,
    activity.opener("quiz"),
    create=create_view,
    projector=lecturer_view,
    phone=student_view,
)

survey_page = by_folder("class_survey")
if "join" not in st.query_params:
    controls.page_link(
        survey_page.path,
        label="The class survey (one yes/no question)",
        icon=survey_page.icon,
    )
