"""Lesson: The reusable holdout — an analyst who checks its choices on the holdout overfits
it on data with no signal; Thresholdout lets it reuse the holdout, and why that is
differential privacy protecting an analysis instead of a person."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.holdout import charts, model, snippets
from ui import controls, layout, notebook, quiz, text

controls.lesson_header(
    "The reusable holdout",
    "Differential privacy protecting an analysis instead of a person. An analyst chooses "
    "features by looking at the training set and at the holdout, in rounds, on data where "
    "there is nothing to find: the holdout's accuracy climbs while fresh data stays at 50%. "
    "Then the same analyst asks through Thresholdout, which answers from the training set "
    "unless the two disagree, with Laplace noise and a budget: the holdout stays honest.",
)
LESSON = {lesson.folder: lesson for lesson in LESSONS}
SPARSE_VECTOR = LESSON["sparse_vector"]
ROWS = f"{model.N:,}"

# --- 1. Overfitting the holdout, live ----------------------------------------------------------
st.header("1. Overfitting the holdout, live")
st.markdown(
    f"A holdout set is kept aside to tell you, at the end, how well a model does on data it "
    f"has not seen. Here are three sets of {ROWS} rows each: training, holdout and fresh "
    f"data from the same population. Each row has a label and {model.FEATURES:,} features, "
    "and **every one of them is a fair coin flip**, drawn on its own: no feature says "
    "anything about the label, and every classifier is right exactly 50% of the time on "
    "the population. A feature's *agreement* on a set is the share of rows where it equals "
    f"the label: about ½, give or take {text.number(model.BAR, 2)} (1/(2√n), its standard "
    "deviation) by chance alone."
)
st.markdown(
    "The analyst (Dwork et al. 2015, Fig. 2) goes through the features from the strongest "
    f"on the training set down, keeps those more than {text.number(model.BAR, 2)} from ½ "
    "there, "
    "and **asks the holdout** for each one's agreement: a feature joins the classifier when "
    f"the holdout agrees on the same side of the bar. Every {model.ROUND} features it scores "
    "the classifier (a majority vote of the chosen features) on the training set and, "
    "again, on the holdout. Fresh data it never sees."
)

# The prediction is about the data, not the sliders: it stays outside the fragment below, so
# that a press re-sends only what the press changes.
holdout_at, fresh_at = model.prediction()
quiz.predict_first(
    "holdout_predict",
    [
        quiz.Question(
            "On this data, where nothing can be found, the analyst checks features on the "
            "training set and the holdout. What holdout accuracy will its classifier of "
            f"{model.PREDICT_K} features reach?",
            model.PREDICT_OPTIONS,
            correct=model.PREDICT_OPTIONS.index(model.predicted_option(holdout_at)),
            explanation=(
                f"{text.percent(holdout_at, 3)} on the holdout, against "
                f"{text.percent(fresh_at, 3)} on fresh data: every feature was kept because "
                "the holdout agreed with it, so the holdout agrees with their vote."
            ),
        )
    ],
)


@st.fragment
def overfitting() -> None:
    """The check above k and the accuracies against k; a press on k reruns only `rounds`."""
    check = controls.radio(
        "The analyst checks each feature on", model.CHECKS, key="ho_check", horizontal=True
    )
    rounds(check)
    snippets.REUSED.show(through="holdout" if check == model.BOTH else "training")


@st.fragment
def rounds(check: str) -> None:
    """k beside the accuracies against k, and what they say."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        k = controls.number_slider(
            "Features in the classifier k  (more → more questions to the holdout)",
            model.KS,
            model.DEFAULT_K,
            key="ho_k",
            kind=int,
        )
        run = model.standard(check)
        i = run.at(k)
        layout.metrics(
            "ho_at",
            [
                ("Holdout", text.percent(run.seen[i], 3)),
                ("Fresh data", text.percent(run.fresh[i], 3)),
            ],
        )
    with chart_column:
        charts.accuracy(True).show(
            title=f"The analyst checks on {check}",
            alt=model.accuracy_words(run, k),
            curves=model.standard_curves(check),
            truth=model.k_rule(k),
        )
    st.markdown("**Here** " + model.overfitting_words(run, check, k))


overfitting()

# --- 2. Thresholdout ---------------------------------------------------------------------------
st.header("2. Thresholdout")
st.markdown(
    "Thresholdout (Dwork, Feldman, Hardt, Pitassi, Reingold & Roth 2015) stands between the "
    "analyst and the holdout. For each question it has the value on the training set t and "
    "on the holdout h; it answers with the training value while the two agree, and only "
    "when they differ by more than a noisy threshold does it answer from the holdout, with "
    "Laplace noise, and spend one unit of its budget B:"
)
notebook.latex(
    r"\text{answer} = \begin{cases} t & \text{if } |h - t| \le T + \gamma + \eta,\\"
    r" h + \xi & \text{otherwise (budget} - 1\text{),}\end{cases}"
    r"\qquad \gamma \sim \mathrm{Lap}(2\sigma),\ \eta \sim \mathrm{Lap}(4\sigma),"
    r"\ \xi \sim \mathrm{Lap}(\sigma)",
    narrow=r"\begin{aligned}\text{answer} &= t \ \text{ if } |h - t| \le T + \gamma + \eta,\\"
    r"\text{answer} &= h + \xi \ \text{ otherwise (budget} - 1\text{)},\\"
    r"\gamma &\sim \mathrm{Lap}(2\sigma),\ \eta \sim \mathrm{Lap}(4\sigma),"
    r"\ \xi \sim \mathrm{Lap}(\sigma)\end{aligned}",
)
st.markdown(
    f"γ is drawn again after each holdout answer; once B answers are spent, Thresholdout "
    f"answers nothing more (⊥) and the analysis must stop. The threshold here is T = "
    f"{text.number(model.THRESHOLD)}, four times the typical gap "
    f"{text.number(model.GAP_SD)} between a useless feature's training and holdout "
    "agreement (dp.Thresholdout). The analyst is the same as above and asks the same "
    "questions, every one of them through Thresholdout."
)


@st.fragment
def reusable() -> None:
    """σ and B beside the accuracies through Thresholdout."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        tolerance = controls.number_slider(
            "Tolerance σ  (larger → more private, noisier answers)",
            model.TOLERANCES,
            model.DEFAULT_TOLERANCE,
            key="ho_sigma",
        )
        budget = controls.number_slider(
            "Budget B of holdout answers  (fewer → more private)",
            model.BUDGETS,
            model.DEFAULT_BUDGET,
            key="ho_budget",
            kind=int,
        )
        run = model.thresholdout(tolerance, budget)
        layout.metrics(
            "ho_spent",
            [
                ("Holdout answers spent", f"{run.answered_by_holdout:,} of {budget:,}"),
                ("ε for the holdout", text.number(model.epsilon(tolerance, budget), 3)),
                ("Holdout, last seen", model.last_seen(run)),
                ("Fresh data, last", text.percent(run.fresh[-1], 3)),
            ],
        )
    with chart_column:
        charts.accuracy(False).show(
            title=f"Through Thresholdout, σ = {text.number(tolerance)}, B = {budget:,}",
            alt=model.thresholdout_alt(run, tolerance, budget),
            curves=model.thresholdout_curves(tolerance, budget),
        )
    st.markdown("**Here** " + model.thresholdout_words(run, tolerance, budget))
    snippets.THRESHOLDOUT.show(through="thresholdout", tolerance=tolerance, budget=budget)


reusable()

# --- 3. Why it is differential privacy ---------------------------------------------------------
st.header("3. Why it is differential privacy")
st.markdown(
    "The test |h − t| > T + γ + η is the sparse vector technique (its lesson is linked "
    "below) run on the gaps between holdout and training: γ is its noisy threshold, η its "
    "noise on "
    "each comparison, and it pays only for the questions that pass. Each question here is "
    f"a mean over the holdout's {ROWS} rows of a value between 0 and 1 (an agreement, an "
    "accuracy), so one row moves it by at most Δ = 1/n. One round of the sparse vector "
    "technique with these noise scales is (Δ/σ)-DP, the Laplace noise ξ on the answer costs "
    "Δ/σ more, and B rounds compose (dp.thresholdout_epsilon):"
)
notebook.latex(
    r"\varepsilon = \frac{2B\Delta}{\sigma} = \frac{2B}{\sigma n}"
    r"\quad\text{for the holdout's rows (Dwork et al. 2015).}",
    narrow=r"\varepsilon = \frac{2B\Delta}{\sigma} = \frac{2B}{\sigma n}",
)
st.markdown(
    "**Why privacy makes the holdout reusable.** The analyst learns about the holdout only "
    "through a differentially private mechanism, so what it chooses next cannot depend much "
    "on any one holdout row, nor on the holdout's particular noise: it cannot find, and "
    "keep, the features that happen to agree with this holdout by chance. That stability is "
    "what keeps the holdout's answers close to their values on the whole population "
    "(the transfer theorems of adaptive data analysis; Dwork et al. 2015)."
)
st.markdown(
    "**What it does not promise.** Answers are close to the truth only with high "
    "probability and only while the budget lasts; the formal bound needs ε small, about "
    "the accuracy wanted, which at n = 5,000 and hundreds of questions it is not: the "
    "experiment above does better than the theorem can prove here. The training-set answers "
    "carry no guarantee at all (Thresholdout returns them as they are, overfitting "
    "included), nothing protects the training set's people, and a budget spent is spent: "
    "after it, only a fresh holdout can answer."
)
controls.page_link(
    SPARSE_VECTOR.path, label=f"More: {SPARSE_VECTOR.title}", icon=SPARSE_VECTOR.icon
)

quiz.check_yourself("holdout", quiz.bank(__file__, "holdout"))
