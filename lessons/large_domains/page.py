"""Lesson: large domains and shuffling — local hashing, what Apple and Google deployed, and the
shuffle model."""

import streamlit as st

from lessons.large_domains import charts, model, snippets
from ui import controls, downloads, notebook, quiz, text, userdata

controls.lesson_header(
    "Large domains and shuffling",
    "k-ary randomized response gets too noisy and unary encoding too long when a user's "
    "value comes from a large domain: every ZIP code, every web address, every word. You "
    "see where each breaks as k grows, watch 32,561 census people report their ZIP code "
    "through optimal local hashing, read what Apple and Google deployed, and see how "
    "shuffling the reports buys a much smaller central ε.",
)
userdata.census_only_notice("its live survey asks the census people for their ZIP code.")

# --- 1. When k grows -----------------------------------------------------------------------------
st.header("1. When k grows")
st.markdown(
    "**Optimal local hashing** (OLH; Wang, Blocki, Li & Jha 2017): each user picks a random "
    "hash function H from a public family, hashes their value into g buckets, and reports "
    "the bucket through g-ary randomized response, with the hash function's seed. The "
    "server counts, for each candidate v, the users whose report equals H(v)."
)
notebook.latex(
    r"g = \max\big(2, \operatorname{round}(e^\varepsilon + 1)\big),\quad "
    r"p = \frac{e^\varepsilon}{e^\varepsilon + g - 1},\quad q = \frac1g,\quad "
    r"\hat c_v = \frac{C_v - n/g}{p - 1/g}",
    narrow=r"""\begin{aligned}
    g &= \max\big(2, \operatorname{round}(e^\varepsilon + 1)\big),\\
    p &= \frac{e^\varepsilon}{e^\varepsilon + g - 1},\quad q = \frac1g,\\
    \hat c_v &= \frac{C_v - n/g}{p - 1/g}
    \end{aligned}""",
)


@st.fragment
def when_k_grows() -> None:
    """The prediction, then ε beside the errors and the bits against k (a fragment). The
    question sits above the metric and the chart that answer it."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="ld_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        k_star = model.crossover(epsilon)
        g, p, q = model.dp_olh(epsilon)
        st.metric("OLH: buckets g", text.number(g))
        st.metric("GRR beats OUE below k* =", text.number(k_star))
        st.caption(
            f"OLH keeps the bucket with p = {text.number(p)}, any other with q = "
            f"{text.number(q)}. Errors for n = {text.number(model.N_CENSUS)} users, value "
            "held by nobody (f = 0)."
        )
    curves = model.variance_curves(epsilon)
    gap = model.olh_oue_gap(epsilon)
    with chart_column:
        charts.sd_by_k().show(
            title=f"Typical error of one count against k, ε = {text.number(epsilon)}",
            alt=(
                f"Three lines against k from 2 to 100,000 (log axes) at ε = "
                f"{text.number(epsilon)} for {text.number(model.N_CENSUS)} users: k-ary RR's "
                "typical error grows with k, unary encoding's and local hashing's do not, and "
                f"lie on top of each other (within {text.percent(gap)}: OUE drawn wide and "
                f"solid, OLH dotted on it). They cross k-ary RR's at k* = {text.number(k_star)}."
            ),
            curves=curves,
            truth=model.crossover_rule(epsilon),
        )
        charts.bits_by_k().show(
            title="Bits each user sends",
            alt=(
                "Three lines against k (log axes): k-ary RR sends log₂ k bits, unary encoding "
                f"k bits (100,000 at k = 100,000), local hashing a {model.SEED_BITS}-bit seed "
                f"and log₂ g = log₂ {text.number(g)} bits whatever k."
            ),
            curves=curves,
        )
        st.caption(
            "Unary encoding's and local hashing's lines coincide: with g ≈ $e^ε$ + 1 buckets, "
            f"OLH's variance equals OUE's (here within {text.percent(gap)}), for far fewer "
            "bits."
        )
    downloads.download_csv(curves, filename="oracles-by-k.csv", key="ld_dl_k")
    with predict:
        predict_first(epsilon, k_star)


def predict_first(epsilon: float, k_star: float) -> None:
    """Asked above the slider's metric and chart, which give the answer away."""
    quiz.predict_first(
        "large_domains_predict",
        [
            quiz.Question(
                f"At ε = {text.number(epsilon)}, up to about which k does k-ary RR have the "
                "smallest error?",
                tuple(text.number(k) for k in model.GUESS_OPTIONS),
                correct=model.nearest_option(epsilon),
                explanation=(
                    f"$k^* = 3e^ε + 2$ = {text.number(k_star)}: GRR's variance "
                    "$n(e^ε + k − 2)/(e^ε − 1)^2$ grows with k, OUE's $4n e^ε/(e^ε − 1)^2$ does "
                    "not; OLH matches OUE's error with a few dozen bits."
                ),
            )
        ],
    )


when_k_grows()

# --- 2. OLH live ---------------------------------------------------------------------------------
st.header("2. OLH live: every census person reports a ZIP code")
values, candidates, truth = model.zips()
st.markdown(
    f"Each of the {text.number(values.size)} census people holds a five-digit ZIP code, a "
    f"domain of k = {text.number(model.DOMAIN)} values: unary encoding would send "
    f"{text.number(model.DOMAIN)} bits per person, k-ary RR would drown every count in noise. "
    f"With OLH each sends a seed and a bucket, and the server estimates the counts of "
    f"{model.CANDIDATES} candidate ZIPs (a public list of the area's codes)."
)


@st.fragment
def olh_live() -> None:
    """ε beside the estimates of the most common candidates (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="ld_live_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="ε of each person's report",
        )
        result = model.live(epsilon, controls.seed() + model.SEED_OLH)
        st.metric(f"Top-{model.TOP} heavy hitters found", f"{result.found} of {model.TOP}")
        st.metric(
            "± 95% interval on the largest count",
            f"±\u00a0{text.number(1.96 * result.sd_top)}",
        )
        st.caption(
            f"Buckets g = {text.number(result.g)}. Intervals: ±1.96 standard deviations from "
            "`olh_variance`, with each ZIP's true share."
        )
    with chart_column:
        shown = model.shown_rows(result)
        charts.live_estimates().show(
            title=f"OLH estimates of the 20 most common ZIPs, ε = {text.number(epsilon)}",
            alt=(
                f"For the 20 most common of {model.CANDIDATES} candidate ZIP codes: the OLH "
                f"estimate with its 95% interval and the true count as a black tick, at ε = "
                f"{text.number(epsilon)}. The most common, {shown['zip'].iloc[0]}, has "
                f"{text.number(shown['true count'].iloc[0])} people, estimated "
                f"{text.number(shown['estimate'].iloc[0])}. {result.found} of the true top "
                f"{model.TOP} are in the estimated top {model.TOP}."
            ),
            zips=shown,
        )
    snippets.OLH.show(epsilon=epsilon, seed=controls.seed() + model.SEED_OLH)
    downloads.download_csv(result.frame, filename="olh-zip-estimates.csv", key="ld_dl_live")


olh_live()

# --- 3. In the world -----------------------------------------------------------------------------
st.header("3. In the world")
st.markdown(
    "- **Apple** (iOS 10 and macOS 10.12 on, 2016): emoji, QuickType words, Safari "
    "domains and Health data types are collected with a count-mean sketch, a hashed local "
    f"mechanism like OLH, at {model.apple_daily_range()} **per day** per use case (Apple, "
    "*Learning with Privacy at Scale*, Machine Learning Journal, 2017; Apple's "
    "*Differential Privacy Overview*).\n"
    "- **Google** Chrome's **RAPPOR** (Erlingsson, Pihur & Korolova, CCS 2014) hashes a "
    "string into a Bloom filter and applies randomized response to every bit, once "
    "permanently (the lifetime bound ε∞) and again at each report.\n"
    "- **ε per day.** Sequential composition adds the days up: ε = 4 a day is 365 × 4 = "
    "1,460 over a year for a value reported daily, unless the same answer is memoized "
    "(RAPPOR's permanent randomized response) so repeats reveal nothing new. Tang et al. "
    "(*Privacy Loss in Apple's Implementation of Differential Privacy on MacOS 10.12*, "
    "2017) found that the budgets renew every day."
)

# --- 4. The shuffle model ------------------------------------------------------------------------
st.header("4. The shuffle model")
st.markdown(
    "Between the local and the central model: each user randomizes locally at ε₀, and a "
    "**shuffler** (a trusted mixer, or cryptography) strips the names and shuffles the "
    "reports, so the server sees a multiset. Hidden in the crowd, each report is far more "
    "private than ε₀ (Feldman, McMillan & Talwar 2021, Theorem 3.1):"
)
notebook.latex(
    r"\varepsilon = \ln\!\Big(1 + \frac{e^{\varepsilon_0} - 1}{e^{\varepsilon_0} + 1}"
    r"\Big(\frac{8\sqrt{e^{\varepsilon_0}\ln(4/\delta)}}{\sqrt n} + \frac{8 e^{\varepsilon_0}}{n}"
    r"\Big)\Big),\qquad \text{if } \varepsilon_0 \le \ln\frac{n}{16 \ln(2/\delta)}",
    narrow=r"""\begin{aligned}
    \varepsilon = \ln\!\Big(1 &+ \frac{e^{\varepsilon_0} - 1}{e^{\varepsilon_0} + 1}\\
    &\cdot \Big(\frac{8\sqrt{e^{\varepsilon_0}\ln(4/\delta)}}{\sqrt n}
    + \frac{8 e^{\varepsilon_0}}{n}\Big)\Big),\\
    &\text{if } \varepsilon_0 \le \ln\frac{n}{16 \ln(2/\delta)}
    \end{aligned}""",
)


@st.fragment
def shuffle_model() -> None:
    """ε₀ and n beside the central ε against n (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon0 = controls.number_slider(
            "Each user's ε₀  (← more private)",
            model.EPSILON0S,
            model.DEFAULT_EPSILON0,
            key="ld_eps0",
        )
        n = controls.number_slider(
            "Users n  (more → a smaller central ε)",
            model.USERS,
            model.DEFAULT_USERS,
            key="ld_n",
            kind=int,
        )
        result = model.shuffled(epsilon0, n)
        if result.applies:
            st.metric(
                f"Central ε at δ = {text.power_of_ten(model.SHUFFLE_DELTA)}",
                text.number(result.central),
            )
        else:
            st.metric("Central ε", "the bound does not apply")
    with chart_column:
        charts.shuffle_by_n().show(
            title="Central ε after shuffling, against the number of users",
            alt=(
                "Lines against the number of users from 1,000 to 10,000,000 (log axes), one "
                "per ε₀ from 0.5 to 6, each starting where the theorem applies: the central ε "
                f"of the shuffled reports at δ = {text.power_of_ten(model.SHUFFLE_DELTA)}. "
                + (
                    f"At ε₀ = {text.number(epsilon0)} and n = {text.number(n)}: "
                    f"{text.number(result.central)}."
                    if result.applies
                    else f"At ε₀ = {text.number(epsilon0)} the theorem needs n ≥ "
                    f"{text.number(model.bound_n(epsilon0))}."
                )
            ),
            curves=model.shuffle_curves(),
            truth=model.users_rule(n),
        )
    if not result.applies:
        st.warning(
            f"With n = {text.number(n)} users the theorem says nothing at ε₀ = "
            f"{text.number(epsilon0)}: it needs ε₀ ≤ ln(n / (16 ln(2/δ))) = "
            f"{text.number(model.bound_ln(n))}, that is, at least "
            f"{text.number(model.bound_n(epsilon0))} users.",
            icon=":material/info:",
        )
        return
    st.markdown(
        f"**The same central ε, two ways.** A histogram of {model.HIST_K} categories from "
        f"{text.number(n)} shuffled k-ary RR reports at ε₀ = {text.number(epsilon0)} has a "
        f"typical error of {text.number(result.shuffled_sd)} per count. A central curator "
        f"publishing the same histogram with Laplace noise at the same ε = "
        f"{text.number(result.central)} (add/remove: each person in one count) has "
        f"{text.number(result.laplace_sd)}. Shuffling gives a far smaller ε than ε₀, but the "
        "noise was still added locally, so the error is still the local model's: the "
        "analysis is what improved, not the data."
    )


shuffle_model()

quiz.check_yourself(
    "large_domains",
    quiz.bank(__file__, "large_domains"),
)
