"""Lesson: the sparse vector technique — AboveThreshold, c positives, and the famous wrong
versions caught by an empirical audit."""

import streamlit as st

from lessons.sparse_vector import charts, model, snippets
from ui import controls, downloads, notebook, quiz, tables, text, userdata, work

controls.lesson_header(
    "The sparse vector technique",
    "An analyst has many questions but only cares about the few whose answer passes a "
    "threshold. Composition would charge for every question; the sparse vector technique "
    "charges only for the ones that pass. You see the census questions and a threshold, the "
    "exact chance that AboveThreshold stops at each question beside 1,000 seeded runs, what "
    "allowing c positives costs and misses, and then six versions of the algorithm, four of "
    "them published: you guess which are broken before an empirical audit measures each.",
)
userdata.census_only_notice("its questions are counts of census people by age and hours.")

# --- 1. The problem ------------------------------------------------------------------------------
st.header("1. The problem: which questions pass the threshold?")
q = model.queries()
st.markdown(
    f"The analyst asks {q.m} counting questions, one per age band: *how many people aged "
    f"a to a + 4 work more than {model.HOURS_OVER} hours a week?* They only want to know "
    "**which bands reach a threshold T**, say to decide where to run a survey. Each count moves "
    "by at most **Δ = 1** when one person is added or removed (add/remove neighbours)."
)


@st.fragment
def answers_chart(q, threshold: float, above) -> None:
    """The true answers and the threshold (a fragment: opening its numbers reruns only this
    chart, not the sections its threshold drives)."""
    frame = model.answers_frame(q, threshold)
    charts.answers_bars().show(
        title="The true answers, and the threshold",
        alt=(
            f"Bars for {q.m} age bands from 17–21 to 87–91: how many people in each work "
            f"more than {model.HOURS_OVER} hours a week, from {text.number(q.answers.min())} "
            f"to {text.number(q.answers.max())}. The threshold T = {text.number(threshold)} "
            f"is a dashed line; {int(above.sum())} bands reach it."
        ),
        answers=frame,
        threshold=model.threshold_rule(threshold),
    )


def threshold_and_answers() -> float:
    """The threshold beside the true answers (not a fragment: sections 2 and 3 use it)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        threshold = controls.number_slider(
            "Threshold T (people)",
            model.THRESHOLDS,
            model.DEFAULT_THRESHOLD,
            key="svt_threshold",
            help="Public, fixed before looking at the data. It is not a privacy setting.",
        )
        above = model.true_positives(q, threshold)
        st.metric("Questions whose true count reaches T", f"{int(above.sum())} of {q.m}")
        st.caption(
            "If the counts were released with Laplace noise at ε each, sequential composition "
            f"would charge {q.m}ε for all {q.m}, whatever the analyst does with them."
        )
    with chart_column:
        answers_chart(q, threshold, above)
    return threshold


threshold = threshold_and_answers()

# --- 2. AboveThreshold ---------------------------------------------------------------------------
st.header("2. AboveThreshold: stop at the first one that passes")
st.markdown(
    "Add noise to the threshold **once**, then to each answer, and stop at the first "
    "answer whose noisy value reaches the noisy threshold. The output is only *which* "
    "question: ⊥ (below) for every one before it, ⊤ (above) for it, and nothing after."
)
notebook.latex(
    r"""\begin{aligned}
    \hat T &= T + \mathrm{Lap}(2\Delta/\varepsilon) &&\text{drawn once} \\
    \text{report } i &= \min\{\, i : a_i + \mathrm{Lap}(4\Delta/\varepsilon) \ge \hat T \,\}
      &&\text{or ⊥ for all}
    \end{aligned}"""
)


@st.fragment
def above_threshold(threshold: float) -> None:
    """ε with the three outcomes' chances and their curves against ε on the left; the chance
    of stopping at each question on the right (a fragment: ε reruns only this section)."""
    control_column, bars_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="svt_eps", default=model.DEFAULT_EPSILON, options=model.EPSILON_OPTIONS
        )
        shares = model.outcome_shares(threshold, epsilon)
        true_stop, false_stop, never = (shares[name] for name in model.OUTCOMES)
        # The curves right under the slider that moves their rule, the numbers after them
        # (they sat 395 px below it)
        charts.win_curves(model.OUTCOMES, y_title="chance").show(
            title="Where AboveThreshold stops, as ε grows",
            alt=(
                "Three lines against ε from 0.001 to 10 on a log axis: the exact chance of "
                "stopping at a question whose count reaches T, at one below T, or never. At "
                f"your ε = {text.number(epsilon)}: {text.chance(true_stop)}, "
                f"{text.chance(false_stop)} and {text.chance(never)}."
            ),
            curves=model.outcome_curves(threshold),
            truth=model.epsilon_rule(epsilon),
        )
        st.metric("Stops at a question whose count is ≥ T", text.chance(true_stop))
        st.metric("Stops at one whose count is < T", text.chance(false_stop))
        st.metric("Never stops", text.chance(never))
    frame = model.stop_frame(threshold, epsilon, controls.seed() + model.SEED_STOPS)
    shown = model.bars_frame(frame, threshold)
    best = int(frame["exact probability"].to_numpy().argmax())
    with bars_column:
        charts.win_bars(len(shown), "chance of stopping there").show(
            title=f"Where AboveThreshold stops at ε = {text.number(epsilon)}, T = "
            f"{text.number(threshold)}",
            alt=(
                f"Horizontal bars, one per question and one for never stopping, for the exact "
                f"chance that AboveThreshold stops there at ε = {text.number(epsilon)}, with "
                f"ticks for the share of {model.RUNS:,} seeded runs. The likeliest outcome is "
                f"{shown['label'].iloc[best]} with "
                f"{text.percent(frame['exact probability'].iloc[best])}."
            ),
            wins=shown,
        )
        threshold_scale, query_scale = model.noise_scales(epsilon)
        st.caption(
            "Bars: the exact chance, $\\prod_{j < i} P[a_j + \\nu_j < \\hat T] \\cdot "
            "P[a_i + \\nu_i \\ge \\hat T]$ integrated over "
            f"T̂ numerically. Black ticks: {model.RUNS:,} seeded runs. Noise: threshold "
            f"Lap({text.number(threshold_scale)}), each answer Lap({text.number(query_scale)})."
        )
    snippets.STOPS.show(
        threshold=threshold, epsilon=epsilon, seed=controls.seed() + model.SEED_STOPS
    )
    downloads.download_csv(frame, filename="above-threshold.csv", key="svt_dl_stops")


above_threshold(threshold)
st.markdown(
    "**Why is the threshold noise drawn once?** The proof (Dwork & Roth, Theorem 3.23) "
    "shifts T̂ by Δ between neighbours: that one shift covers *every* ⊥ answer at once, "
    "whether there are 2 or 2,000, and pays ε/2. The one ⊤ answer pays the other ε/2 with "
    "its own noise, which must cover a shift of 2Δ (the answer and T̂ can move in opposite "
    "directions): hence 4Δ/ε. Redraw the threshold for every question and each ⊥ would "
    "pay on its own — variant E in section 4."
)

# --- 3. Sparse vector with c positives -----------------------------------------------------------
st.header("3. Sparse vector: up to c positives")
st.markdown(
    "To find up to **c** questions that pass, run AboveThreshold again after each ⊤ on the "
    "questions after it, with **fresh threshold noise**, each run at **ε/c**: sequential "
    "composition over the c runs makes ε in all (Dwork & Roth, Algorithm 2). Every noise "
    "scale grows c-fold."
)


@st.fragment
def sparse_vector(threshold: float) -> None:
    """c and its own ε with the costs on the left; misses and false positives against c on
    the right (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        positives = controls.number_slider(
            "Positives allowed c  (more → each costs more noise)",
            model.MAX_POSITIVES,
            model.DEFAULT_POSITIVES,
            key="svt_c",
            kind=int,
        )
        epsilon = controls.epsilon_slider(
            key="svt_c_eps",
            default=0.1,
            options=model.EPSILON_OPTIONS,
            label="Total budget ε for the c positives",
        )
        runs = model.sparse_runs(threshold, epsilon, controls.seed() + model.SEED_SPARSE)
        cost = model.costs(epsilon, positives, q.m)
        st.metric("Sparse vector: the whole run", f"ε = {text.number(cost.sparse)}")
        st.metric(
            f"All {q.m} answers with the same noise",
            f"{q.m} × {text.number(cost.laplace_each)} = {text.number(cost.laplace_all)}",
        )
    with chart_column:
        charts.misses_by_c().show(
            title=f"What c costs in accuracy at ε = {text.number(epsilon)}, "
            f"T = {text.number(threshold)}",
            alt=(
                f"Two lines against c from 1 to {model.MAX_POSITIVES[-1]}, averaged over "
                f"{model.RUNS:,} seeded runs each: true positives missed and false positives "
                f"reported per run. {runs.true_count} of {q.m} questions truly reach T. At "
                f"c = {positives}: {text.number(runs.missed[positives])} missed and "
                f"{text.number(runs.false_positives[positives])} false positives per run."
            ),
            curves=runs.curves,
            truth=model.c_rule(positives),
        )
    threshold_scale, query_scale = model.noise_scales(epsilon, positives)
    cheaper = (
        f"so here the sparse vector is cheaper ({q.m} > 4c = {4 * positives})"
        if cost.sparse_cheaper
        else f"so here releasing every answer would be cheaper ({q.m} ≤ 4c = {4 * positives}), "
        "and tell more"
    )
    st.markdown(
        f"At c = {positives} each AboveThreshold run spends ε/c = "
        f"{text.number(cost.per_positive)}: threshold noise Lap({text.number(threshold_scale)}), "
        f"answer noise Lap({text.number(query_scale)}). Releasing all {q.m} noisy answers with "
        f"that same Lap({text.number(query_scale)}) costs {text.number(cost.laplace_each)} "
        f"each, {text.number(cost.laplace_all)} in all by sequential composition, against "
        f"ε = {text.number(cost.sparse)} for the sparse vector: {cheaper}. The sparse vector's "
        "price does not grow with the number of questions, only with c. (These age bands are "
        "disjoint, so parallel composition could also release all counts at ε; the sparse "
        "vector needs no such structure, and the questions may even be chosen one after "
        "another, after seeing the earlier answers.)"
    )
    downloads.download_csv(runs.curves, filename="sparse-vector-by-c.csv", key="svt_dl_c")


sparse_vector(threshold)

# --- 4. Spot the flaw ----------------------------------------------------------------------------
st.header("4. Spot the flaw")
st.markdown(
    "The sparse vector technique is the most often mis-implemented algorithm in DP. Lyu, Su "
    "& Li (2017) went through the published versions, and several are not private at all. "
    "Here are six. **A** is the algorithm above; B–F each change one thing, all of them "
    f"claim ε = {text.number(model.AUDIT_EPSILON)} with c = 1 and Δ = 1:"
)
for variant, label in model.VARIANT_LABELS.items():
    st.markdown(f"- **{label}**" + (" (as in sections 2 and 3)" if variant == "correct" else ""))
st.caption(
    "B as in Stoddard, Chen & Machanavajjhala 2014; C as in Roth's 2011 lecture notes; D as in "
    "Chen, Xu & Zhou 2015; F as in Lee & Clifton 2014 (Lyu, Su & Li 2017, Figure 1). E redraws "
    "what section 2 says must be drawn once."
)


def _reveal_audit() -> None:
    st.session_state["svt_audit_revealed"] = True


def _hide_audit() -> None:
    st.session_state["svt_audit_revealed"] = False


@st.fragment
def spot_the_flaw() -> None:
    """The student's guess, then the audit (a fragment: guessing and revealing rerun only this
    section)."""
    model.AUDIT_WORK.start()  # in the background, once per process: ready before most ask
    audit = {"variant": "small_query_noise"}
    snippets.AUDIT.note(**audit)  # the notebook holds the code before any audit is shown
    guesses = st.multiselect(
        "Predict first: which versions are **not** ε-DP as claimed?",
        list(model.VARIANT_LABELS),
        format_func=lambda variant: model.VARIANT_LABELS[variant].split(".")[0],
        key="svt_guess",
        on_change=_hide_audit,
        placeholder="Pick the letters you think are broken",
    )
    st.button(
        "Run the audit",
        key="svt_audit",
        on_click=_reveal_audit,
        icon=":material/fact_check:",
        disabled=not guesses,  # as elsewhere: predict first
        help="Runs each version hundreds of thousands of times on a neighbouring pair. "
        "Pick your guess first.",
    )
    if not st.session_state.get("svt_audit_revealed"):
        st.caption("The audit's results appear here once you have made your guess.")
        return
    rows = work.wait_with_bar(model.AUDIT_WORK, model.audit_progress_label())
    chosen = set(guesses)
    right, total = model.guess_score(rows, chosen)
    st.metric("Your guesses that the audit and the theory agree with", f"{right} of {total}")
    labels = tuple(model.audit_bars(rows)["label"])
    charts.audit_bars(labels).show(
        title=f"What the audit measured (each claims ε = {text.number(model.AUDIT_EPSILON)})",
        alt=(
            "Horizontal bars, one per version, for the ε that an empirical audit proves with "
            "probability at least 1 − 10⁻⁶: "
            + "; ".join(f"{r.label.split('.')[0]} {text.number(r.measured)}" for r in rows)
            + f". The claim, ε = {text.number(model.AUDIT_EPSILON)}, is a dashed line."
        ),
        audit=model.audit_bars(rows),
        truth=model.claim_rule(),
    )
    tables.written(model.audit_table_arrow(rows, chosen))
    correct = next(r for r in rows if r.variant == "correct")
    small = next(r for r in rows if r.variant == "small_query_noise")
    value = model.SCENARIO_BY_VARIANT["releases_value"]
    releases = next(r for r in rows if r.variant == "releases_value")
    st.markdown(
        f"**How it works.** Each version runs {text.number(correct.runs)} times on a dataset D and "
        "on a neighbour D′ that the paper's counterexamples suggest, e.g. five questions at 0 "
        "and one at 1 against five at 1 and one at 0 (every answer moves by Δ = 1). ε-DP "
        "demands P[output on D] ≤ $e^ε$ · P[output on D′] for every output; the audit takes "
        "the worst output and replaces each frequency by its Clopper–Pearson bound, so the "
        "measured ε is a **lower bound** that holds with probability 1 − 10⁻⁶ "
        "(`dp.audit_epsilon`). Why 1 − 10⁻⁶ here and 95% in the other audits: this page "
        "audits five versions and lists which ones it catches, so a 5% chance of a wrong "
        "accusation per version would too often blame a correct one; at 10⁻⁶ the verdict "
        "is safe to read one by one."
    )
    st.markdown(
        f"**A** stays at {text.number(correct.measured)}, below its claim (its exact ε on this "
        f"pair is {text.number(correct.exact)}). **B** shows an output that never happens on "
        f"D′: its true ε is ∞, and {text.number(rows[1].measured)} is simply the most that "
        f"{text.number(rows[1].runs)} runs can prove (at most "
        f"{text.number(model.audit_ceiling(rows[1].runs))}). **C, D and E** are private for "
        "no finite ε: their loss grows with the number of questions, so the audit uses a pair "
        f"with many (C: {len(value.d) - 1} below the positive; D and E: 40 questions). "
        f"**F** is only a constant factor off: at most 1.5ε = "
        f"{text.number(1.5 * model.AUDIT_EPSILON)} by the standard proof, "
        f"{text.number(small.exact)} exactly on this pair, and the audit sees "
        f"{text.number(small.measured)}."
    )
    st.markdown(
        "**What an audit cannot do.** It can prove a version broken, never prove one private: "
        "a leak hidden in a rare output needs more runs than anyone can afford. C's leak, for "
        f"one, grows with every ⊥ before the positive, but with {len(value.d) - 1} below it "
        "the telling output (a stop at the last question with a released value ≤ 1.5) came up "
        f"in {text.percent(releases.telling)} of the runs on D, and even "
        f"{text.number(value.runs)} runs prove only {text.number(releases.measured)}. "
        "A version that passes its audit has only not been caught."
    )
    downloads.download_csv(
        model.audit_frame(rows, chosen), filename="sparse-vector-audit.csv", key="svt_dl_audit"
    )
    snippets.AUDIT.show(**audit)


spot_the_flaw()

# --- 5. What it is used for ----------------------------------------------------------------------
st.header("5. What it is used for")
st.markdown(
    "- **Private multiplicative weights** (Hardt & Rothblum 2010; Dwork & Roth §4.2): keep a "
    "synthetic dataset and answer each incoming query from it, using the sparse vector to "
    "spot the few queries it answers badly; only those are measured and paid for. The "
    "*Synthetic data* lesson's MWEM is its offline cousin.\n"
    "- **PATE** (Papernot et al., *Scalable Private Learning with PATE*, ICLR 2018): a private "
    "teacher ensemble labels data for a student model, and a noisy threshold check answers "
    "only the queries on which the teachers clearly agree, so the privacy budget is spent "
    "only where an answer is likely to be right."
)

quiz.check_yourself(
    "sparse_vector",
    quiz.bank(__file__, "sparse_vector"),
)
