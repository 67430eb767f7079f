"""Lesson: Private ERM — how far a regularised minimiser moves when one person changes, and
output and objective perturbation against DP-SGD on the census."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.private_erm import charts, model, snippets
from ui import controls, layout, notebook, quiz, text, userdata

controls.lesson_header(
    "Private ERM",
    "Private machine learning before DP-SGD. A logistic regression on the census predicts "
    "whether a person earns more than \\$50K; you see how far its weights move when one "
    "person changes, and how regularisation bounds that. Then the two classic ways to "
    "make it private, noise on the answer and noise in the objective, side by side with "
    "DP-SGD on the same people, across ε.",
)
userdata.census_only_notice(
    "its model is the census's income classifier, on features scaled from the census's "
    "public ranges."
)
LESSON = {lesson.folder: lesson for lesson in LESSONS}
DPSGD_LESSON, LAPLACE = LESSON["dpsgd"], LESSON["laplace"]
N = f"{model.n_train():,}"

# --- 1. The minimiser's sensitivity ------------------------------------------------------------
st.header("1. The minimiser's sensitivity")
st.markdown(
    f"The model is a logistic regression on {N} people: income over \\$50K from age, "
    "education, hours worked a week and capital gains, each scaled from its public range "
    "(never from the data) and the row shrunk so that its length is at most 1. Empirical "
    "risk minimisation (ERM) picks the weights w that minimise the average loss plus a "
    "penalty λ on their size:"
)
notebook.latex(
    r"J(w) = \frac{1}{n}\sum_{i=1}^{n} \ln\!\left(1 + e^{-y_i\, w^\top x_i}\right)"
    r" + \frac{\lambda}{2}\lVert w \rVert^2.",
    narrow=r"\begin{aligned}J(w) = \;&\frac{1}{n}\sum_{i=1}^{n}"
    r" \ln\!\left(1 + e^{-y_i\, w^\top x_i}\right)\\ &+ \frac{\lambda}{2}\lVert w \rVert^2."
    r"\end{aligned}",
)
st.markdown(
    "Replace one person's row (a neighbour under *replacement*): the penalty makes J at "
    "least λ-strongly convex and each row's loss changes by at most its slope, 1, so the "
    "minimiser moves by at most 2/(nλ) (Chaudhuri, Monteleoni & Sarwate 2011, Cor. 8). "
    "That bound is the sensitivity the private methods below are built on. Here, for 20 "
    "people, the same row with the other income:"
)


@st.fragment
def sensitivity() -> None:
    """λ beside the movements and the bound."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        lam = controls.number_slider(
            "Regularisation λ  (larger → a stabler minimiser, less noise needed)",
            model.LAMBDAS,
            model.DEFAULT_LAMBDA,
            key="erm_sens_lam",
        )
        layout.metrics(
            "erm_moved",
            [
                ("Largest move found", text.number(model.largest_move(lam), 3)),
                ("Bound 2/(nλ)", text.number(model.bound(lam), 3)),
            ],
        )
    with chart_column:
        charts.sensitivity().show(
            title=f"Dots: one of {model.NEIGHBOURS} people replaced. Line: the bound 2/(nλ)",
            alt=(
                f"How far the minimiser moved when each of {model.NEIGHBOURS} people was "
                "replaced by the same row with the other income (points), and the bound "
                f"2/(nλ) (a line), against λ from {text.number(model.LAMBDAS[0])} to "
                f"{text.number(model.LAMBDAS[-1])}, both axes log. At λ = {text.number(lam)}: "
                f"largest move {text.number(model.largest_move(lam), 3)}, bound "
                f"{text.number(model.bound(lam), 3)}."
            ),
            curves=(curve := model.bound_curve()),
            people=model.movement_points(),
            truth=model.lambda_rule(lam, charts.lambda_label_at_bottom(curve, lam)),
        )
    st.markdown("**Here** " + model.sensitivity_words(lam))


sensitivity()

# --- 2. Output and objective perturbation ------------------------------------------------------
st.header("2. Noise on the answer, or in the question")
st.markdown(
    "**Output perturbation** (CMS Alg. 1) finds the minimiser and adds a random vector b "
    r"whose density falls as $e^{-\beta \lVert b \rVert}$, the Laplace mechanism in many "
    "dimensions "
    f"({LAPLACE.title}): with β = nλε/2, scaled to the sensitivity 2/(nλ), it is ε-DP. Its "
    "length follows a Gamma distribution with mean d/β = 2d/(nλε). **Objective "
    "perturbation** (CMS Alg. 2) puts the noise into the objective instead, and minimises"
)
notebook.latex(
    r"J(w) + \frac{b^\top w}{n} + \frac{\Delta}{2}\lVert w \rVert^2,\qquad"
    r" \beta = \frac{\varepsilon'}{2},\quad"
    r" \varepsilon' = \varepsilon - \ln\!\left(1 + \frac{2c}{n\lambda}"
    r" + \frac{c^2}{n^2\lambda^2}\right)",
    narrow=r"\begin{aligned}&J(w) + \frac{b^\top w}{n} + \frac{\Delta}{2}\lVert w \rVert^2,"
    r"\\ &\beta = \frac{\varepsilon'}{2},\ \ \varepsilon' = \varepsilon"
    r" - \ln\!\left(1 + \frac{2c}{n\lambda} + \frac{c^2}{n^2\lambda^2}\right)\end{aligned}",
)
st.markdown(
    "with c = ¼ (the logistic loss's curvature is at most ¼); when ε′ would be 0 or less, "
    "it adds the extra penalty Δ and uses ε′ = ε/2 (dp.output_perturbation, "
    "dp.objective_perturbation). Both are pure ε-DP and both need a convex, smooth loss "
    "with bounded slope, which is why the rows sit in the unit ball. "
    f"**DP-SGD** ({DPSGD_LESSON.title}) needs none of that: it clips each person's gradient "
    f"and adds Gaussian noise to every step. Here it trains the same model on the same "
    f"people for {model.dpsgd_steps()} steps (sampling rate 0.01, clipping at 1, which "
    "never binds on these rows), with no penalty. Its accountant (dp-accounting's RDP) "
    "speaks of one person added or removed, the two ERM methods' ε of one row replaced: a "
    "replacement is a removal and an addition, so each DP-SGD run here is made "
    r"$(\varepsilon/2,\ \delta/(1 + e^{\varepsilon/2}))$-DP for those, which is (ε, δ)-DP "
    "with δ = 10⁻⁵ for a replaced "
    "row by group privacy (dp.approx_group_privacy). All three lines guard against the "
    f"same change. Each point is the mean of {model.RUNS} seeded runs, with its 95% error "
    "bar."
)
quiz.predict_first(
    "private_erm_predict",
    [
        quiz.Question(
            f"At ε = {text.number(model.PREDICT_EPSILON)} and λ = "
            f"{text.number(model.DEFAULT_LAMBDA)}, which of the two ERM methods gives the "
            "more accurate model?",
            model.PREDICT_OPTIONS,
            correct=model.PREDICT_OPTIONS.index(model.predicted(model.DEFAULT_LAMBDA)),
            explanation=model.prediction_words(model.DEFAULT_LAMBDA),
        )
    ],
)


@st.fragment
def accuracy() -> None:
    """λ above ε and the accuracies against ε; a press on ε reruns only `at_epsilon`."""
    control_column, _ = st.columns([2, 3], gap="medium")
    with control_column:
        lam = controls.number_slider(
            "Regularisation λ  (larger → less noise, more bias)",
            model.LAMBDAS,
            model.DEFAULT_LAMBDA,
            key="erm_lam",
        )
    at_epsilon(lam)
    snippets.ACCURACY.show(lam=lam)


@st.fragment
def at_epsilon(lam: float) -> None:
    """ε beside every method's accuracy against ε at λ, and what the numbers say."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="erm_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        layout.metrics(
            "erm_at",
            [
                (model.SHORT[line], text.percent(model.point(line, epsilon, lam).mean, 3))
                for line in model.SHOWN
            ],
        )
    with chart_column:
        charts.accuracy().show(
            title=f"Test accuracy at λ = {text.number(lam)}",
            alt=model.accuracy_alt(epsilon, lam),
            curves=model.accuracy_curves(lam),
            truth=model.epsilon_rule(epsilon),
        )
    st.markdown(
        "**Here** " + model.comparison_words(epsilon, lam) + " " + model.noise_words(epsilon, lam)
    )


accuracy()

# --- 3. What each method needs -----------------------------------------------------------------
st.header("3. What each method needs")
st.markdown(
    "**Output and objective perturbation** need a convex loss with a bounded slope (and, for "
    "objective perturbation, bounded curvature), a regulariser, and rows inside a known "
    "ball: their privacy rests on the minimiser being unique and stable, and a change of "
    "model (a neural network) or of loss voids the proof. In return they are pure ε-DP, "
    "train the model once, and at moderate ε they lose little: objective perturbation's "
    "noise, divided by n, shrinks as the data grows. **DP-SGD** needs only a clipped "
    "gradient and an accountant; it trains any differentiable model, pays for every step, "
    "and is (ε, δ)-DP. On a small convex model with many rows, as here, the classic methods "
    "are competitive; which one wins at a given ε is what the chart above says, not a rule."
)

quiz.check_yourself("private_erm", quiz.bank(__file__, "private_erm"))
