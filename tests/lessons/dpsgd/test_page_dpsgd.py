"""AppTest for lessons/dpsgd/page.py and its trainer: per-example gradients against finite
differences, the trainer against scikit-learn at σ = 0 and C = ∞, the noise table against
dp-accounting, accuracy rising with ε and the attack's advantage shrinking with it (with
seeds), every widget at its extremes, links, code, downloads, quiz."""

import math

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from streamlit.testing.v1 import AppTest

import dp
from apptest_helpers import (
    answer_quiz,
    chart_titled,
    code_texts,
    frames_of,
    hosted_page,
    ignored_link_notice,
    metrics,
    prose,
    record_downloads,
    run_lesson,
    toasts,
    widgets_outside_fragments,
)
from lessons.dpsgd import model as lesson
from ui import text

PAGE = "dpsgd/page.py"


def hosted(*, upload: tuple[str, bytes] | None = None, **params: str) -> AppTest:
    return hosted_page(PAGE, upload=upload, timeout_s=120, **params)


def test_per_example_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 4))
    y = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    w = rng.normal(size=5)
    grads = lesson.per_example_gradients(w, x, y)
    h = 1e-6
    for j in range(5):
        step = np.zeros(5)
        step[j] = h
        numeric = (lesson.losses(w + step, x, y) - lesson.losses(w - step, x, y)) / (2 * h)
        np.testing.assert_allclose(grads[:, j], numeric, rtol=1e-5, atol=1e-8)


def test_the_trainer_is_gradient_descent_at_sigma_0_and_c_infinite() -> None:
    """Full batch (q = 1), no clipping, no noise, run long: scikit-learn's unpenalised
    logistic regression on the same 2,000 rows and 10 features."""
    data = lesson.data()
    x, y = data.x_train[:2_000, -5:], data.y_train[:2_000]
    weights = lesson.train(0.0, math.inf, sample_rate=1.0, epochs=3_000, learning_rate=2.0,
                           x=x, y=y)  # fmt: skip
    reference = LogisticRegression(C=np.inf, max_iter=5_000, tol=1e-10).fit(x, y)
    np.testing.assert_allclose(weights[:-1], reference.coef_[0], atol=2e-3)
    assert weights[-1] == pytest.approx(reference.intercept_[0], abs=2e-3)


def test_the_noise_table_is_the_accountants() -> None:
    for epsilon, sigma in lesson.NOISE_TABLE.items():
        assert dp.dpsgd_noise_multiplier(
            epsilon, lesson.SAMPLE_RATE, lesson.steps(), lesson.DELTA, accountant="rdp"
        ) == pytest.approx(sigma, rel=1e-9)
    for epsilon, sigma in lesson.ATTACK_NOISE.items():
        assert dp.dpsgd_noise_multiplier(
            epsilon, lesson.ATTACK_RATE, lesson.attack_steps(), lesson.DELTA, accountant="rdp"
        ) == pytest.approx(sigma, rel=1e-9)


def test_accuracy_rises_with_epsilon() -> None:
    curve = lesson.accuracy_curve()
    ours = curve[curve["model"] == lesson.MODELS[0]].set_index("epsilon")
    # the smallest ε against ε = 1: apart by more than 3 standard errors of each
    low, high = ours.loc[0.01], ours.loc[1.0]
    se = (low["high"] - low["accuracy"]) + (high["high"] - high["accuracy"])
    assert high["accuracy"] - low["accuracy"] > 3 * se
    base = curve[curve["model"] == lesson.MODELS[1]]["accuracy"].iloc[0]
    assert ours["accuracy"].max() <= base + 0.005


def test_the_attacks_advantage_shrinks_with_epsilon() -> None:
    """Over three studies of 60 people: the non-private model's advantage beats the ε = 1
    model's every time, and its mean by more than 15 points."""
    plain, private = [], []
    for seed in (33, 34, 35):
        results = lesson.attack_models(seed)
        plain.append(results[0].advantage)
        private.append(results[1].advantage)
    assert all(p > q for p, q in zip(plain, private, strict=True))
    assert np.mean(plain) - np.mean(private) > 0.15


@pytest.mark.parametrize(("clip", "sigma"), [(0.1, 0.0), (4.0, 4.0)])
def test_one_step_at_its_extremes(clip, sigma) -> None:
    at = run_lesson(PAGE)
    at.select_slider(key="dps_step_clip").set_value(clip).run()
    at.select_slider(key="dps_step_sigma").set_value(sigma).run()
    assert not at.exception
    grads, _ = lesson.step_people()
    clipped = dp.clip_rows(grads, clip)
    total = np.linalg.norm(clipped.sum(axis=0))
    shown = metrics(at)
    assert shown["Length of the clipped sum"] == text.number(total)
    assert shown["Noise per coordinate, σC"] == text.number(sigma * clip)
    arrows = frames_of(chart_titled(at, f"One step: C = {text.number(clip)}", prefix=True))
    lengths = np.hypot(*arrows["arrows"].query("arrow == 'clipped'")[["x", "y"]].to_numpy().T)
    assert np.all(lengths <= clip + 1e-9)


@pytest.mark.parametrize("clip", [0.1, 4.0])
def test_clipping_at_its_extremes(clip) -> None:
    at = run_lesson(PAGE)
    at.select_slider(key="dps_clip").set_value(clip).run()
    result = lesson.clipping(clip)
    assert metrics(at)["Gradients shortened"] == text.percent(result.clipped_share)
    norms = lesson.gradient_norms()
    assert result.clipped_share == pytest.approx(np.mean(norms > clip))
    if clip == 4.0:
        assert result.clipped_share < 0.02 and result.bias < 0.05
    else:
        assert result.clipped_share == 1.0


@pytest.mark.parametrize("sigma", lesson.ACCOUNTANT_SIGMAS[:1] + lesson.ACCOUNTANT_SIGMAS[-1:])
def test_the_accountant_chart_is_dp_accounting(sigma) -> None:
    at = run_lesson(PAGE)
    at.select_slider(key="dps_acc_sigma").set_value(sigma).run()
    curves = frames_of(chart_titled(at, f"ε against steps, σ = {text.number(sigma)}", prefix=True))
    frame = curves["curves"]
    for _, row in frame.iterrows():
        expected = dp.dpsgd_epsilon(sigma, lesson.SAMPLE_RATE, int(row["steps"]), lesson.DELTA,
                                    accountant=row["accountant"].lower())  # fmt: skip
        assert row["epsilon"] == pytest.approx(expected)
    pld = frame[frame["accountant"] == "PLD"]["epsilon"].to_numpy()
    rdp = frame[frame["accountant"] == "RDP"]["epsilon"].to_numpy()
    assert np.all(pld <= rdp)


def test_the_curve_and_the_attack_wait_for_the_student() -> None:
    at = run_lesson(PAGE)
    assert not at.table and "Test accuracy against ε" not in str(at.get("vega_lite_chart"))
    view = lesson.curve_view()
    options = ("DP-SGD, at every ε", "Randomized response, at every ε", "It depends on ε")
    at.radio(key="dps_guess").set_value(options[view.answer]).run()
    at.button(key="dps_train").click().run(timeout=120)
    assert at.success[-1].value.startswith("Right.")
    frames = frames_of(chart_titled(at, "Test accuracy against ε"))
    np.testing.assert_allclose(frames["accuracy"]["accuracy"], view.curve["accuracy"])
    at.button(key="dps_attack").click().run(timeout=120)
    table = at.table[0].value
    assert table["model"].tolist() == [a.name for a in lesson.attacks()]
    assert "Chua et al." in prose(at)


def test_a_link_reproduces_the_view_and_a_bad_one_falls_back() -> None:
    at = hosted(dps_step_clip="4", dps_step_sigma="0", dps_acc_sigma="2")
    assert not at.toast
    assert chart_titled(at, "One step: C = 4, σ = 0") is not None
    at = hosted(dps_step_sigma="0.123")
    assert toasts(at) == [ignored_link_notice("dps_step_sigma", "0.123")]


def test_code_and_downloads(monkeypatch) -> None:
    sent = record_downloads(monkeypatch)
    at = run_lesson(PAGE)
    at.button(key="dps_train").click().run(timeout=120)
    (code,) = code_texts(at, "dpsgd_noise_multiplier")
    namespace: dict = {}
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 — our own snippet
    assert namespace["frame"]["sigma"].iloc[0] == pytest.approx(lesson.NOISE_TABLE[1.0])
    assert namespace["frame"]["test accuracy"].iloc[0] > 0.8
    assert sent["dps_dl_accuracy"][1][0] == "epsilon,model,accuracy,low,high"
    assert sent["dps_dl_step"][1][0] == "arrow,person,x0,y0,x,y"


def test_quiz_feedback() -> None:
    at = run_lesson(PAGE)
    answer_quiz(at, "dpsgd", 2, 0)
    assert "group of k" in at.error[-1].value


def test_an_uploaded_file_is_named_and_the_census_is_used() -> None:
    at = hosted(upload=("jobs.csv", b"Job,Pay\nSales,10\nClerk,30\n"))
    assert "always uses the bundled census" in at.info[0].value


def test_every_section_with_its_own_control_is_a_fragment() -> None:
    """Each section's widgets rerun only their own section."""
    assert (
        widgets_outside_fragments(
            PAGE, ("dps_step_clip", "dps_step_sigma", "dps_clip", "dps_acc_sigma")
        )
        == []
    )
