"""Lesson: private training with DP-SGD, accounted with dp-accounting, and attacked."""

import streamlit as st

from lessons.catalogue import by_folder
from lessons.dpsgd import charts, model, snippets, views
from ui import (
    classroom,
    controls,
    datasets,
    downloads,
    dpsgd_setup,
    notebook,
    quiz,
    tables,
    text,
    userdata,
    work,
)

controls.lesson_header(
    "Private training with DP-SGD",
    "Most people meet differential privacy through machine learning: DP-SGD, and the ε on a "
    "model card. You watch one training step clip each person's gradient and add noise, see "
    "what clipping costs, train an income classifier at ε from 0.01 to 10, read the "
    "accountant that turns noise into ε, and attack the models to see what the ε stops.",
)
userdata.census_only_notice(
    "sections 1–6 train on census columns.",
    your_file="Section 7, at the end, trains the same way on your file.",
)
data = model.data()
st.markdown(
    f"The model: logistic regression predicting income > 50K from {len(data.names)} features "
    "(each census category as a yes/no column, and age, education, hours and capital scaled "
    "onto −1 to 1 from their **public** ranges, such as ages 0–100: scaling by the people's "
    "own mean and spread would read their data outside DP-SGD's ε), trained on "
    f"{text.number(len(data.y_train))} people and tested on "
    f"{text.number(len(data.y_test))} others. **Neighbours add or remove one training "
    "example**: DP-SGD's relation, and the one behind a model card's ε."
)

# --- 1. One step, drawn --------------------------------------------------------------------------
st.header("1. One step, drawn")
st.markdown(
    "Each step of DP-SGD (Abadi et al. 2016) draws a batch, computes every person's gradient "
    "gᵢ on their own, **clips** it to length at most C, **sums** the clipped gradients and "
    "adds Gaussian **noise** of standard deviation σC to every coordinate. One person moves "
    "the sum by at most C, so the noise σC hides them. Here: eight census people in a model "
    "with two weights, so that each gradient is an arrow."
)
notebook.latex(
    r"\tilde g = \sum_{i \in B} g_i \cdot \min\Big(1, \frac{C}{\lVert g_i \rVert_2}\Big)"
    r" + \mathcal N\big(0, \sigma^2 C^2 I\big)"
)


@st.fragment
def one_step() -> None:
    """C and σ beside the arrows (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        clip = controls.number_slider(
            "Clip norm C of this step  (smaller → more gradients cut, less noise σC)",
            model.STEP_CLIPS,
            model.DEFAULT_CLIP,
            key="dps_step_clip",
        )
        sigma = controls.number_slider(
            "Noise multiplier σ  (larger → more private)",
            model.SIGMAS,
            model.DEFAULT_SIGMA,
            key="dps_step_sigma",
        )
        frame = model.step_frame(clip, sigma, controls.seed() + model.SEED_STEP)
        summed = model.arrow_length(frame, "sum of clipped")
        st.metric("Length of the clipped sum", text.number(summed))
        st.metric("Noise per coordinate, σC", text.number(sigma * clip))
    with chart_column:
        square = charts.STEP_PRESENTER_PX if classroom.presenting() else charts.STEP_PX
        charts.one_step(square).show(
            title=f"One step: C = {text.number(clip)}, σ = {text.number(sigma)}",
            alt=(
                f"Arrows from the origin: {model.PEOPLE} people's gradients (grey), each "
                f"clipped to length at most {text.number(clip)} (blue, inside the dashed "
                f"circle), their sum of length {text.number(summed)} (black) and the sum with "
                f"noise of standard deviation {text.number(sigma * clip)} (red)."
            ),
            arrows=frame,
            circle=model.clip_circle(clip),
        )
        beyond = model.beyond_the_frame(frame)
        if beyond is not None:
            st.caption(
                f"The noisy sum is {text.number(beyond)} long: it reaches past the frame and "
                "is drawn to its edge. The noise σC is larger than every gradient here."
            )
    downloads.download_csv(frame, filename="dpsgd-one-step.csv", key="dps_dl_step")


one_step()

# --- 2. Clipping ---------------------------------------------------------------------------------
st.header("2. Clipping: bias against noise")


@st.fragment
def clipping() -> None:
    """C beside the gradient norms (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        clip = controls.number_slider(
            "Clip norm C of the training  (smaller → more gradients cut, less noise σC)",
            model.CLIPS,
            model.DEFAULT_CLIP,
            key="dps_clip",
        )
        result = model.clipping(clip)
        st.metric("Gradients shortened", text.percent(result.clipped_share))
        st.metric("Bias of the average gradient", text.percent(result.bias))
        st.metric("Noise on the average gradient (ε = 1)", f"±\u00a0{text.number(result.noise)}")
    with chart_column:
        charts.norms().show(
            title=f"Gradient norms at the start of training, C = {text.number(clip)}",
            alt=(
                f"A histogram of the {text.number(len(data.y_train))} training examples' "
                f"gradient norms at the start of training, from 0 to 4, with C = "
                f"{text.number(clip)} as a dashed line: {text.percent(result.clipped_share)} "
                "of the gradients are longer and get shortened."
            ),
            norms=model.norms_frame(),
            truth=model.clip_rule(clip),
        )
    st.markdown(model.clipping_words(clip, result))


clipping()

# --- 3. Accuracy against ε -----------------------------------------------------------------------
st.header("3. Accuracy against ε")
st.markdown(
    f"Train with C = {text.number(model.DEFAULT_CLIP)}, q = {text.number(dpsgd_setup.SAMPLE_RATE)} "
    f"(a batch of about {text.number(model.expected_batch())}) for "
    f"{dpsgd_setup.EPOCHS} epochs ({text.number(dpsgd_setup.steps())} steps), with the σ that "
    '`dpsgd_noise_multiplier(..., accountant="rdp")` finds for each ε at δ = 10⁻⁵: '
    "calibrated with the Rényi DP accountant, the more cautious of the two in section 4 "
    "(PLD would allow a little less noise for the same ε)."
)
PREDICTIONS = (
    "DP-SGD, wherever they differ",
    "Randomized response, wherever they differ",
    "It depends on ε",
    "About the same at every ε",
)


@st.fragment
def accuracy_against_epsilon() -> None:
    """The prediction, then the trainings' accuracy (a fragment: the 18 trainings run when a
    student first asks for them, once per process)."""
    views.CURVE_WORK.start()  # in the background, once per process: ready before most ask
    train = {"epsilon": 1.0, "learning_rate": model.LEARNING_RATE}
    snippets.TRAIN.note(**train)  # the notebook holds the code before any training is shown
    guess, revealed = quiz.prediction(
        "at the same ε, which model predicts income better, DP-SGD on every column or the "
        "model of Privatized data for ML, trained on randomized-response data?",
        PREDICTIONS,
        guess_key="dps_guess",
        button="Train the models and show",
        button_key="dps_train",
        revealed_key="dps_curve_revealed",
        what="the accuracies",
        icon=":material/model_training:",
    )
    if not revealed:
        return
    view = work.wait_with_bar(views.CURVE_WORK, views.curve_progress_label())
    quiz.prediction_verdict(guess, PREDICTIONS, view.answer, view.explanation)
    charts.accuracy_by_epsilon().show(
        title="Test accuracy against ε", alt=view.short, accuracy=view.curve
    )
    st.markdown(view.long)
    downloads.download_csv(view.curve, filename="dpsgd-accuracy.csv", key="dps_dl_accuracy")
    # the code behind the chart, once the chart is there
    snippets.TRAIN.show(**train)


accuracy_against_epsilon()
previous = by_folder("private_ml")
controls.page_link(previous.path, label=f"Back to {previous.title}", icon=previous.icon)

# --- 4. The accountant ---------------------------------------------------------------------------
st.header("4. The accountant")
SAVINGS = model.pld_savings()
st.markdown(
    "Every step is a subsampled Gaussian mechanism; the **accountant** turns σ, q, the number "
    "of steps and δ into ε. Both curves below come from Google's `dp-accounting`: the privacy "
    "loss distribution (PLD) composes the exact loss of each step numerically, Rényi DP (RDP) "
    "composes an upper bound on it, so PLD's ε is tighter: over the chart's "
    f"{len(SAVINGS)} points (three σ, three numbers of steps) it is "
    f"{text.percent(SAVINGS.min(), 2)} to {text.percent(SAVINGS.max(), 2)} smaller than RDP's "
    f"(median {text.percent(SAVINGS.median(), 2)})"
    + (
        "; at every σ the saving shrinks as the steps add up."
        if all(SAVINGS[sigma].is_monotonic_decreasing for sigma in dpsgd_setup.ACCOUNTANT_SIGMAS)
        else "."
    )
    + f" Section 3's trainings take {text.number(dpsgd_setup.steps())} steps; the chart runs on to "
    f"{text.number(model.STEP_GRID[-1])} to show how ε grows with the length of training "
    "(a longer training at the same σ is a larger ε)."
)


@st.fragment
def accountant() -> None:
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        sigma = controls.number_slider(
            "Noise multiplier σ  (larger → a smaller ε)",
            dpsgd_setup.ACCOUNTANT_SIGMAS,
            dpsgd_setup.DEFAULT_ACCOUNTANT_SIGMA,
            key="dps_acc_sigma",
        )
        curves = model.accountant_curves(sigma)
        last = curves[curves["steps"] == model.STEP_GRID[-1]].set_index("accountant")["epsilon"]
        st.metric(
            f"PLD after {text.number(model.STEP_GRID[-1])} steps", f"ε = {text.number(last['PLD'])}"
        )
        st.metric(
            f"RDP after {text.number(model.STEP_GRID[-1])} steps", f"ε = {text.number(last['RDP'])}"
        )
    with chart_column:
        charts.accountant().show(
            title=f"ε against steps, σ = {text.number(sigma)}, "
            f"q = {text.number(dpsgd_setup.SAMPLE_RATE)}",
            alt=(
                f"Two lines against the number of steps from {model.STEP_GRID[0]} to "
                f"{text.number(model.STEP_GRID[-1])} (log x): ε at δ = 10⁻⁵ from the PLD and "
                f"the RDP accountant of dp-accounting, for σ = {text.number(sigma)} and q = "
                f"{text.number(dpsgd_setup.SAMPLE_RATE)}. After {text.number(model.STEP_GRID[-1])} "
                f"steps: PLD {text.number(last['PLD'])}, RDP {text.number(last['RDP'])}."
            ),
            curves=curves,
        )
    downloads.download_csv(curves, filename="dpsgd-accountant.csv", key="dps_dl_acc")


accountant()
st.markdown(
    "**Never write the accountant yourself.** It is where the bugs live: a subsampling "
    "assumption that the training loop does not keep, a forgotten factor, an order of Rényi "
    "divergence that silently fails. One published example: most implementations shuffle the "
    "data into fixed batches but report the ε of Poisson subsampling, which can understate "
    "ε substantially (Chua et al., *How Private are DP-SGD Implementations?*, ICML 2024). "
    "This lesson's trainer draws every batch by Poisson sampling, as the accounting assumes."
)

# --- 5. Attack the model -------------------------------------------------------------------------
st.header("5. Attack the model")
membership = by_folder("membership")


def _run_attack() -> None:
    st.session_state["dps_attack_run"] = True


st.markdown(
    f"A small study: {model.ATTACK_N} people, trained on until the model fits them almost "
    "perfectly, the setting in which a model memorizes its training people. The attack "
    "(Yeom et al. 2018) flags as a member anyone the model fits with a small loss; the "
    "outsiders are the held-out census. The button trains a non-private model and DP-SGD at "
    + " and ".join(f"ε = {text.number(e)}" for e in model.ATTACK_EPSILONS)
    + ", then attacks each."
)


@st.fragment
def attack_the_model() -> None:
    """The attack on four models, run when asked (a fragment)."""
    st.button(
        "Train on 60 people and attack",
        key="dps_attack",
        on_click=_run_attack,
        icon=":material/target:",
    )
    if not st.session_state.get("dps_attack_run"):
        return
    if views.attack_ready():
        shown = views.attack_view()
    else:
        with st.spinner("Training three models on 60 people and attacking them…"):
            shown = views.attack_view()
    charts.roc(shown.names, False, colours=charts.ATTACK_COLOURS).show(
        title=f"The loss-threshold attack on models trained on {model.ATTACK_N} people",
        alt=shown.description,
        roc=shown.roc,
        truth=model.fpr_rule(),
    )
    tables.written(shown.table)
    st.markdown(
        "The **advantage** is the attack's best TPR − FPR (Yeom et al.); the last column is "
        "the ε that its successes prove with 95% confidence (`epsilon_lower_bound`, as in the "
        "membership lesson). The non-private model leaks; DP-SGD's models leak less, and no "
        "attack can prove more than their ε. The proof only ever runs one way: an attack "
        "that fails does not show a model private."
    )
    below = [a for a in model.attacks() if model.below_diagonal(a) > 0.5]
    if below:
        study_loss, everyone_loss = model.study_difficulty()
        st.caption(
            "Below the diagonal: "
            + ", ".join(a.name for a in below)
            + " fits its training people no better than outsiders, so a small loss marks no "
            "one, and these 60 happen to be a little harder to fit than the census at large "
            f"(mean log-loss {text.number(study_loss)} against {text.number(everyone_loss)} "
            "under the model trained on everyone): the attack then does worse than "
            "guessing. Its best advantage is 0; flipping it would be reading noise."
        )


attack_the_model()
controls.page_link(membership.path, label=f"Back to {membership.title}", icon=membership.icon)

# --- 6. What the ε in a model card means ---------------------------------------------------------
st.header("6. What the ε in a model card means")
st.markdown(
    "“Trained with (ε, δ)-DP, ε = 3, δ = 10⁻⁵” means: for **any one training example**, "
    "the trained weights would have been about as likely without it, up to $e^ε$, except with "
    "chance δ. Read it with its parts:\n"
    "- **the neighbour relation**: add or remove one *example*; a person with 100 examples "
    "is protected only at about 100ε (group privacy), unless the training is per user;\n"
    "- **the sample rate q and the steps**: the ε is for exactly this schedule and this "
    "subsampling; training longer spends more;\n"
    "- **δ**: well below 1/n, or the promise allows a leak of whole examples;\n"
    "- **the accountant**: the same training is a smaller ε under PLD than RDP; both are "
    "upper bounds on the real loss.\n\n"
    "It does **not** say the model is accurate, fair, or that its *predictions* about a "
    "person are private: a model may still predict your income from your other columns. "
    "DP protects your participation, not the facts that everyone's data reveals."
)

# --- 7. Your own file -----------------------------------------------------------------------------
st.header("7. Train on your own file")
PROGRESS_LABEL = "Preparing…"


@st.fragment
def your_file() -> None:
    """Section 3's curve on an uploaded file: trained when asked, with a progress bar."""
    if datasets.on_census():
        st.markdown(
            "Upload a CSV file in the sidebar (**Use your own CSV file**) and this section "
            "trains the same models on it: pick a yes/no question about a row, and DP-SGD "
            "learns to answer it from the other columns, at every ε of section 3."
        )
        return
    target = userdata.pick_condition(
        "dps_up_target", default="", label="Predict from the other columns: is the row's…"
    )
    if target is None:
        return
    problem = model.upload_problem(target)
    st.caption(text.plain(problem.note))
    if problem.data is None:
        st.warning(text.plain(problem.problem), icon=":material/warning:")
        return
    if not views.upload_ready(target):
        slot = st.empty()  # the button goes once the models are trained
        pressed = slot.button(
            f"Train {model.UPLOAD_TRAININGS} models on your file",
            key="dps_up_train",
            icon=":material/model_training:",
        )
        if not pressed:
            st.caption(
                f"{model.UPLOAD_TRAININGS} trainings of {text.number(dpsgd_setup.steps())} steps "
                f"each, in this browser session only: about {views.CURVE_QUIET_S} s on a "
                f"quiet server, up to {views.CURVE_BUSY_S} s while a room is busy; a bar "
                "shows each training."
            )
            return
        bar = st.progress(0.0, text=PROGRESS_LABEL)
        with model.reporting(lambda share, message: bar.progress(share, text=message)):
            view = views.upload_view(target)
        bar.empty()
        slot.empty()
    else:
        view = views.upload_view(target)
    charts.upload_accuracy().show(
        title=f"Test accuracy against ε: {target.label}",
        alt=view.short,
        accuracy=view.curve,
    )
    st.markdown(text.plain(view.long))
    downloads.download_csv(view.curve, filename="dpsgd-your-file.csv", key="dps_dl_upload")


your_file()

quiz.check_yourself(
    "dpsgd",
    quiz.bank(__file__, "dpsgd"),
)
