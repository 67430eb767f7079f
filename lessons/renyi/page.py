"""Lesson: Rényi DP and the accountants — the Rényi divergence of three mechanisms at every
order, composition as addition of curves, and a DP-SGD run's ε from four accountants."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.renyi import charts, model, snippets
from ui import controls, downloads, layout, notebook, quiz, text

controls.lesson_header(
    "Rényi DP and the accountants",
    "A privacy guarantee as a curve instead of a number. You compare the Gaussian, the "
    "Laplace and randomized response through the Rényi divergence at every order α, watch "
    "k releases add up as curves and turn into one (ε, δ), and set four accountants side "
    "by side on a DP-SGD run: the ε each can prove for the same training.",
)
LESSON = {lesson.folder: lesson for lesson in LESSONS}
DPSGD, SUBSAMPLING = LESSON["dpsgd"], LESSON["subsampling"]

# --- 1. Divergence, not a worst case -----------------------------------------------------------
st.header("1. Divergence, not a worst case")
st.markdown(
    "Pure ε bounds the privacy loss ln(P(y)/Q(y)) at every output y, where P and Q are what "
    "a mechanism outputs on two neighbouring datasets. The Gaussian has no such bound: its "
    "loss is unbounded in the tails, which is why it needs a δ. **Rényi DP** (Mironov 2017) "
    "averages the loss instead of taking its worst case, with an order α that says how hard "
    "the average leans on the tails. A mechanism is (α, ε(α))-RDP when, for every pair of "
    "neighbours,"
)
notebook.latex(
    r"D_\alpha(P \,\|\, Q) = \frac{1}{\alpha - 1}"
    r"\ln \mathbb{E}_{y \sim Q}\!\left[\left(\frac{P(y)}{Q(y)}\right)^{\alpha}\right]"
    r" \le \varepsilon(\alpha).",
    narrow=r"\begin{aligned}&D_\alpha(P \,\|\, Q) \le \varepsilon(\alpha),\ \text{where}\\"
    r"&D_\alpha(P \,\|\, Q) = \frac{1}{\alpha - 1}"
    r"\ln \mathbb{E}_{y \sim Q}\!\left[\left(\frac{P(y)}{Q(y)}\right)^{\alpha}\right]."
    r"\end{aligned}",
)
st.markdown(
    "Its guarantee is the whole curve ε(α). For the Gaussian with noise σ (sensitivity 1) "
    "it is the line α/(2σ²); the Laplace's and randomized response's rise towards their "
    "pure ε (Mironov 2017, Prop. 6 and Prop. 5; dp.rdp_gaussian, dp.rdp_laplace, "
    "dp.rdp_randomized_response)."
)


@st.fragment
def divergence() -> None:
    """The pure ε and σ beside the outputs on neighbours; the order α, inside, beside the
    curves (a press on α reruns only `orders`)."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="rd_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="Pure ε of the Laplace and randomized response",
        )
        sigma = controls.number_slider(
            "Gaussian noise σ  (larger → more private)",
            model.SIGMAS,
            model.DEFAULT_SIGMA,
            key="rd_sigma",
        )
    with chart_column:
        charts.distributions().show(
            title=f"Outputs on neighbours, ε = {text.number(epsilon)}, σ = {text.number(sigma)}",
            alt=(
                "The output densities of the Gaussian with σ = "
                f"{text.number(sigma)} and of the Laplace with scale 1/ε = "
                f"{text.number(1 / epsilon)}, each on a count of 0 (solid) and of 1 (dashed), "
                "over outputs from −5 to 6. " + model.rr_words(epsilon)
            ),
            curves=model.distributions(epsilon, sigma),
        )
    orders(epsilon, sigma)
    st.markdown(model.rr_words(epsilon) + " " + model.limits_words(epsilon, sigma))
    snippets.DIVERGENCE.show(epsilon=epsilon, sigma=sigma)


@st.fragment
def orders(epsilon: float, sigma: float) -> None:
    """α beside the three curves ε(α) and their values at α."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        alpha = controls.number_slider(
            "Order α  (larger → closer to the worst case)",
            model.ORDERS,
            model.DEFAULT_ORDER,
            key="rd_alpha",
        )
        found = model.at_orders(alpha, epsilon, sigma).at
        layout.metrics(
            "rd_at",
            [(f"{name}: ε(α)", text.number(found[name], 3)) for name in model.MECHANISMS],
        )
    with chart_column:
        charts.divergence().show(
            title=f"ε(α) at ε = {text.number(epsilon)}, σ = {text.number(sigma)}",
            alt=(
                f"The Rényi divergence ε(α) of three mechanisms against the order α from "
                f"{text.number(model.ORDER_DOMAIN[0])} to {text.number(model.ORDER_DOMAIN[1])} "
                f"(both axes log): the Gaussian with σ = {text.number(sigma)}, a straight "
                f"line; the Laplace and randomized response at pure ε = "
                f"{text.number(epsilon)}, rising towards ε. At α = {text.number(alpha)}: "
                + ", ".join(f"{name} {text.number(found[name], 3)}" for name in model.MECHANISMS)
                + "."
            ),
            curves=model.divergence_curves(epsilon, sigma),
            truth=model.order_rule(alpha),
            mark=model.order_marks(alpha, epsilon, sigma),
        )


divergence()

# --- 2. Composition is addition ----------------------------------------------------------------
st.header("2. Composition is addition")
st.markdown(
    "Run k mechanisms on the same people and their Rényi divergences add, order by order: "
    "the composition is (α, ε₁(α) + … + εₖ(α))-RDP at every α (Mironov 2017, Prop. 1). "
    "Only at the end is the curve turned into one (ε, δ), at the order where it gives the "
    "smallest ε. Two conversions, the classic one and a tighter one that dp-accounting uses:"
)
notebook.latex(
    r"\varepsilon = \min_{\alpha}\ \varepsilon_{\mathrm{RDP}}(\alpha) + "
    r"\frac{\ln(1/\delta)}{\alpha - 1}"
    r"\quad\text{or}\quad"
    r"\min_{\alpha}\ \varepsilon_{\mathrm{RDP}}(\alpha) + \ln\frac{\alpha - 1}{\alpha}"
    r" - \frac{\ln\delta + \ln\alpha}{\alpha - 1}",
    narrow=r"\begin{aligned}\varepsilon &= \min_{\alpha}\ \varepsilon_{\mathrm{RDP}}(\alpha)"
    r" + \frac{\ln(1/\delta)}{\alpha - 1}\ \text{(classic), or}\\"
    r"\varepsilon &= \min_{\alpha}\ \varepsilon_{\mathrm{RDP}}(\alpha)"
    r" + \ln\frac{\alpha - 1}{\alpha} - \frac{\ln\delta + \ln\alpha}{\alpha - 1}"
    r"\end{aligned}",
)
st.markdown(
    "(Mironov 2017, Prop. 3; Balle, Barthe, Gaboardi, Hsu & Sato 2020; dp.rdp_to_dp.) "
    "Against it, the older ways to add up k Gaussian releases at δ = 10⁻⁵: **basic "
    "composition** (each release at δ/k, the ε's added), **advanced composition** (each at "
    "δ/(2k), Dwork, Rothblum & Vadhan 2010, with slack δ/2; or basic at that ε where it is "
    "smaller), and **zCDP** with its simple conversion ρ + 2√(ρ ln(1/δ)) (Bun & Steinke "
    "2016). The k releases together are exactly one Gaussian with noise σ/√k, whose own ε "
    "is the line they all stay above."
)


@st.fragment
def composition() -> None:
    """σ and k beside ε against k by every composition; the prediction above them."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        sigma = controls.number_slider(
            "Noise σ of each release  (larger → more private)",
            model.COMPOSE_SIGMAS,
            model.DEFAULT_COMPOSE_SIGMA,
            key="rd_compose_sigma",
        )
        k = controls.number_slider(
            "Releases k  (more → more privacy spent)",
            model.RELEASES,
            model.DEFAULT_RELEASES,
            key="rd_k",
            kind=int,
        )
        found = model.composed(sigma, k)
        layout.metrics(
            "rd_composed",
            [
                *((name, text.number(found.epsilon[name], 3)) for name in model.COMPOSITIONS),
                (model.EXACT, text.number(found.epsilon[model.EXACT], 3)),
            ],
        )
    with chart_column:
        charts.composition().show(
            title=f"k releases at σ = {text.number(sigma)}",
            alt=(
                f"ε at δ = 10⁻⁵ of k Gaussian releases with noise σ = {text.number(sigma)}, "
                f"against k from 1 to 1,000 (both axes log), by basic and advanced "
                f"composition, zCDP, RDP with each conversion, and exactly. At k = {k:,}: "
                + ", ".join(
                    f"{name} {text.number(found.epsilon[name], 3)}"
                    for name in (*model.COMPOSITIONS, model.EXACT)
                )
                + "."
            ),
            curves=model.composition_curves(sigma),
            truth=model.releases_rule(k),
        )
    best = model.best_method(sigma, model.PREDICT_RELEASES)
    at_100 = model.composed(sigma, model.PREDICT_RELEASES).epsilon
    with predict:
        quiz.predict_first(
            "renyi_predict",
            [
                quiz.Question(
                    f"Gaussian releases with noise σ = {text.number(sigma)}, "
                    f"{model.PREDICT_RELEASES} of them, at δ = 10⁻⁵: which composition "
                    "proves the smallest ε?",
                    model.PREDICT_OPTIONS,
                    correct=model.PREDICT_OPTIONS.index(best),
                    explanation=(
                        f"After {model.PREDICT_RELEASES} releases: "
                        + ", ".join(
                            f"{name} {text.number(at_100[name], 3)}" for name in model.PREDICTED
                        )
                        + f"; exactly, {text.number(at_100[model.EXACT], 3)}."
                    ),
                )
            ],
        )
    orders = ", ".join(
        f"{order:g} at k = {releases:,}" for releases, order in model.best_orders(sigma)[::3]
    )
    st.markdown(
        "**Here** "
        + model.advanced_words(sigma, k)
        + f"RDP's best order is α = {found.order:g}; as k grows it moves down ({orders}): "
        "the more releases, the more the curve's growth weighs against the ln(1/δ)/(α − 1) "
        f"term. For the Gaussian, ρ-zCDP is the RDP curve ρα itself: converted tightly "
        f"(dp.zcdp_to_approx_dp) it gives {text.number(found.tight_zcdp, 3)}, the same as "
        f"RDP's {text.number(found.epsilon[model.RENYI], 3)} up to RDP's grid of orders. "
        "What separates them in the chart is the conversion, not the accounting."
    )
    snippets.COMPOSITION.show(sigma=sigma)
    downloads.download_csv(
        model.composition_curves(sigma), filename="renyi-composition.csv", key="rd_dl_composed"
    )


composition()

# --- 3. The accountants side by side ----------------------------------------------------------
st.header("3. The accountants side by side")
st.markdown(
    f"One step of DP-SGD ({DPSGD.title}) adds Gaussian noise with multiplier σ to a sum of "
    "clipped gradients over a Poisson sample of the data: each person joins a step's batch "
    "with probability q, and the step is the **subsampled Gaussian**. Its RDP curve at "
    "whole orders α is (Mironov, Talwar & Zhang 2019; dp.rdp_subsampled_gaussian)"
)
notebook.latex(
    r"\varepsilon(\alpha) = \frac{1}{\alpha - 1} \ln \sum_{k=0}^{\alpha}"
    r" \binom{\alpha}{k} (1-q)^{\alpha-k} q^{k} e^{(k^2 - k)/(2\sigma^2)},",
    narrow=r"\begin{aligned}\varepsilon(\alpha) &= \frac{1}{\alpha - 1} \ln S,\\"
    r" S &= \sum_{k=0}^{\alpha} \binom{\alpha}{k} (1-q)^{\alpha-k} q^{k}"
    r" e^{(k^2 - k)/(2\sigma^2)},\end{aligned}",
)
st.markdown(
    "and T steps add T such curves. The PLD accountant (dp-accounting, as in the "
    f"{DPSGD.title} lesson) composes each step's whole privacy loss distribution instead and "
    "is tight up to its discretisation. Basic and advanced composition amplify each step's "
    "(ε, δ) by sampling ($\\varepsilon' = \\ln(1 + q(e^{\\varepsilon} - 1))$, "
    "$\\delta' = q\\delta$, the Subsampling lesson's formula) and add them up."
)


@st.fragment
def side_by_side() -> None:
    """σ, q and T beside the four accountants' ε against T."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        sigma = controls.number_slider(
            "Noise multiplier σ  (larger → more private)",
            model.STEP_SIGMAS,
            model.DEFAULT_STEP_SIGMA,
            key="rd_step_sigma",
        )
        q = controls.number_slider(
            f"Sampling rate q  ({controls.MORE_PRIVATE_LEFT})",
            model.RATES,
            model.DEFAULT_RATE,
            key="rd_q",
        )
        steps = controls.number_slider(
            "Steps T  (more → more privacy spent)",
            model.STEPS,
            model.DEFAULT_STEPS,
            key="rd_steps",
            kind=int,
        )
        found = model.accounted(sigma, q, steps)
        layout.metrics(
            "rd_accounted",
            [(model.run_label(name), text.number(found[name], 3)) for name in model.ACCOUNTANTS],
        )
    with chart_column:
        charts.accountants().show(
            title=f"DP-SGD at σ = {text.number(sigma)}, q = {text.number(q)}",
            alt=(
                f"A DP-SGD run's ε at δ = 10⁻⁵ against its steps T from 10 to 10,000 (both "
                f"axes log), noise multiplier σ = {text.number(sigma)}, sampling rate q = "
                f"{text.number(q)}, by basic and advanced composition, RDP and PLD. At T = "
                f"{steps:,}: "
                + ", ".join(f"{name} {text.number(found[name], 3)}" for name in model.ACCOUNTANTS)
                + "."
            ),
            curves=model.accountant_curves(sigma, q),
            truth=model.steps_rule(steps),
        )
    st.markdown(model.gap_words(sigma, q, steps))
    snippets.ACCOUNTANTS.show(sigma=sigma, q=q, steps=steps)


side_by_side()
st.caption(
    "PLD's ε is dp-accounting's PLDAccountant at its default settings, computed ahead of "
    "time for every point of the chart (ui/accountant_table.py; the tests recompute them): "
    "it takes about a second a point."
)
controls.page_link(DPSGD.path, label=f"Where this is used: {DPSGD.title}", icon=DPSGD.icon)
controls.page_link(SUBSAMPLING.path, label=f"More: {SUBSAMPLING.title}", icon=SUBSAMPLING.icon)

quiz.check_yourself("renyi", quiz.bank(__file__, "renyi"))
