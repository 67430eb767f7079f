"""AppTest for lessons/class_quiz/page.py: a lecturer builds a quiz from the lessons' own
questions and their own, runs it (start, reveal, next, summary) while students answer on
separate sessions; reloads on both sides; private mode's debiasing; every bad input."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import dp
import survey
from apptest_helpers import (
    classroom_page,
    code_texts,
    component_data,
    frames_of,
    hosted_lesson,
    rows_table,
    send_component_event,
)
from apptest_helpers import (
    page_words as words,
)
from lessons.catalogue import LESSONS
from lessons.class_quiz import model, snippets
from ui import notebook, text

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_quiz/page.py")


def page(**params: str) -> AppTest:
    return classroom_page(PAGE, **params).run()


def create(lessons=("laplace",), *, private: bool = False, epsilon: float = 1.0) -> AppTest:
    at = page()
    at.multiselect(key="quiz_lessons").set_value(list(lessons)).run()
    if private:
        at.toggle(key="quiz_private").set_value(True).run()
        at.select_slider(key="quiz_eps").set_value(epsilon).run()
    at.button(key="quiz_create").click().run()
    assert not at.exception, at.exception
    return at


def answer_buttons(at: AppTest) -> list:
    return [b for b in at.button if b.key.startswith("quiz_answer_")]


@pytest.mark.slow
def score_tables(app: AppTest) -> list:
    """The projector's table of nicknames and scores, if it is shown."""
    return [t.value for t in app.table if list(t.value.columns) == ["rank", "nickname", "correct"]]


def test_the_lessons_questions_are_read_from_their_pages_not_copied() -> None:
    """What the quiz offers for a lesson is what its page asks in "Check yourself"."""
    for lesson in LESSONS:
        at = AppTest.from_file(str(lesson.path), default_timeout=60).run()
        record = at.session_state[notebook.RECORD_KEY]
        asked = (
            []
            if record is None
            else [
                q
                for key, qs in record.questions.items()
                if not key.endswith("_predict")
                for q in qs
            ]
        )
        offered = model.lesson_questions(lesson.folder)
        literal = [(q.prompt, q.options, q.correct, q.explanation) for q in offered]
        shown = [(q.prompt, tuple(q.options), q.correct, q.explanation) for q in asked]
        assert all(item in shown for item in literal), lesson.folder
        # only a question built from the page's state is left out (the reconstruction one)
        assert len(shown) - len(literal) == (1 if lesson.folder == "reconstruction" else 0)


def test_a_lecturer_builds_a_quiz_from_lessons_and_their_own_question(store) -> None:
    at = page()
    at.multiselect(key="quiz_lessons").set_value(["laplace", "dpsgd"]).run()
    assert len(at.checkbox) == 6
    # each is named by the lesson's own prompt, as written (a screen reader hears the label)
    prompts = [q.prompt for f in ("laplace", "dpsgd") for q in model.lesson_questions(f)]
    assert [box.label for box in at.checkbox] == prompts
    at.checkbox(key="quiz_pick_dpsgd_1").uncheck().run()
    at.text_input(key="quiz_own_prompt").input("Which is the **privacy** unit?")
    at.text_area(key="quiz_own_options").input("A person\n\nA row\n[a link](http://e.io)")
    at.number_input(key="quiz_own_correct").set_value(1)
    at.text_input(key="quiz_own_explanation").input("Neighbours differ in one person.")
    at.button(key="FormSubmitter:quiz_own-Add question").click().run()
    assert not at.exception
    assert "**6 questions** in this quiz." in [m.value for m in at.markdown]
    at.button(key="quiz_create").click().run()
    code = at.query_params["manage"]
    quiz = survey.QuizStore(store).get_quiz_by_code(code)
    assert [q.prompt for q in quiz.questions][-1] == "Which is the **privacy** unit?"
    assert quiz.questions[-1].options == ("A person", "A row", "[a link](http://e.io)")
    assert quiz.questions[0] == model.lesson_questions("laplace")[0]
    assert "key" not in at.query_params  # the admin key never sits in the address bar


@pytest.mark.parametrize(
    ("prompt", "options", "message"),
    [
        ("", "a\nb", "prompt must not be empty"),
        ("Q?", "only one", "needs 2 to 6, got 1"),
        ("Q?", "\n".join(f"option {i}" for i in range(50)), "needs 2 to 6, got 50"),
        ("Q?", "a\n" + "x" * 10_000, "option 2 must be at most 150 characters, got 10,000"),
        ("Q?", "same\nsame", "different"),
    ],
)
def test_a_bad_own_question_is_refused_and_says_why(store, prompt, options, message) -> None:
    at = page()
    at.text_input(key="quiz_own_prompt").input(prompt)
    at.text_area(key="quiz_own_options").input(options)
    at.button(key="FormSubmitter:quiz_own-Add question").click().run()
    assert not at.exception
    assert message in at.warning[0].value.replace("\\", "")
    assert "**0 questions** in this quiz." in [m.value for m in at.markdown]
    assert at.button(key="quiz_create").disabled


def test_the_whole_quiz_with_three_phones_and_reloads(store, jar) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    phones = [page(join=code) for _ in range(3)]
    assert "Waiting for your lecturer" in words(phones[0])
    lecturer.button(key="quiz_start").click().run()
    question = model.lesson_questions("laplace")[0]
    for phone, choice in zip(phones, (1, 1, 0), strict=True):
        phone.run()  # (the fragment's poll, here a rerun)
        labels = [b.label for b in phone.button if b.key.startswith("quiz_answer_")]
        assert labels == [
            f"{model.LETTERS[i]}.  {text.plain(o)}" for i, o in enumerate(question.options)
        ]
        phone.button(key=f"quiz_answer_0_{choice}").click().run()
        assert "Your answer is in" in words(phone) and not answer_buttons(phone)
    # a phone reloads mid-question: a new session, same browser (its token cookie)
    token = phones[0].session_state["survey_session_token"]
    jar["survey_me"] = token
    again = page(join=code)
    assert "Your answer is in" in words(again) and not answer_buttons(again)
    lecturer.run()
    assert "**3 answers**" in " ".join(m.value for m in lecturer.markdown)
    lecturer.button(key="quiz_reveal").click().run()
    results = frames_of(lecturer.get("vega_lite_chart")[0])["results"]
    assert results["sent"].tolist() == [1, 2, 0, 0][: len(question.options)]
    assert results["correct"].tolist() == [
        i == question.correct for i in range(len(question.options))
    ]
    assert question.explanation in words(lecturer)
    phones[1].run()
    assert f"The answer: **{model.LETTERS[question.correct]}." in words(phones[1])
    # the lecturer reloads: the cookie brings the projector back, at the same question
    jar["quiz_manage"] = f"{code}.{lecturer.session_state[model.ADMIN_KEYS_KEY][code]}"
    reloaded = page()
    assert reloaded.query_params["manage"] == code
    reloaded = page(manage=code)
    assert f"## {text.plain(question.prompt)}" in [m.value for m in reloaded.markdown]
    for _ in range(3):
        reloaded.button(key="quiz_next").click().run()
    summary = rows_table(reloaded, "quiz-summary")
    assert summary.columns.tolist() == ["question", "answers", "correct", "share correct", "prompt"]
    assert summary["answers"].tolist() == ["3", "0", "0"]
    assert summary["prompt"].tolist() == [q.prompt for q in model.lesson_questions("laplace")]
    share = 1 / 3 if question.correct == 0 else 2 / 3 if question.correct == 1 else 0.0
    assert summary["share correct"].iloc[0] == text.percent(share)
    phones[2].run()
    assert "The quiz is over" in words(phones[2])


def test_a_tap_on_a_question_the_lecturer_moved_past_is_not_counted(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    lecturer.button(key="quiz_start").click().run()
    phone = page(join=code)
    lecturer.button(key="quiz_next").click().run()  # the phone still shows question 1
    phone.button(key="quiz_answer_0_0").click().run()
    assert not phone.exception
    quizzes = survey.QuizStore(store)
    assert quizzes.counts(quizzes.get_quiz_by_code(code).id)[0] == [0, 0, 0, 0]
    assert "Question 2 of 3" in words(phone)  # it follows the lecturer


def test_without_the_key_the_projector_shows_nothing(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    stranger = page(manage=code)
    assert "open your private lecturer link" in words(stranger)
    assert (
        not stranger.button(key="quiz_start")
        if False
        else "quiz_start" not in [b.key for b in stranger.button]
    )
    wrong = page(manage=code, key="x" * 32)
    assert "open your private lecturer link" in words(wrong) and "key" not in wrong.query_params
    unknown = page(join="ZZZZZZ")
    assert "There is no quiz with this code" in words(unknown)


def test_private_mode_shows_what_was_sent_and_the_debiased_estimate(store) -> None:
    """200 phones in private mode (ε = 1): the projector's bars are dp's estimate from the
    stored (randomized) counts, and a phone sees what it sent."""
    lecturer = create(private=True, epsilon=1.0)
    code = lecturer.query_params["manage"]
    lecturer.button(key="quiz_start").click().run()
    phone = page(join=code)
    quizzes = survey.QuizStore(store)
    quiz = quizzes.get_quiz_by_code(code)
    k = len(quiz.questions[0].options)
    # the options are the component's buttons (no server-side button knows a choice); it is
    # given the keep-probability to randomize with, and sends back only the option it drew
    assert not answer_buttons(phone)
    # what the whole quiz spends, on the phone: each answer ε, m answers m·ε (composition)
    m = len(quiz.questions)
    assert m >= 2
    assert f"so your {m} answers spend {m}ε = {text.number(m * 1.0)} together" in words(phone)
    key = f"quiz_private_{quiz.id}_0"
    asked = component_data(phone, key)
    assert asked["keep"] == pytest.approx(math.e / (math.e + k - 1))
    assert asked["options"][0].startswith("A.  ") and asked["sent"] is None
    send_component_event(phone, key, "sent", 1)
    assert "your phone sent **B**" in words(phone)
    assert component_data(phone, key)["sent"] == 1  # the receipt, from the phone's memory
    assert quizzes.sent_option(quiz.id, 0, phone.session_state["survey_session_token"]) == 1
    rng = np.random.default_rng(3)
    truth = rng.choice(k, size=199, p=[0.1, 0.7, 0.1, 0.1][:k])
    for sent in dp.grr_perturb(truth, k, 1.0, rng=rng):  # 199 simulated phones
        quizzes.submit(quiz.id, 0, survey.new_session_token(), int(sent))
    lecturer.button(key="quiz_reveal").click().run()
    results = frames_of(lecturer.get("vega_lite_chart")[0])["results"]
    sent_counts = np.array(quizzes.counts(quiz.id)[0])
    np.testing.assert_array_equal(results["sent"], sent_counts)
    expected = dp.project_counts(dp.grr_estimate_from_counts(sent_counts, 1.0), 200) / 200
    np.testing.assert_allclose(results["estimate"], expected)
    assert results["estimate"].sum() == pytest.approx(1.0) and (results["estimate"] >= 0).all()
    se = math.sqrt(dp.grr_variance(200, 1.0, k, 0.7)) / 200
    assert abs(results["estimate"].iloc[1] - np.mean(np.r_[truth, 1] == 1)) < 6 * se
    assert "Black ticks: what the phones sent" in words(lecturer)
    assert code_texts(lecturer, "grr_estimate_from_counts")


def test_the_quiz_page_is_in_the_app_and_a_phone_sees_no_menu(store) -> None:
    at = hosted_lesson("class_quiz/page.py", timeout_s=60)
    assert not at.exception, at.exception


def test_the_time_per_question_counts_down_on_both_screens(store, monkeypatch) -> None:
    now = [2_000_000.0]
    monkeypatch.setattr(survey.quiz, "quiz_clock", lambda: now[0])
    at = page()
    at.multiselect(key="quiz_lessons").set_value(["laplace"]).run()
    at.radio(key="quiz_countdown").set_value(30).run()
    at.button(key="quiz_create").click().run()
    code = at.query_params["manage"]
    at.button(key="quiz_start").click().run()
    assert "30 s left" in words(at)
    now[0] += 12
    phone = page(join=code)
    assert "18 s left" in words(phone) and phone.button
    now[0] += 20
    at.run()
    phone.run()
    assert "time is up" in words(at)
    assert "This question is closed: you did not answer it." in words(phone) and not answer_buttons(
        phone
    )


def test_nicknames_are_optional_and_projected_only_when_the_lecturer_shows_them(store, jar) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    phones = [page(join=code) for _ in range(3)]
    # before the first question the nickname box is open; a bad one is refused with its reason
    box = phones[0].expander[0]
    assert box.label == "Nickname (optional)" and box.proto.expanded
    phones[0].text_input(key="quiz_nickname_input").input("evil\u202eliam")
    phones[0].button[0].click().run()  # the form's "Save nickname"
    shown = words(phones[0])
    assert "Not saved: your nickname holds an invisible or control character" in shown
    assert "U+202E" not in shown  # the reason in a student's words, not a code point
    phones[0].text_input(key="quiz_nickname_input").input("\u3164")
    phones[0].button[0].click().run()
    assert "Not saved: your nickname shows as blank." in words(phones[0])
    markup = "**Ada** [x](y)"
    for phone, name in ((phones[0], markup), (phones[1], "Bob")):
        phone.text_input(key="quiz_nickname_input").input(name)
        phone.button[0].click().run()
        assert phone.expander[0].label == f"Nickname: {text.plain(name)}"
    lecturer.button(key="quiz_start").click().run()
    questions = model.lesson_questions("laplace")[:3]
    picks = [(q.correct, q.correct, (q.correct + 1) % len(q.options)) for q in questions]
    for position, choices in enumerate(picks):
        for phone, choice in zip(phones, choices, strict=True):
            phone.run()
            assert not phone.expander[0].proto.expanded  # below the question, closed
            phone.button(key=f"quiz_answer_{position}_{choice}").click().run()
        lecturer.button(key="quiz_next").click().run()
    for phone in phones:
        phone.run()
    assert "You got 3 of 3 right (3 answered)." in words(phones[0])
    assert "You got 0 of 3 right (3 answered)." in words(phones[2])
    # the summary: scores hidden until shown, and never a nickname in the lecturer's words
    (show,) = [t for t in lecturer.toggle if t.label == "Show nicknames and scores"]
    assert not score_tables(lecturer) and not show.value
    shown = words(lecturer)
    assert "2 students gave a nickname" in shown and "Ada" not in shown and "Bob" not in shown
    show.set_value(True).run()
    (scores,) = score_tables(lecturer)
    assert scores.to_dict("list") == {
        "rank": ["1", "1"],
        # equal scores share a rank, then by name; plain cells (the markup shown as typed)
        "nickname": [text.plain(markup), "Bob"],
        "correct": ["3 of 3", "3 of 3"],
    }


def test_a_private_quiz_asks_no_nickname_and_keeps_no_score(store) -> None:
    lecturer = create(private=True)
    code = lecturer.query_params["manage"]
    phone = page(join=code)
    assert not phone.expander and not phone.text_input
    lecturer.button(key="quiz_start").click().run()
    for _ in range(3):
        lecturer.button(key="quiz_next").click().run()
    phone.run()
    assert "there is no score" in words(phone)
    assert "Private mode: no scores" in words(lecturer)
    assert rows_table(lecturer, "quiz-summary").columns.tolist() == [
        "question",
        "answers",
        "correct",
        "share correct",
        "95% interval",
        "prompt",
    ]
    assert not [t for t in lecturer.toggle if t.label == "Show nicknames and scores"]


def test_the_score_table_ranks_ties_together() -> None:
    scores = [
        survey.Score(n, c, a)
        for n, c, a in [("a", 3, 3), ("b", 2, 2), ("c", 2, 2), ("d", 2, 3), ("e", 0, 1)]
    ]
    table = model.score_table(scores + [survey.Score(f"z{i}", 0, 3) for i in range(20)])
    assert table["rank"].tolist()[:5] == [1, 2, 2, 4, 5] and len(table) == model.SCORES_SHOWN
    assert table["correct"].tolist()[:2] == ["3 of 3", "2 of 2"]
    assert model.score_table([]).columns.tolist() == ["rank", "nickname", "correct"]


def test_nickname_changes_are_limited_in_the_store(store) -> None:
    lecturer = create()
    phone = page(join=lecturer.query_params["manage"])
    for i in range(model.NICKNAMES_PER_10_MINUTES):
        phone.text_input(key="quiz_nickname_input").input(f"name {i}")
        phone.button[0].click().run()
        assert phone.expander[0].label == f"Nickname: name {i}"
    phone.text_input(key="quiz_nickname_input").input("one too many")
    phone.button[0].click().run()
    assert "Too many changes" in words(phone)
    quizzes = survey.QuizStore(store)
    quiz = quizzes.get_quiz_by_code(lecturer.query_params["manage"])
    assert [s.nickname for s in quizzes.scores(quiz.id)] == [
        f"name {model.NICKNAMES_PER_10_MINUTES - 1}"
    ]


@pytest.mark.parametrize("forged", [4, -1, 99, "B", True, 1.5, None, [1]])
def test_a_forged_private_answer_is_ignored(store, forged) -> None:
    """A frame that says the phone sent something that is not an option stores nothing and
    shows no traceback; the buttons stay."""
    lecturer = create(private=True)
    code = lecturer.query_params["manage"]
    lecturer.button(key="quiz_start").click().run()
    phone = page(join=code)
    quizzes = survey.QuizStore(store)
    quiz = quizzes.get_quiz_by_code(code)
    key = f"quiz_private_{quiz.id}_0"
    send_component_event(phone, key, "sent", forged)
    assert not phone.exception
    assert quizzes.counts(quiz.id)[0] == [0] * len(quiz.questions[0].options)
    assert component_data(phone, key)["sent"] is None


def test_nothing_in_a_private_phones_session_holds_a_choice(store) -> None:
    """The server only ever learns what the phone sent: after a private answer the session
    keeps the sent option and the store's outcome, and nothing else about the answer."""
    lecturer = create(private=True)
    code = lecturer.query_params["manage"]
    lecturer.button(key="quiz_start").click().run()
    phone = page(join=code)
    quiz = survey.QuizStore(store).get_quiz_by_code(code)
    send_component_event(phone, f"quiz_private_{quiz.id}_0", "sent", 3)
    answer_keys = {k for k in phone.session_state if str(k).startswith("quiz_")}
    assert answer_keys == {
        f"quiz_stored_{quiz.id}_0",
        f"quiz_outcome_{quiz.id}_0",
        f"quiz_private_{quiz.id}_0",
    }
    assert phone.session_state[f"quiz_stored_{quiz.id}_0"] == 3


def test_back_from_the_summary_shows_the_last_question_closed(store) -> None:
    """Finding: Summary → Back reopened a revealed question with a fresh countdown, and a
    student tapped the revealed answer and scored. Back shows it revealed, without a
    Reveal button, and the phone gets no answer buttons."""
    lecturer = create()
    code = lecturer.query_params["manage"]
    lecturer.button(key="quiz_start").click().run()
    for _ in range(2):
        lecturer.button(key="quiz_next").click().run()
    lecturer.button(key="quiz_reveal").click().run()
    lecturer.button(key="quiz_next").click().run()  # "Summary"
    assert "The quiz is over" in words(lecturer)
    lecturer.button(key="quiz_back").click().run()
    assert not lecturer.exception
    assert "Question 3 of 3" in words(lecturer)
    assert "quiz_reveal" not in [b.key for b in lecturer.button]
    phone = page(join=code)
    assert not answer_buttons(phone) and "The answer:" in words(phone)
    assert "This question is closed: you did not answer it." in words(phone)


def test_private_bars_add_up_to_100_percent_even_with_two_answers() -> None:
    """Finding: with 2 answers the projector showed A 79%, B 0%, C 79% (debiased shares cut
    at 0, not renormalised). The bars are the projection onto shares that add up to 1."""
    question = survey.QuizQuestion("Q?", ("a", "b", "c"), 0, "")
    for counts in ([1, 0, 1], [2, 0, 0], [0, 1, 1], [5, 3, 0]):
        result = model.results(question, counts, 1.0)
        shares = result.frame["estimate"]
        assert shares.sum() == pytest.approx(1.0) and (shares >= 0).all(), counts
        raw = dp.grr_estimate_from_counts(np.array(counts, float), 1.0) / sum(counts)
        if (raw >= 0).all():  # already a proper histogram: unchanged
            np.testing.assert_allclose(shares, raw)
    two = model.results(question, [1, 0, 1], 1.0).frame["estimate"].tolist()
    assert two[1] == 0 and two[0] == pytest.approx(0.5) and two[2] == pytest.approx(0.5)
    # the projector's "code behind" computes the same bars
    namespace: dict = {}
    code = snippets.PRIVATE_ESTIMATE.render(epsilon=1.0, sent=[1, 0, 1])
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own template
    np.testing.assert_allclose(namespace["frame"]["estimate"], two)


def test_a_stale_projector_tab_changes_nothing_and_says_so(store, jar) -> None:
    """Finding: tab 1 pressed Next, then Reveal; tab 2, which had not polled, pressed its own
    Next: the question reopened and a phone's tap was accepted after the answer was shown.
    Tab 2's press now carries the screen it was made from, changes nothing, and says so."""
    lecturer = create()
    code = lecturer.query_params["manage"]
    lecturer.button(key="quiz_start").click().run()
    jar["quiz_manage"] = f"{code}.{lecturer.session_state[model.ADMIN_KEYS_KEY][code]}"
    second = page(manage=code)  # a second tab, on question 1
    lecturer.button(key="quiz_next").click().run()
    lecturer.button(key="quiz_reveal").click().run()
    quizzes = survey.QuizStore(store)
    quiz_id = quizzes.get_quiz_by_code(code).id
    assert quizzes.state(quiz_id)[:2] == (1, True)
    second.button(key="quiz_next").click().run()  # made from question 1, unrevealed
    assert not second.exception
    assert quizzes.state(quiz_id)[:2] == (1, True)
    assert any(
        "changed the class quiz first, so this press changed nothing" in i.value
        for i in second.info
    )
    assert "Question 2 of 3" in words(second)  # it now shows where the quiz is
    phone = page(join=code)
    assert not answer_buttons(phone)


def test_floating_point_residue_is_said_as_exactly() -> None:
    """Finding: the private projector printed "sit up to 0.00000000000000555% from what the
    class would have answered". Residue is 0%, said "exactly"."""
    assert text.percent(5.55e-17) == "0%" and text.percent(-1e-15) == "0%"
    assert text.percent(1e-4) == "0.01%"
    assert model.pull_words(5.55e-17).startswith("The estimate gives every option the same")
    assert "up to 12.5%" in model.pull_words(0.125)


def test_the_pull_is_said_of_the_estimated_shares_not_of_the_class() -> None:
    """Finding: equal raw counts printed "The raw shares are exactly what the class would
    have answered": the class's own shares are unknown, and the pull is computed at the
    estimate (±42.6% at ε = 0.5 with 200 answers)."""
    question = survey.QuizQuestion("Q?", ("a", "b", "c", "d"), 1, "x")
    even = model.results(question, [50, 50, 50, 50], 0.5)
    assert text.percent(even.pull) == "0%"
    said = model.pull_words(even.pull)
    assert "exactly what the class would have answered" not in said
    assert "had the class answered as estimated" in model.pull_words(0.125)


@pytest.mark.parametrize("k", [2, 4, 6])
@pytest.mark.parametrize("epsilon", model.EPSILONS)
def test_the_create_page_says_how_precise_private_bars_will_be(epsilon, k) -> None:
    """Private mode's planned precision, per ε and number of options: z√Var/n at the share
    where GRR's variance is widest, Var from Wang et al. 2017 (eq. 4 and the share term)
    written here, not from dp; "next to nothing" exactly where that reaches ±50%."""
    p = math.exp(epsilon) / (math.exp(epsilon) + k - 1)
    q = 1 / (math.exp(epsilon) + k - 1)
    said = model.precision_words(epsilon, k)
    loose = []
    for n in (30, 200):
        var = [(n * q * (1 - q) + n * f * (p - q) * (1 - p - q)) / (p - q) ** 2 for f in (0, 1)]
        half = 1.959963984540054 * math.sqrt(max(var)) / n
        assert f"±\u00a0{text.percent(min(half, 1.0))} from {n:,}" in said
        if half >= 0.5:
            loose.append(n)
    assert ("would say next to nothing" in said) == bool(loose)
    if len(loose) == 1:
        assert f"in a room of {loose[0]}" in said


def test_the_default_private_epsilon_gives_bars_a_room_of_30_can_read() -> None:
    """Finding: the default ε = 1 gave 4-option bars of ±59.5% with 30 answers."""
    at = page()
    at.multiselect(key="quiz_lessons").set_value(["laplace"]).run()
    at.toggle(key="quiz_private").set_value(True).run()
    assert at.select_slider(key="quiz_eps").value == model.DEFAULT_EPSILON
    k = max(len(q.options) for q in model.lesson_questions("laplace"))
    assert model.planned_half_width(30, model.DEFAULT_EPSILON, k) < 0.5
    (caption,) = [c.value for c in at.caption if "answers spend" in c.value]
    assert model.precision_words(model.DEFAULT_EPSILON, k) in caption
    assert "next to nothing" not in caption


def test_the_phones_question_is_a_heading_without_a_link_icon(store) -> None:
    """Finding: the phone's quiz question showed a link-anchor icon beside it."""
    lecturer = create()
    code = lecturer.query_params["manage"]
    lecturer.button(key="quiz_start").click().run()
    phone = page(join=code)
    question = model.lesson_questions("laplace")[0]
    (heading,) = [h for h in phone.header if h.value == text.plain(question.prompt)]
    assert heading.proto.hide_anchor


def test_private_mode_says_what_the_whole_quiz_spends_before_it_is_created() -> None:
    """Each answer is ε-LDP; a student answers every question, so the quiz spends m·ε on
    each student (sequential composition), said with the chosen questions and ε."""
    at = page()
    at.multiselect(key="quiz_lessons").set_value(["laplace", "composition"]).run()
    at.toggle(key="quiz_private").set_value(True).run()
    at.select_slider(key="quiz_eps").set_value(0.5).run()
    m = sum(len(model.lesson_questions(f)) for f in ("laplace", "composition"))
    said = [c.value for c in at.caption if "answers spend" in c.value]
    assert len(said) == 1 and said[0].startswith("Each phone randomizes")
    assert f"so a student's {m} answers spend {m}ε = {text.number(m * 0.5)} together" in said[0]
