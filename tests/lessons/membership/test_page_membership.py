"""AppTest for lessons/membership/page.py: every widget moved to its extremes and the numbers
it then shows checked against dp/ and scikit-learn; the ROC, the privacy region, the audit,
links, code, downloads, quiz, an uploaded file."""

import numpy as np
import pytest
from sklearn.metrics import roc_curve
from streamlit.testing.v1 import AppTest

import apptest_helpers as helpers
import dp
from lessons.membership import model as lesson
from ui import controls, notebook, text, tracing

PAGE = "membership/page.py"
SCORES = "Tracing scores:"
ROC = "The attack's ROC"
NOISY = "ROC with"
AUDIT = "What the audit proves"
FOUND = "Members found when 1% of non-members are flagged"


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    return helpers.hosted_page(PAGE, upload=upload, timeout_s=120, **params)


def scores_by_hand(n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    pool = tracing.attributes()
    questions = pool.questions[:, :d]
    members = pool.rows(questions, "members")[:n]
    reference = pool.rows(questions, "reference").mean(axis=0)
    released = members.mean(axis=0)
    inside = dp.tracing_score(members, released, reference)
    outside = dp.tracing_score(pool.rows(questions, "non-members"), released, reference)
    return inside, outside


def test_the_questions_are_parities_of_the_one_hot_answers_and_nearly_fair() -> None:
    pool = tracing.attributes()
    assert pool.one_hot.shape == (4_500, tracing.one_hot_count())
    assert np.all(pool.one_hot.sum(axis=1) == len(tracing.CATEGORICAL) + 2)  # one per column
    assert set(np.unique(pool.questions)) == {0.0, 1.0}
    shares = pool.questions.mean(axis=0)
    assert shares.min() > 0.4 and shares.max() < 0.6
    corr = np.corrcoef(pool.questions[:, :50].T)
    assert np.max(np.abs(corr[np.triu_indices(50, 1)])) < 0.2  # close to independent


def test_defaults_trace_50_members_from_200_averages() -> None:
    at = helpers.run_lesson(PAGE)
    inside, outside = scores_by_hand(50, 200)
    flag = np.quantile(outside, 0.99, method="higher")
    shown = helpers.metrics(at)
    found = int(np.sum(inside > flag))  # the count beside the share: 2% of 50 is one member
    assert shown[FOUND] == f"{text.percent(found / 50)} ({found} of 50)"
    assert np.mean(inside > flag) > 0.25  # the attack works
    histograms = helpers.frames_of(helpers.chart_titled(at, SCORES, prefix=True))
    shares = histograms["scores"].groupby("group")["share"].sum()
    assert shares.to_dict() == pytest.approx({"members": 1.0, "non-members": 1.0})
    assert "With the 127 one-hot columns published instead" in " ".join(c.value for c in at.caption)


def test_the_roc_matches_scikit_learn() -> None:
    result = tracing.attack(50, 200)
    frame = tracing.roc_frame(result, "x")
    truth = np.r_[np.ones(result.members.size), np.zeros(result.non_members.size)]
    fpr, tpr, _ = roc_curve(truth, np.r_[result.members, result.non_members])
    for grid_fpr, grid_tpr in zip(frame["fpr"], frame["tpr"], strict=True):
        expected = tpr[fpr <= grid_fpr + 1e-12].max()
        assert grid_tpr == pytest.approx(expected)
    at_target = tpr[fpr <= tracing.FPR_TARGET].max()
    assert result.tpr_at_target == pytest.approx(at_target)


@pytest.mark.parametrize(("n", "d"), [(20, 10), (20, 1000), (500, 10), (500, 1000)])
def test_study_size_and_averages_at_their_extremes(n, d) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="mi_n").set_value(n).run()
    at.select_slider(key="mi_d").set_value(d).run()
    assert not at.exception
    inside, outside = scores_by_hand(n, d)
    flag = np.quantile(outside, 0.99, method="higher")
    found = int(np.sum(inside > flag))
    assert helpers.metrics(at)[FOUND] == f"{text.percent(found / n)} ({found:,} of {n:,})"
    title = f"Tracing scores: {n} members against 2,000 non-members, d = {text.number(d)}"
    spec = helpers.chart_titled(at, title).proto.spec
    assert '"domain": [-4.0, 16.0]' in spec or '"domain":[-4.0,16.0]' in spec  # fixed axis
    l1, l2 = tracing.sensitivities(n, d)
    assert f"Δ₁ = d/n = {text.number(l1)}" in helpers.prose(at)
    assert f"Δ₂ = √d/n = {text.number(l2)}" in helpers.prose(at)


def test_the_attack_grows_with_d_and_fades_with_n() -> None:
    for n in tracing.STUDY_SIZES:
        found = [tracing.attack(n, d).tpr_at_target for d in tracing.ATTRIBUTE_COUNTS]
        assert found[-1] > found[0]
    for d in (200, 1000):
        found = [tracing.attack(n, d).tpr_at_target for n in tracing.STUDY_SIZES]
        assert found[0] > found[-1]
    assert tracing.attack(20, 1000).tpr_at_target == 1.0


def test_noise_pushes_the_attack_into_the_privacy_region() -> None:
    """Averaged over 5 seeded releases: the attack finds fewer members at ε = 1 than at
    ε = 200, and never more than the region allows (plus the wobble of 50 members)."""
    for mechanism in tracing.MECHANISMS:
        found = {
            eps: np.mean(
                [tracing.noisy_attack(50, 200, mechanism, eps, s).tpr_at_target for s in range(5)]
            )
            for eps in (1.0, 200.0)
        }
        assert found[1.0] < found[200.0]
        delta = tracing.DELTA if mechanism == "Gaussian" else 0.0
        assert found[1.0] <= tracing.most_found(tracing.FPR_TARGET, 1.0, delta) + 0.05
        result = tracing.noisy_attack(50, 200, mechanism, 1.0, 0)
        roc = tracing.roc_frame(result, "x")
        edge = dp.tpr_bound(roc["fpr"].to_numpy(), 1.0, delta=delta)
        assert np.all(roc["tpr"].to_numpy() <= edge + 3 * np.sqrt(0.25 / 50))


@pytest.mark.parametrize(("mechanism", "epsilon"), [("Laplace", 0.1), ("Gaussian", 200.0)])
def test_mechanism_and_epsilon_move_the_curves_and_the_region(mechanism, epsilon) -> None:
    at = helpers.run_lesson(PAGE)
    at.radio(key="mi_mechanism").set_value(mechanism).run()
    at.select_slider(key="mi_eps").set_value(epsilon).run()
    assert not at.exception
    delta = tracing.DELTA if mechanism == "Gaussian" else 0.0
    seed = controls.DEFAULT_SEED + tracing.SEED_RELEASE
    noisy = tracing.noisy_attack(50, 200, mechanism, epsilon, seed)
    shown = helpers.metrics(at)
    found = int(np.sum(noisy.members > noisy.threshold))
    assert shown[f"Members found at 1%, with {mechanism} noise"] == (
        f"{text.percent(found / 50)} ({found} of 50)"
    )
    assert shown["The most any attack can find at 1%"] == text.chance(
        dp.tpr_bound(0.01, epsilon, delta=delta)
    )
    frames = helpers.frames_of(
        helpers.chart_titled(at, f"ROC with {mechanism} noise at ε = {text.number(epsilon)}")
    )
    np.testing.assert_allclose(
        frames["region"]["tpr"], dp.tpr_bound(frames["region"]["fpr"], epsilon, delta=delta)
    )
    assert set(frames["roc"]["curve"]) == {"no noise", f"with {mechanism} noise"}
    scale = tracing.noise_scale(mechanism, 50, 200, epsilon)
    caption = " ".join(c.value for c in at.caption)
    assert text.number(scale) in caption


@pytest.mark.parametrize(("epsilon", "trials"), [(0.1, 100), (2.0, 1_000_000), (1.0, 10_000)])
def test_the_audit_at_its_extremes(epsilon, trials) -> None:
    at = helpers.run_lesson(PAGE)
    at.select_slider(key="mi_audit_eps").set_value(epsilon).run()
    at.select_slider(key="mi_trials").set_value(trials).run()
    assert not at.exception
    result = lesson.audit_curve(epsilon, controls.DEFAULT_SEED + lesson.SEED_AUDIT)
    shown = helpers.metrics(at)
    assert shown["Honest Lap(1/ε): the audit proves ε ≥"] == text.number(result.honest[trials])
    assert shown["Buggy Lap(½/ε): the audit proves ε ≥"] == text.number(result.buggy[trials])
    frames = helpers.frames_of(
        helpers.chart_titled(at, f"{AUDIT}, claimed ε = {text.number(epsilon)}")
    )
    assert frames["truth"]["x"].tolist() == [float(trials)]
    assert frames["claim"]["y"].tolist() == [epsilon]


def test_the_audit_passes_the_honest_count_and_catches_the_buggy_one() -> None:
    for epsilon in lesson.AUDIT_EPSILONS:
        result = lesson.audit_curve(epsilon, controls.DEFAULT_SEED + lesson.SEED_AUDIT)
        assert max(result.honest.values()) <= epsilon
        caught = result.first_catch(epsilon)
        assert caught is not None and caught <= 100_000
        assert result.buggy[lesson.TRIALS[-1]] > epsilon
        assert result.buggy[lesson.TRIALS[-1]] <= 2 * epsilon  # its true ε is 2ε
    at = helpers.run_lesson(PAGE)
    result = lesson.audit_curve(1.0, controls.DEFAULT_SEED + lesson.SEED_AUDIT)
    assert f"from {text.number(result.first_catch(1.0))} trials on: caught" in helpers.prose(at)
    assert "**cannot** prove the count private" in helpers.prose(at)


def test_the_prediction_compares_with_the_next_d() -> None:
    at = helpers.run_lesson(PAGE)
    helpers.answer_quiz(at, "membership_predict", 0, 1)  # "fewer": wrong, 500 averages find more
    feedback = at.error[-1].value
    assert text.percent(tracing.attack(50, 500).tpr_at_target) in feedback
    at.select_slider(key="mi_d").set_value(1000).run()
    prompt = at.radio(key="quiz_membership_predict_0_choice").label
    assert "publishes 500 averages instead of 1,000" in prompt


def _expected_verdict(n: int, d: int, other_d: int) -> int:
    """More / fewer / about as many, from the members each run finds: the change in the
    share found against two standard errors of that paired change (np.var of each member's
    found-at-other minus found-here, over n)."""
    here, there = tracing.attack(n, d), tracing.attack(n, other_d)
    change = (there.members > there.threshold).astype(float) - (here.members > here.threshold)
    if abs(change.mean()) <= 2 * np.sqrt(np.var(change) / n):
        return lesson.ABOUT_AS_MANY
    return lesson.MORE if change.mean() > 0 else lesson.FEWER


@pytest.mark.slow
def test_the_predictions_answer_follows_the_two_runs_for_every_move() -> None:
    """Every (n, d) of the sliders: the answer marked right is the one the two runs give,
    with "about as many" inside the noise (it was "more" for any larger d: wrong in 7 of 35
    moves, e.g. n = 100, d 10 → 20 finds 2% → 0%)."""
    at = helpers.run_lesson(PAGE)
    marked = {}
    for n in tracing.STUDY_SIZES:
        for d in tracing.ATTRIBUTE_COUNTS:
            at.select_slider(key="mi_n").set_value(n)
            at.select_slider(key="mi_d").set_value(d).run()
            (question,) = at.session_state[notebook.RECORD_KEY].questions["membership_predict"]
            other = lesson.neighbour_for_prediction(d)
            assert f"publishes {text.number(other)} averages instead of" in question.prompt
            assert question.correct == _expected_verdict(n, d, other), (n, d)
            marked[(n, d)] = question.options[question.correct]
    assert marked[(100, 10)] == marked[(200, 10)] == marked[(20, 500)] == "about as many"
    assert marked[(500, 50)] == "about as many"  # 1.8% → 1.2%
    assert marked[(50, 500)] == "more members" and marked[(50, 1_000)] == "fewer members"
    assert len(marked) == 35


def test_a_link_reproduces_the_view_and_a_bad_one_falls_back() -> None:
    at = hosted(mi_n="20", mi_d="1,000", mi_mechanism="Gaussian", mi_eps="10", mi_trials="100")
    assert not at.toast
    assert helpers.chart_titled(
        at, "Tracing scores: 20 members against 2,000 non-members, d = 1,000"
    )
    assert helpers.chart_titled(at, "ROC with Gaussian noise at ε = 10") is not None
    at = hosted(mi_eps="0.0123")
    assert helpers.toasts(at) == [helpers.ignored_link_notice("mi_eps", "0.0123")]


def test_code_downloads_and_the_snippets_rebuild_the_numbers(monkeypatch) -> None:
    sent = helpers.record_downloads(monkeypatch)
    at = helpers.run_lesson(PAGE)
    namespace: dict = {}
    (snippet,) = helpers.code_texts(at, "tracing_score")
    exec(compile(snippet, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    assert namespace["tpr_at_1_percent"] == pytest.approx(tracing.attack(50, 200).tpr_at_target)
    (audit,) = helpers.code_texts(at, "epsilon_lower_bound")
    exec(compile(audit, "<snippet>", "exec"), namespace)  # noqa: S102
    honest, buggy = namespace["frame"]["ε is at least"]
    assert honest <= 1.0 < buggy
    assert sent["mi_dl_roc"][1][0] == "fpr,tpr,curve"
    assert sent["mi_dl_noise"][1][0] == "fpr,tpr,curve"
    assert sent["mi_dl_audit"][1][0] == "trials,mechanism,bound"


def test_an_uploaded_file_is_named_and_the_census_is_used() -> None:
    at = helpers.census_after_upload(PAGE)
    assert helpers.metrics(at)[FOUND].startswith(
        text.percent(tracing.attack(50, 200).tpr_at_target) + " ("
    )


def test_the_prediction_comes_before_the_sliders_and_chart_that_answer_it() -> None:
    at = helpers.run_lesson(PAGE)
    order = [
        n.type for n in _walk(at._tree) if n.type in ("radio", "select_slider", "vega_lite_chart")
    ]
    assert order.index("radio") < order.index("select_slider") < order.index("vega_lite_chart")


def _walk(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _walk(child)


def test_an_honest_audit_that_passes_its_claim_by_chance_is_said_so() -> None:
    """The page said the honest count's audit "never passes" the claimed ε. Each bound holds
    with 95% confidence and the chart looks at nine numbers of trials: at seed 5 and ε = 1
    the honest count's bound is 1.024 at 1,000 trials."""
    curve = lesson.audit_curve(1.0, 5 + lesson.SEED_AUDIT)
    assert curve.honest[1_000] > 1.0
    at = helpers.run_lesson(PAGE)
    words = helpers.prose(at)
    honest = lesson.audit_curve(1.0, controls.DEFAULT_SEED + lesson.SEED_AUDIT).honest
    assert all(bound <= 1.0 for bound in honest.values())
    assert "The honest count's audit climbs toward 1 and never passes it" in words
    at.session_state["seed"] = 5
    at.run()
    assert not at.exception
    words = helpers.prose(at)
    assert "never passes" not in words
    assert f"at 1,000 trials its bound, {text.number(curve.honest[1_000])}, even passes it" in words
    assert "this chart takes 9 looks" in words
