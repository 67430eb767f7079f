"""Lesson: membership inference from published statistics, and auditing ε from an attack."""

import streamlit as st

from lessons.membership import charts, model, snippets
from ui import controls, downloads, notebook, quiz, text, tracing, userdata

controls.lesson_header(
    "Membership inference",
    "“Aggregate statistics are safe” is the belief this lesson breaks. A study publishes "
    "only averages, yet an attacker who holds one person's record can tell whether that "
    "person took part. You see members' and non-members' tracing scores pull apart as the "
    "study publishes more averages, watch Laplace and Gaussian noise push the attack back "
    "inside the region that (ε, δ) allows, and then turn the same attack around into an "
    "audit that proves “ε is at least …” for a mechanism, and catches a buggy one.",
)
userdata.census_only_notice("its study and its published averages are built from census columns.")

# --- 1. Tracing from means -----------------------------------------------------------------------
st.header("1. Tracing a person from a study's averages")
st.markdown(
    "A study of **n** census people publishes, for **d** yes/no questions about them, the "
    "share of the study answering yes: d averages, nothing else. The attacker holds one "
    "person's answers t, and the same shares r over a **reference** sample of people known "
    "not to be in the study. Each member pulled the published shares m a little toward "
    "their own answers, so the tracing score"
)
notebook.latex(r"\mathrm{score}(t) = \sum_{j=1}^{d} (t_j - r_j)\,(m_j - r_j)")
st.markdown(
    "is a little higher for members (Homer et al. 2008, in the form of Dwork, Smith, "
    "Steinke, Ullman & Vadhan 2015). The attacker flags whoever scores above the level that "
    "only 1% of non-members reach. One vote is weak; d of them add up."
)
columns = tracing.one_hot_count()
st.caption(
    f"The questions: each census column's categories, with age and hours bands, give "
    f"{columns} yes/no columns, few and strongly tied to each other (everyone has exactly "
    "one education). Like the hundreds of thousands of genetic markers Homer et al. used, "
    "the attack needs many nearly independent ones, so each question asks whether an odd "
    f"number of a fixed random half of a person's {columns} answers are yes."
)


@st.fragment
def noise_defeats_it(n: int, d: int) -> None:
    """The mechanism and ε beside the ROC with and without noise and the region's edge (a
    fragment: they rerun only this section)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        mechanism = controls.radio(
            "Mechanism", list(tracing.MECHANISMS), horizontal=True, key="mi_mechanism"
        )
        epsilon = controls.epsilon_slider(
            key="mi_eps", default=tracing.DEFAULT_EPSILON, options=tracing.EPSILONS
        )
        delta = tracing.DELTA if mechanism == "Gaussian" else 0.0
        noisy = tracing.noisy_attack(
            n, d, mechanism, epsilon, controls.seed() + tracing.SEED_RELEASE
        )
        bound = tracing.most_found(tracing.FPR_TARGET, epsilon, delta)
        scale = tracing.noise_scale(mechanism, n, d, epsilon)
        st.metric(
            f"Members found at 1%, with {mechanism} noise",
            tracing.members_found(noisy.tpr_at_target, n),
        )
        st.metric("The most any attack can find at 1%", text.chance(bound))
        st.caption(
            (
                f"Laplace noise b = Δ₁/ε = {text.number(scale)} on each average."
                if mechanism == "Laplace"
                else f"Gaussian noise σ = {text.number(scale)} on each average (analytic σ, "
                f"δ = {text.number(tracing.DELTA)})."
            )
            + f" Without noise: {text.percent(tracing.attack(n, d).tpr_at_target)}."
        )
    plain = tracing.NO_NOISE
    noisy_name = f"with {mechanism} noise"
    frame = tracing.noisy_roc(
        n, d, mechanism, epsilon, controls.seed() + tracing.SEED_RELEASE, plain, noisy_name
    )
    with chart_column:
        charts.roc((plain, noisy_name), True).show(
            title=f"ROC with {mechanism} noise at ε = {text.number(epsilon)}",
            alt=(
                f"Two ROC curves of the tracing attack (n = {text.number(n)}, d = "
                f"{text.number(d)}): without noise it "
                f"finds {text.percent(tracing.attack(n, d).tpr_at_target)} of members at 1% "
                f"false positives, with {mechanism} noise at ε = {text.number(epsilon)} it "
                f"finds {text.percent(noisy.tpr_at_target)}. The dashed line is the edge of "
                f"the privacy region; at 1% it allows at most {text.chance(bound)}."
            ),
            roc=frame,
            region=tracing.region_frame(epsilon, delta),
            truth=tracing.target_rule(),
        )
    downloads.download_csv(frame, filename="tracing-roc-noise.csv", key="mi_dl_noise")
    st.markdown(
        "The dashed edge is a promise about **every** attack, this one and any cleverer one: "
        "no test of “in the study or not” can climb above it. The noisy curve stays below "
        "it (up to the wobble of a finite sample of people); the curve without noise is "
        "under no such promise. At large ε the region covers nearly the whole square and "
        "promises little."
    )


@st.fragment
def tracing_then_noise() -> None:
    """n and d beside the attack's scores and ROC, then section 2's mechanism that defeats it
    (a fragment: n and d rerun sections 1 and 2, which both use them, and nothing else; the
    mechanism and ε rerun only section 2's own fragment)."""
    predict = st.container()  # "Predict first" above the sliders and the chart that answer it
    study_column, scores_column = st.columns([2, 3], vertical_alignment="top")
    with study_column:
        n = controls.number_slider(
            "People in the study n  (more → each one hides better)",
            tracing.STUDY_SIZES,
            tracing.DEFAULT_STUDY,
            key="mi_n",
            kind=int,
        )
        d = controls.number_slider(
            "Published averages d  (more → easier to trace)",
            tracing.ATTRIBUTE_COUNTS,
            tracing.DEFAULT_ATTRIBUTES,
            key="mi_d",
            kind=int,
        )
        exact = tracing.attack(n, d)
        st.metric(
            f"Members found when {text.percent(tracing.FPR_TARGET)} of non-members are flagged",
            tracing.members_found(exact.tpr_at_target, n),
        )
        one_hot = tracing.one_hot_attack(n)
        st.caption(
            f"With the {columns} one-hot columns published instead, the attack finds "
            f"{text.percent(one_hot.tpr_at_target)} of the {text.number(n)} members at the same 1%."
        )
    with scores_column:
        charts.score_histograms().show(
            title=f"Tracing scores: {text.number(n)} members against {tracing.NON_MEMBERS:,} "
            f"non-members, d = {text.number(d)}",
            alt=(
                f"Two histograms of tracing scores, in standard deviations of the non-members' "
                f"scores from {text.number(tracing.SCORE_DOMAIN[0])} to "
                f"{text.number(tracing.SCORE_DOMAIN[1])}: {text.number(n)} study members and "
                f"{tracing.NON_MEMBERS:,} non-members, for d = {text.number(d)} published "
                "averages. Flagging the "
                f"top 1% of non-members finds {text.percent(exact.tpr_at_target)} of the members."
            ),
            scores=tracing.histogram_frame(exact),
            truth=tracing.threshold_rule(exact),
        )
    other_d = model.neighbour_for_prediction(d)
    with predict:
        quiz.predict_first(
            "membership_predict",
            [
                quiz.Question(
                    f"The study publishes {text.number(other_d)} averages instead of "
                    f"{text.number(d)}, with the same {text.number(n)} people. At 1% false "
                    "positives, the attack finds …",
                    ("more members", "fewer members", "about as many"),
                    correct=model.compare_found(n, d, other_d),
                    explanation=(
                        f"{text.percent(tracing.attack(n, other_d).tpr_at_target)} at d = "
                        f"{text.number(other_d)} against "
                        f"{text.percent(exact.tpr_at_target)} at d = "
                        f"{text.number(d)}. A change within "
                        f"{text.percent(model.found_noise(n, d, other_d))} (two standard errors of "
                        f"the change, the same {text.number(n)} members scored twice) is about as "
                        "many. "
                        "Each average adds a little evidence; the members' lead grows like d/n, "
                        "the noise in the scores like √d, so more averages help only once they "
                        "outgrow the noise, and a share already at 0% or 100% cannot move."
                    ),
                ),
            ],
        )
    # The curves' names are the legend's, part of the chart's spec: they hold no slider's value
    # (the title does), so that a move redraws the chart in place.
    curve = tracing.NO_NOISE
    charts.roc((curve,), False).show(
        title=(
            f"The attack's ROC at n = {text.number(n)}, d = {text.number(d)}: members found "
            "against non-members flagged"
        ),
        alt=(
            f"ROC curve of the tracing attack on {text.number(n)} members and "
            f"{tracing.NON_MEMBERS:,} non-members with d = {text.number(d)}: at 1% false "
            f"positives it finds {text.percent(exact.tpr_at_target)} of the members. The "
            "dotted diagonal is guessing."
        ),
        roc=tracing.roc_frame(exact, curve),
        truth=tracing.target_rule(),
    )
    snippets.TRACING.show(n=n, d=d)
    downloads.download_csv(
        tracing.roc_frame(exact, curve), filename="tracing-roc.csv", key="mi_dl_roc"
    )
    st.markdown(
        f"**Why it works.** A member's answers appear in the average with weight 1/n, so their "
        f"score is higher by about Σ Var(tⱼ)/n ≈ d/(4n) = {text.number(d / (4 * n))}, while "
        f"anyone's score wobbles by about √d/(4√n) = {text.number(d**0.5 / (4 * n**0.5))}: the "
        "lead, in wobbles, grows like √d/√n. Many averages of a small group trace people; few "
        "averages of a large group do not."
    )

    # --- 2. Noise defeats it ---------------------------------------------------------------------
    st.header("2. Noise defeats it")
    l1, l2 = tracing.sensitivities(n, d)
    st.markdown(
        "Publish the averages through a mechanism instead. When one person is **replaced** "
        f"(n is public), each of the d = {text.number(d)} averages moves by at most 1/n = "
        f"{text.number(1 / n)}: Δ₁ = d/n = {text.number(l1)} for Laplace and Δ₂ = √d/n = "
        f"{text.number(l2)} for Gaussian noise. Whatever the attack, (ε, δ)-DP keeps its ROC "
        "inside the **privacy region** (Kairouz, Oh & Viswanath 2015):"
    )
    notebook.latex(
        r"\mathrm{TPR} \le \min\!\big(e^{\varepsilon}\,\mathrm{FPR} + \delta,\;"
        r"1 - e^{-\varepsilon}(1 - \mathrm{FPR} - \delta)\big)"
    )
    noise_defeats_it(n, d)


tracing_then_noise()

# --- 3. Auditing ---------------------------------------------------------------------------------
st.header("3. Auditing: turning the attack into “ε is at least …”")
st.markdown(
    "The region works backwards too. Run a mechanism many times on two neighbouring "
    "datasets, here a count of 1 (D) and of 0 (D′: one person removed), let an attack guess "
    "which one it saw, and count. A rate pair (TPR, FPR) is possible only if"
)
notebook.latex(
    r"\varepsilon \ge \max\Big(\ln\frac{\mathrm{TPR} - \delta}{\mathrm{FPR}},\;"
    r"\ln\frac{1 - \mathrm{FPR} - \delta}{1 - \mathrm{TPR}}\Big)"
)
st.markdown(
    "With finitely many trials, the rates are estimates: replace the TPR by its "
    "Clopper–Pearson lower bound and the FPR by its upper bound, and the result holds with "
    f"{text.percent(model.CONFIDENCE)} confidence (Jagielski, Ullman & Oprea 2020). The "
    "attack here says “D” when the output exceeds 1, a rule fixed before any run."
)


@st.fragment
def audit() -> None:
    """The claimed ε and the number of trials beside the bounds against trials (a
    fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = controls.number_slider(
            "Claimed ε of the count  (← more private)",
            model.AUDIT_EPSILONS,
            1.0,
            key="mi_audit_eps",
        )
        trials = controls.number_slider(
            "Trials on each dataset  (more → a sharper audit)",
            model.TRIALS,
            model.DEFAULT_TRIALS,
            key="mi_trials",
            kind=int,
        )
        result = model.audit_curve(epsilon, controls.seed() + model.SEED_AUDIT)
        st.metric("Honest Lap(1/ε): the audit proves ε ≥", text.number(result.honest[trials]))
        st.metric("Buggy Lap(½/ε): the audit proves ε ≥", text.number(result.buggy[trials]))
    with chart_column:
        charts.audit_bounds().show(
            title=f"What the audit proves, claimed ε = {text.number(epsilon)}",
            alt=(
                f"Two lines against the number of trials from 100 to 1,000,000 on a log axis: "
                f"the ε that the audit proves for an honest Laplace count and for one with "
                f"noise for sensitivity ½, each claiming ε = {text.number(epsilon)}. At "
                f"{text.number(trials)} trials: honest ≥ {text.number(result.honest[trials])}, "
                f"buggy ≥ {text.number(result.buggy[trials])}."
            ),
            bounds=result.frame,
            claim=model.claim_rule(epsilon),
            truth=model.trials_rule(trials),
        )
    caught = result.first_catch(epsilon)
    st.markdown(
        (
            f"The buggy count's noise is for sensitivity ½, so its true ε is "
            f"{text.number(2 * epsilon)}, twice its claim. Its audit passes the "
            f"claim ε = {text.number(epsilon)} from {text.number(caught)} trials on: caught. "
            if caught is not None
            else f"Even {text.number(model.TRIALS[-1])} trials do not catch the buggy count "
            f"at ε = {text.number(epsilon)}. "
        )
        + model.honest_words(result, epsilon)
        + " A lower bound only ever shows a leak; a mechanism that passes has merely not been "
        "caught, by this attack, with these trials."
    )
    snippets.AUDIT.show(epsilon=epsilon, trials=trials)
    downloads.download_csv(result.frame, filename="audit-bounds.csv", key="mi_dl_audit")


audit()

# --- 4. In the world -----------------------------------------------------------------------------
st.header("4. In the world")
st.markdown(
    "- **Genomics, 2008.** Homer et al. (*PLoS Genetics* 4(8): e1000167) showed that a "
    "person's presence in a genome-wide association study can be detected from the "
    "published allele frequencies of many SNPs. Within weeks the NIH and the Wellcome Trust "
    "moved such aggregate data out of open access (Zerhouni & Nabel, “Protecting aggregate "
    "genomic data”, *Science* 322(5898): 44, 2008).\n"
    "- **The U.S. Census, 2020.** The Census Bureau reconstructed person-level records from "
    "its own published 2010 tables and matched many of them to outside data; it adopted "
    "differential privacy for the 2020 census (Abowd, “The U.S. Census Bureau adopts "
    "differential privacy”, *KDD* 2018). The lesson *Reconstruction attacks* shows the "
    "same idea on a small block.\n"
    "- **Machine learning.** The same test, applied to a model's outputs, is how "
    "membership inference attacks and DP audits of trained models work (Shokri et al. 2017; "
    "Jagielski, Ullman & Oprea 2020)."
)

quiz.check_yourself(
    "membership",
    quiz.bank(__file__, "membership"),
)
