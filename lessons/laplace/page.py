"""Lesson: the Laplace mechanism — noisy answers versus ε, and the malicious query."""

from dataclasses import dataclass

import streamlit as st

import dp
from lessons.laplace import charts, model, snippets
from ui import controls, datasets, downloads, layout, notebook, quiz, text, userdata

controls.lesson_header(
    "The Laplace mechanism",
    "You pick a count over the data — the bundled census or your own file — and watch "
    "thousands of noisy answers to it pile up around the true value. Move ε: the pile "
    "narrows as ε grows, while the axes stay put. Then you play the attacker with a query "
    "about a single named person, and see how often even the best guess is right at each ε.",
)

# --- 1. The query ---------------------------------------------------------------------------
st.header("1. A count and its sensitivity")
userdata.show_dataset_in_use()
on_census = datasets.on_census()
noun = "people" if on_census else "rows"
if on_census:
    query = controls.radio("The query", model.QUERIES, key="lap_q", horizontal=True)
else:
    query = model.QUERY_CONDITION  # your file may have no Age column: count a condition
if query == model.QUERY_AGE:
    age = controls.slider(
        "Minimum age (the count does not change how private the answer is)",
        min_value=17,
        max_value=90,
        value=40,
        key="lap_age",
    )
    question = f"How many people are aged {age} or older?"
    truth = model.people_aged_at_least(age)
else:
    condition = userdata.pick_condition(
        "lap_cond",
        default=model.DEFAULT_CONDITION,
        label=f"Count the {noun} where…",
        bind=True,
    )
    if condition is None:  # pick_condition has said why
        st.stop()
    question = (
        f"How many {noun} have {text.plain(condition.column)} = {text.plain(condition.value)}?"
    )
    truth = condition.count
st.markdown(f"**{question}** The true answer is **{truth:,}**.")
st.markdown(
    "Adding or removing one person changes any count by at most 1. That maximum is the "
    "query's *sensitivity*, Δ = 1, and it sets the noise: the Laplace mechanism adds noise "
    "of scale b = Δ/ε."
)
notebook.latex(
    r"""\begin{aligned}
    F(D) &= f(D) + \mathrm{Lap}(b), \\
    b &= \frac{\Delta}{\varepsilon} = \frac{1}{\varepsilon}, \\
    p(z) &= \frac{1}{2b} e^{-|z|/b}.
    \end{aligned}"""
)

# --- 2. Many noisy answers --------------------------------------------------------------------
st.header("2. Many noisy answers")


@dataclass(frozen=True)
class Noise:
    """What the controls set, and the noise's scale and typical error at that ε."""

    epsilon: float
    answers: int
    half_width: float
    typical: float
    relative: float


def choose_noise(truth: int) -> Noise:
    """ε, how many answers, the window; the scale, typical, 95% and relative errors."""
    epsilon = controls.epsilon_slider(key="lap_eps")
    answers = controls.select_slider(
        "Noisy answers to simulate (more → smoother histogram; a real release of n answers "
        "would cost n·ε)",
        options=model.ANSWER_COUNTS,
        value=2_000,
        format_func=lambda n: f"{n:,}",
        key="lap_n",
    )
    zoom_label = controls.radio(
        "Window on the x axis (fixed: it does not move with ε)",
        list(model.ZOOMS),
        index=1,
        key="lap_zoom",
        horizontal=True,
    )
    half_width = model.ZOOMS[zoom_label]
    scale = dp.laplace_scale(1, epsilon)
    typical = dp.laplace_std(1, epsilon)
    relative = dp.normalised_error(typical, truth)
    layout.metrics(
        "lap_noise",
        [
            ("Scale b = 1/ε", text.number(scale)),
            ("Typical error (SD) √2·b", f"±\u00a0{text.number(typical)}"),
            ("95% of answers within ±", text.number(dp.laplace_interval_half_width(scale))),
            ("Relative error (SD / truth)", text.percent(relative)),
        ],
    )
    return Noise(epsilon, answers, half_width, typical, relative)


def typical_error_words(truth: int, noise: Noise) -> None:
    """The 95% window and the median from the Laplace distribution, in numbers."""
    epsilon, typical, relative = noise.epsilon, noise.typical, noise.relative
    notebook.latex(
        r"""\begin{aligned}
        \Pr\big[|\mathrm{Lap}(b)| \le h\big] &= 1 - e^{-h/b} = 0.95 \\
          \Rightarrow\quad h &= b \ln 20, \\
        \text{median } |\mathrm{Lap}(b)| &= b \ln 2.
        \end{aligned}"""
    )
    st.caption(
        "Typical error means one standard deviation everywhere in this app: "
        f"√2·b = {text.number(typical)} here, {text.percent(relative)} of the true count "
        f"{truth:,}. Half of all noisy answers miss by less than the median |noise| b ln 2 = "
        f"{text.number(dp.laplace_median_abs_error(1, epsilon))}."
    )


def under_the_hood(epsilon: float) -> None:
    """Why real libraries add integer noise to a count (Mironov 2012)."""
    with layout.lazy_expander(
        "Under the hood: floating-point noise leaks", key="lap_hood", icon=":material/memory:"
    ) as shown:
        if shown:
            st.markdown(
                "A computer cannot draw a real number: the textbook sampler turns a random "
                "floating-point number into Laplace noise, and which low-order bits can occur "
                "depends on the true answer. Mironov (2012) showed that an attacker can read "
                "the true count from those bits, whatever ε says. So real libraries (OpenDP, "
                "Google's, Tumult) add *integer* noise to a count, or snap the output to a "
                "grid. The toggle above switches this histogram to the discrete Laplace "
                "mechanism:"
            )
        notebook.latex(
            r"\begin{aligned}\Pr[K = k] &= \frac{1 - e^{-\varepsilon}}{1 + e^{-\varepsilon}}\,"
            r" e^{-\varepsilon |k|},\\"
            r"\frac{\Pr[K = k]}{\Pr[K = k + 1]} &= e^{\varepsilon}\ (k \ge 0).\end{aligned}",
            shown=shown,
        )
        if shown:
            st.markdown(
                "Its answers are whole numbers, so there are no low-order bits to leak, and it "
                "is exactly ε-DP for a count. At the same ε its spread is almost the same as "
                f"Lap(1/ε): P[K = 0] = {text.percent(dp.discrete_laplace_pmf(0, epsilon))} here."
            )


@st.fragment
def many_noisy_answers(truth: int) -> None:
    """ε, the number of answers, the window and the noise type beside the histogram they
    drive (a fragment: moving any of them reruns only this section)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        noise = choose_noise(truth)
    epsilon, answers, half_width = noise.epsilon, noise.answers, noise.half_width
    with chart_column:
        # The histogram first, its noise switch under it: on a phone, the column's controls,
        # then the chart must fit on one screen.
        chart_box = st.container()
        discrete = controls.toggle(
            "Integer noise (discrete Laplace)",
            key="lap_discrete",
            help="The noise real libraries add to a count. "
            "See “Under the hood” below the histogram.",
        )
    histogram_seed = controls.seed() + model.SEED_HISTOGRAM
    bins_frame, outside, low, high = model.histogram(
        truth, epsilon, answers, half_width, histogram_seed, discrete
    )
    with chart_box:
        charts.histogram(truth, half_width).show(
            title=f"{answers:,} noisy answers at ε = {text.number(epsilon)}",
            alt=(
                f"Histogram of {answers:,} noisy answers at ε = {text.number(epsilon)} over "
                f"{truth - half_width:,.0f} "
                f"to {truth + half_width:,.0f}. The true count {truth:,} is a dashed line; 95% of "
                f"the answers lie between {text.number(low)} and {text.number(high)}; {outside:,} "
                "fall outside the window."
            ),
            bins=bins_frame,
        )
    with chart_column:
        st.caption(model.outside_words(outside, answers, half_width))
    typical_error_words(truth, noise)
    snippets.HISTOGRAM.show(
        truth=truth,
        epsilon=epsilon,
        answers=answers,
        half_width=half_width,
        bins=model.BINS,
        seed=histogram_seed,
        discrete=discrete,
    )
    under_the_hood(epsilon)
    downloads.download_csv(bins_frame, filename="laplace-histogram.csv", key="laplace_dl_histogram")


many_noisy_answers(truth)

st.subheader("Three values of ε side by side")
st.markdown(
    f"The same {model.SMALL_MULTIPLE_ANSWERS:,} draws at three values of ε, on one shared axis "
    f"(true count ±\u00a0{model.SMALL_MULTIPLE_HALF_WIDTH:,.0f})."
)


@st.fragment
def small_multiples(truth: int) -> None:
    """The same draws at three values of ε (a fragment: opening one's numbers reruns only
    these)."""
    for small_epsilon in model.SMALL_MULTIPLE_EPSILONS:
        small_bins, small_outside, small_low, small_high = model.histogram(
            truth,
            small_epsilon,
            model.SMALL_MULTIPLE_ANSWERS,
            model.SMALL_MULTIPLE_HALF_WIDTH,
            controls.seed() + model.SEED_SMALL_MULTIPLES,
        )
        small_half = dp.laplace_interval_half_width(dp.laplace_scale(1, small_epsilon))
        charts.histogram(truth, model.SMALL_MULTIPLE_HALF_WIDTH, 180).show(
            title=(
                f"ε = {text.number(small_epsilon)}: 95% of answers within "
                f"±{text.number(small_half, 3)}"
            ),
            alt=(
                f"Histogram of {model.SMALL_MULTIPLE_ANSWERS:,} noisy answers at ε = "
                f"{text.number(small_epsilon)}: 95% lie "
                f"between {text.number(small_low)} and {text.number(small_high)}; "
                f"{small_outside:,} fall outside the shared window and are counted in its "
                "edge bins."
            ),
            bins=small_bins,
            numbers_key=f"laplace_small_{small_epsilon}",
        )


small_multiples(truth)

# --- 3. The malicious query -------------------------------------------------------------------
st.header("3. The malicious query")
if not on_census:
    st.info(
        "This section uses the bundled census whatever data you picked: the attack needs "
        "a named person, and only the census has names.",
        icon=":material/info:",
    )

people = model.named_people()
draw_key, guess_key = "laplace_draws", "laplace_guess"


def new_draw() -> None:
    st.session_state[draw_key] = st.session_state.get(draw_key, 0) + 1
    st.session_state[guess_key] = None


@st.fragment
def malicious_query(name: str, secret: int) -> None:
    """This section's own ε beside the two worlds, the draws and guesses, and the accuracy
    curve (a fragment: moving this ε reruns only this section; section 2 keeps its own)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(
            key="lap_attack_eps", label="Privacy loss of this answer, ε"
        )
        accuracy = dp.best_guess_accuracy(epsilon)
        col_b, col_acc = st.columns(2)
        col_b.metric("Scale b of this answer", text.number(dp.laplace_scale(1, epsilon)))
        col_acc.metric("Best guess right", text.percent(accuracy))
        st.caption(
            "The same ε as a slider of its own: section 2 keeps the ε you chose there. "
            "Each dashed or solid curve is where one world's noisy answers fall."
        )
    with chart_column:
        charts.worlds().show(
            title=f"The two possible worlds at ε = {text.number(epsilon)}",
            alt=(
                f"Two Laplace densities at ε = {text.number(epsilon)}, on a log scale from "
                f"{text.number(model.MALICIOUS_X[0])} to {text.number(model.MALICIOUS_X[1])}: "
                "centred on 0 (earns >50K, dashed orange) and on 1 (earns ≤50K, solid blue), "
                f"with the guessing threshold ½. The best guess is right {text.percent(accuracy)} "
                "of the time."
            ),
            worlds=model.worlds_frame(epsilon),
        )

    st.button("Draw one noisy answer", key="laplace_draw", on_click=new_draw, type="primary")
    draws = st.session_state.get(draw_key, 0)
    if draws == 0:
        st.info("Press the button to see one noisy answer, then guess the person's income.")
    else:
        answers = model.malicious_answers(secret, epsilon, controls.seed(), draws)
        answer, average = float(answers[-1]), float(dp.running_average(answers)[-1])
        spent = dp.sequential_composition([epsilon] * draws)
        draw_columns = st.columns(3)
        draw_columns[0].metric(f"Noisy answer #{draws:,}", text.number(answer))
        draw_columns[1].metric(f"ε spent on {draws:,} draw(s): k·ε", text.number(spent))
        draw_columns[2].metric(
            f"Average of the {draws:,} answer(s)",
            text.number(average),
            help="Typical error of the average: "
            f"±\u00a0{text.number(dp.averaged_laplace_std(1, epsilon, draws))}",
        )
        if draws > 1:
            st.caption(
                f"Every press is a fresh release of the same count: {draws:,} draws cost "
                f"{draws:,}·ε = {text.number(spent)}, not ε (sequential composition). "
                "Averaging them shrinks the typical error from ± "
                f"{text.number(dp.laplace_std(1, epsilon))} to "
                f"±\u00a0{text.number(dp.averaged_laplace_std(1, epsilon, draws))} — the averaging "
                "attack of Composition and the budget. A real curator would refuse to answer "
                "again."
            )
        guess = st.radio(
            f"Your guess about {name}",
            ["0 — earns more than \\$50K", "1 — earns \\$50K or less"],
            index=None,
            key=guess_key,
        )
        if guess is not None:
            guessed = int(guess.startswith("1"))
            best = int(answer > 0.5)
            verdict = "Right" if guessed == secret else "Wrong"
            message = (
                f"{verdict}: the true answer is {secret} ({name} earns {people[name]}). "
                f"The best rule — guess 1 when the answer is above ½ — says {best} here."
            )
            if guessed == secret:
                st.success(message, icon=":material/check_circle:")
            else:
                st.error(message, icon=":material/cancel:")

    st.markdown(
        "**How often is the best guess right?** With both worlds equally likely, the best "
        "rule guesses 1 when the answer is above ½. It is wrong only when the noise pushes "
        "the answer across ½, which happens with probability ½·exp(−1/(2b)) in either world:"
    )
    notebook.latex(
        r"""\begin{aligned}
        \Pr[\text{right}] &= 1 - \Pr\big[\mathrm{Lap}(b) > \tfrac12\big] \\
          &= 1 - \tfrac12 e^{-1/(2b)} = 1 - \tfrac12 e^{-\varepsilon/2}.
        \end{aligned}"""
    )
    charts.accuracy().show(
        title=model.accuracy_title(epsilon),
        alt=(
            f"Accuracy of the best guess versus ε from 0.01 to 10: it rises from 50% (a coin "
            f"flip) towards 100%; at ε = {text.number(epsilon)} it is "
            f"{text.percent(accuracy)}."
        ),
        curve=model.accuracy_frame(),
        point=model.point_frame(epsilon),
    )
    snippets.GUESS_ACCURACY.show(epsilon=epsilon)


@st.fragment
def malicious() -> None:
    """The person the attacker asks about, and the attack on that person's count (a
    fragment: another person reruns only this section; its ε reruns only its own)."""
    name = controls.selectbox("The person the attacker asks about", list(people), key="lap_name")
    secret = int(people[name] == "<=50K")
    st.markdown(
        f"**How many people named {name} earn \\$50K or less?** Names are unique, so the true "
        f"answer is 0 or 1 — it *is* {name}'s income band. The count still has sensitivity 1, "
        "so the Laplace mechanism answers it like any other. Can the attacker read the answer?"
    )
    malicious_query(name, secret)


malicious()
downloads.download_csv(
    model.accuracy_frame(), filename="laplace-guess-accuracy.csv", key="laplace_dl_accuracy"
)
st.markdown(
    f"At ε = 0.1 the attacker is right {text.percent(dp.best_guess_accuracy(0.1))} of the time "
    "— barely "
    f"better than a coin. At ε = 1 it is {text.percent(dp.best_guess_accuracy(1.0))}; at ε = 10, "
    f"{text.percent(dp.best_guess_accuracy(10.0))}. The same noise that makes a count of thousands "
    "accurate to a few people hides a single person's answer — if ε is small."
)

quiz.check_yourself(
    "laplace",
    quiz.bank(__file__, "laplace"),
)
