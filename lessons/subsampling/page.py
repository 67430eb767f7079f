"""Lesson: subsampling and DP as a test — amplification by Poisson sampling (and why DP-SGD's
per-step ε is small), the trade-off curves of (ε, δ)-DP and Gaussian DP with the
membership attack against them, and DP-SGD's composition by the GDP central limit theorem
against dp-accounting."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.subsampling import charts, model, snippets
from ui import controls, downloads, notebook, quiz, tables, text, userdata

controls.lesson_header(
    "Subsampling and DP as a test",
    "Why DP-SGD can take thousands of steps for a small ε. You run a mechanism on a random "
    "sample and watch its ε shrink, read differential privacy as the best test an attacker "
    "can run (a trade-off between false positives and misses), place the membership "
    "attack against that curve, and compare the Gaussian DP central limit theorem with "
    "Google's accountants on DP-SGD's own schedule.",
)
userdata.census_only_notice("its attack is the membership lesson's, on the census.")
LESSON = {lesson.folder: lesson for lesson in LESSONS}
DPSGD, MEMBERSHIP = LESSON["dpsgd"], LESSON["membership"]

# --- 1. Amplification by subsampling -----------------------------------------------------------
st.header("1. Amplification by subsampling")
st.markdown(
    "Run an ε-DP mechanism not on everyone but on a Poisson sample: each person is kept "
    "with probability q, independently, and nobody learns who was kept. Your record "
    "changes the output only if you were sampled, and an attacker cannot tell whether you "
    "were; under add/remove neighbours the whole is ε'-DP (Balle, Barthe & Gaboardi 2018):"
)
notebook.latex(
    r"""\varepsilon' = \ln\big(1 + q\,(e^{\varepsilon} - 1)\big),\qquad \delta' = q\,\delta
    \qquad(\varepsilon' \approx q\,(e^{\varepsilon} - 1)\ \text{for a small } q).""",
    narrow=r"""\begin{aligned}
    &\varepsilon' = \ln\big(1 + q\,(e^{\varepsilon} - 1)\big),\quad \delta' = q\,\delta, \\
    &\varepsilon' \approx q\,(e^{\varepsilon} - 1)\ \text{for a small } q.
    \end{aligned}""",
)


@st.fragment
def amplification() -> None:
    """ε and q beside ε' against q."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="ss_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="Privacy loss ε of the mechanism",
        )
        q = controls.number_slider(
            f"Sampling rate q  ({controls.MORE_PRIVATE_LEFT})",
            model.SAMPLE_RATES,
            model.DEFAULT_RATE,
            key="ss_q",
        )
        sampled = model.amplified(epsilon, q)
        st.metric("ε' on the sample", text.number(sampled))
        st.metric("q·ε, for comparison", text.number(q * epsilon))
    with chart_column:
        charts.amplification().show(
            title=[
                f"ε = {text.number(epsilon)} on a sample",
                f"◆ at q = {text.number(q)}: ε' = {text.number(sampled)}",
            ],
            alt=(
                f"ε' of an ε = {text.number(epsilon)} mechanism run on a Poisson sample, "
                f"against the sampling rate q from 0.001 to 1 (both axes log), beside q·ε "
                f"and ε. At q = {text.number(q)}: ε' = {text.number(sampled)}, q·ε = "
                f"{text.number(q * epsilon)}."
            ),
            curves=model.amplification_curves(epsilon),
            mark=model.amplification_mark(epsilon, q),
        )
    ratio = sampled / (q * epsilon)
    with predict:
        quiz.predict_first(
            "subsampling_predict",
            [
                quiz.Question(
                    f"An ε = {text.number(epsilon)} mechanism runs on a sample of "
                    f"{text.percent(q)} of the people. How does its ε' compare with q·ε = "
                    f"{text.number(q * epsilon)}?",
                    model.RATIO_BANDS,
                    correct=model.ratio_band(epsilon, q),
                    explanation=(
                        f"ε' = ln(1 + q(exp(ε) − 1)) = {text.number(sampled)}: "
                        f"{text.number(ratio)} times q·ε. For a small q it is close to "
                        f"q(exp(ε) − 1) = {text.number(q * model.growth(epsilon))}, which is "
                        "near q·ε only for a small ε."
                    ),
                )
            ],
        )
    st.markdown(model.here_words(epsilon, q))
    snippets.AMPLIFICATION.show(epsilon=epsilon)
    downloads.download_csv(
        model.amplification_curves(epsilon), filename="amplification.csv", key="ss_dl_sampled"
    )


amplification()

st.subheader("Why DP-SGD's step is cheap, and why its steps are not added up")
chain = model.dpsgd_chain()
st.markdown(
    f"The *{DPSGD.title}* lesson trains for T = {chain.steps} steps on random batches of "
    f"q = {text.percent(chain.q)} of the people, with noise multiplier σ = "
    f"{text.number(chain.sigma)} for (ε = 1, δ = 10⁻⁵). One step's Gaussian noise on everyone "
    f"would cost ε = {text.number(chain.step_epsilon)}; on a "
    f"{text.percent(chain.q)} batch, {text.number(chain.sampled_epsilon)}. Adding the "
    f"{chain.steps} steps up would give {text.number(chain.basic)}, yet the accountant "
    f"proves {text.number(chain.accountant)}: it composes the steps' whole privacy loss "
    "distributions, not their (ε, δ) pairs. The rest of this lesson is about that view."
)
tables.written(model.chain_table())
st.caption(
    "One step on everyone: Gaussian noise σ·C on a sum of gradients clipped to C is "
    "(1/σ)-Gaussian DP, whose ε at the step's δ is dp.gdp_epsilon(1/σ, δ). Each step's δ is "
    "chosen so that the T steps' δ′ add up to 10⁻⁵."
)
controls.page_link(DPSGD.path, label=f"Back to {DPSGD.title}", icon=DPSGD.icon)

# --- 2. DP as a test ---------------------------------------------------------------------------
st.header("2. DP as a test")
st.markdown(
    "An attacker who sees the output tests \u201cyour record is in\u201d against "
    "\u201cit is not\u201d. Any test has a false-positive rate α (it says *in* when you are "
    "out) and a miss rate β (it says *out* when you are in). Differential privacy is exactly "
    "a floor under β at every α: a **trade-off curve** (Dong, Roth & Su 2022). (ε, δ)-DP's "
    "floor is two straight lines; **μ-Gaussian DP**'s is the curve of telling N(0, 1) from "
    "N(μ, 1), which a Gaussian mechanism with Δ/σ = μ meets exactly:"
)
notebook.latex(
    r"""f_{\varepsilon,\delta}(\alpha) = \max\{0,\ 1 - \delta - e^{\varepsilon}\alpha,\
    e^{-\varepsilon}(1 - \delta - \alpha)\},\qquad
    G_\mu(\alpha) = \Phi\big(\Phi^{-1}(1 - \alpha) - \mu\big)""",
    narrow=r"""\begin{aligned}
    &f_{\varepsilon,\delta}(\alpha) = \max\{0,\ 1 - \delta - e^{\varepsilon}\alpha, \\
    &\qquad\qquad e^{-\varepsilon}(1 - \delta - \alpha)\}, \\
    &G_\mu(\alpha) = \Phi\big(\Phi^{-1}(1 - \alpha) - \mu\big)
    \end{aligned}""",
)
st.markdown("μ-GDP gives (ε, δ)-DP for **every** ε, with its own δ (their Corollary 2.13):")
notebook.latex(
    r"""\delta(\varepsilon) = \Phi\Big(-\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big)
    - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big)."""
)


@st.fragment
def as_a_test() -> None:
    """μ and the line's ε beside the trade-off curves and the attack."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        mu = controls.number_slider(
            f"μ of Gaussian DP  ({controls.MORE_PRIVATE_LEFT})",
            model.MUS,
            model.DEFAULT_MU,
            key="ss_mu",
        )
        epsilon = controls.epsilon_slider(
            key="ss_line_eps",
            default=model.DEFAULT_LINE_EPSILON,
            options=model.LINE_EPSILONS,
            label="ε of the (ε, δ) line",
        )
        delta = model.line_delta(mu, epsilon)
        found = model.attack(mu, controls.seed() + model.SEED_ATTACK)
        st.metric(f"δ(ε) at ε = {text.number(epsilon)}", text.power_of_ten(delta))
        st.metric(
            f"Fewest misses at {text.percent(model.FPR_TARGET)} false positives",
            text.percent(found.fewest),
        )
        st.metric("The attack's misses there", text.percent(found.missed))
    with chart_column:
        charts.tradeoff().show(
            title=[
                f"Telling neighbours apart under μ = {text.number(mu)}",
                f"◆ α = {text.percent(model.FPR_TARGET)}: the attack misses "
                f"{text.percent(found.missed)}",
            ],
            alt=(
                f"Trade-off curves, misses β against false positives α, both 0 to 100%: "
                f"μ-GDP's curve for μ = {text.number(mu)}, the (ε = {text.number(epsilon)}, δ = "
                f"{text.power_of_ten(delta)}) edge touching it at α = "
                f"{text.percent(model.touch_alpha(mu, epsilon))}, the coin's diagonal, and "
                f"the tracing attack on a μ-GDP release: at "
                f"{text.percent(model.FPR_TARGET)} false positives it misses "
                f"{text.percent(found.missed)}, no test may miss fewer than "
                f"{text.percent(found.fewest)}."
            ),
            curves=model.tradeoff_frame(mu, epsilon, controls.seed() + model.SEED_ATTACK),
            mark=model.attack_mark(mu, controls.seed() + model.SEED_ATTACK),
        )
    st.markdown(model.test_words(mu, epsilon, found))
    st.markdown(f"**The (ε, δ) pairs μ = {text.number(mu)} gives:** δ at five ε, then ε at two δ.")
    tables.written(model.pairs_table(mu))
    snippets.TRADEOFF.show(mu=mu, epsilon=epsilon)
    downloads.download_csv(
        model.tradeoff_frame(mu, epsilon, controls.seed() + model.SEED_ATTACK),
        filename="tradeoff-curves.csv",
        key="ss_dl_tradeoff",
    )
    controls.page_link(MEMBERSHIP.path, label=f"Back to {MEMBERSHIP.title}", icon=MEMBERSHIP.icon)


as_a_test()

# --- 3. Composition in this view ---------------------------------------------------------------
st.header("3. Composition in this view")
st.markdown(
    "T steps of DP-SGD, each a Gaussian step on a q-sample with noise multiplier σ, are "
    "approximately μ-GDP with the μ below when T is large (Bu, Dong, Long & Su 2020, a "
    "central limit theorem): one number to carry, converted to ε by the δ(ε) above. "
    "Google's dp-accounting instead composes the steps' privacy loss distributions "
    "numerically (PLD: tight up to its discretisation, and never below the truth) or bounds "
    "the loss through Rényi DP (RDP). Where does the "
    "theorem's shortcut hold?"
)
notebook.latex(r"""\mu = q\,\sqrt{T\,\big(e^{1/\sigma^2} - 1\big)}""")


@st.fragment
def composition() -> None:
    """σ, q and T beside ε by the three methods against T."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        sigma = controls.number_slider(
            "Noise multiplier σ  (larger → more private)",
            model.SIGMAS,
            model.DEFAULT_SIGMA,
            key="ss_sigma",
        )
        q = float(
            controls.radio(
                "Sampling rate q",
                model.RATES,
                format_func=lambda r: (
                    f"{text.number(r)}" + (" (the DP-SGD lesson's)" if r == model.RATES[0] else "")
                ),
                key="ss_clt_q",
                horizontal=True,
            )
        )
        steps = controls.number_slider(
            "Steps T  (← more private · less private →)",
            model.STEPS,
            model.DEFAULT_STEPS,
            format_func=lambda s: f"{s:,}",
            key="ss_steps",
            kind=int,
        )
        clt = model.clt_epsilon(sigma, q, steps)
        pld, rdp = model.accountant(sigma, q, steps)
        st.metric(f"μ by the CLT at T = {steps:,}", text.number(model.clt_mu_at(sigma, q, steps)))
    with chart_column:
        charts.composition().show(
            title=f"ε of DP-SGD, σ = {text.number(sigma)}, q = {text.number(q)}",
            alt=(
                f"ε at δ = 10⁻⁵ against the number of steps from 10 to 10,000 (both axes "
                f"log) by the GDP central limit theorem and by the PLD and RDP accountants, "
                f"at σ = {text.number(sigma)} and q = {text.number(q)}. At T = {steps:,}: "
                f"CLT {text.number(clt)}, PLD {text.number(pld)}, RDP {text.number(rdp)}."
            ),
            curves=model.composition_frame(sigma, q),
            truth=model.steps_rule(steps),
        )
    metric_columns = st.columns(3)
    metric_columns[0].metric("ε by the CLT", text.number(clt))
    metric_columns[1].metric("ε by PLD", text.number(pld))
    metric_columns[2].metric("ε by RDP", text.number(rdp))
    st.markdown(model.composition_words(sigma, q, steps))
    snippets.COMPOSITION.show(sigma=sigma, q=q, steps=(steps,))
    downloads.download_csv(
        model.composition_frame(sigma, q),
        filename="dpsgd-epsilon-by-accountant.csv",
        key="ss_dl_composition",
    )


composition()
st.caption(
    "PLD and RDP: dp.dpsgd_epsilon (Google's dp-accounting), computed ahead for every point "
    "of the chart (ui/accountant_table.py; the tests recompute them). RDP's ε is "
    "never below PLD's: both are upper bounds, PLD's the tighter."
)
RENYI = LESSON["renyi"]
controls.page_link(RENYI.path, label=f"Back to {RENYI.title}: how RDP adds up", icon=RENYI.icon)

quiz.check_yourself("subsampling", quiz.bank(__file__, "subsampling"))
