"""Lesson: reconstruction attacks — from published tables back to people."""

import streamlit as st

from lessons.reconstruction import charts, model, snippets
from ui import controls, downloads, notebook, quiz, text, userdata
from ui import tables as ui_tables

controls.lesson_header(
    "Reconstruction attacks",
    "An agency publishes only counts: small tables about a block of neighbours, none of "
    "which mentions a single person. You turn those tables back into the people, find "
    "every dataset they allow, and put names on the records. Then the agency adds Laplace "
    "noise and you watch the attack fall apart as ε shrinks. Last, the theorem behind it "
    "all: answer too many questions too accurately, and the secrets come out.",
)
userdata.census_only_notice(
    "the attack needs ZIP codes, names and birth dates, which your file lacks."
)

# --- 1. The published tables ----------------------------------------------------------------
st.header("1. A block's published tables")
st.markdown(
    "A census *block* is a city block: a handful of households. Our invented ZIP codes hold "
    "9 to 5,230 people, so a block here is a few people of one ZIP code, drawn by the seed. "
    "For each person the agency knows four things — **sex**, **age band**, **race** "
    "(White, Black, or one of the three smaller groups) and **income** (above or below "
    "\\$50K). It never publishes a row. It publishes every *two-way table*: each pair of "
    "attributes, counted. No cell ever combines three facts about anyone."
)
zip_column, size_column = st.columns(2)
with zip_column:
    options = model.zip_options()
    zip_code = controls.selectbox(
        "ZIP code of the block",
        options,
        index=options.index(model.DEFAULT_ZIP),
        key="recon_zip",
    )
with size_column:
    size = controls.number_slider(
        "People in the block (more → more datasets fit the same tables)",
        model.BLOCK_SIZES,
        model.DEFAULT_BLOCK_SIZE,
        key="recon_size",
        kind=int,
    )
seed = controls.seed()
people = model.block(zip_code, size, seed)
tables = model.published(zip_code, size, seed)
if len(people) < size:
    st.caption(f"ZIP {zip_code} has only {len(people)} census people: the block is all of them.")
for row in (model.PAIRS[:3], model.PAIRS[3:]):
    for column, pair in zip(st.columns(3), row, strict=True):
        with column:
            st.markdown(f"**{model.table_title(pair)}**")
            ui_tables.written(model.table_arrow(tables[pair], pair), index=True)
st.caption(
    f"Block of {len(people)} people in ZIP {zip_code}. The published tables, modelled on the "
    "2010 census's block tables (sex by age, and the same by race, and so on)."
)
downloads.download_csv(
    model.published_download(zip_code, size, seed),
    filename="reconstruction-published-tables.csv",
    key="reconstruction_dl_tables",
)


@st.fragment
def names_on_records(zip_code: str, size: int, seed: int, residents: int) -> None:
    """The records linked to the voter list (a fragment: opening its code reruns only this)."""
    linkage = model.linkage(zip_code, size, seed)
    learned = int((linkage["Learned"] == "yes").sum())
    st.metric("Residents whose race and income the attacker learns", f"{learned} of {residents}")
    ui_tables.show(linkage, key="linkage")
    snippets.BLOCK.show(zip_code=zip_code, size=size, seed=seed)


# --- 2. The attack --------------------------------------------------------------------------
st.header("2. The attack: every dataset the tables allow")
st.markdown(
    "The attacker writes the block as unknown counts, one per combination of the four "
    "attributes (2 × 6 × 3 × 2 = 72 combinations), and asks: which counts reproduce all six "
    "tables exactly? An exhaustive search lists every answer. If there is only one, the "
    "tables *are* the data. A person's record is **pinned down** when it is in every "
    "dataset that fits."
)
result = model.attack(zip_code, size, seed)
count_column, pinned_column, right_column = st.columns(3)
count_column.metric("Datasets that fit the tables", model.count_text(result))
pinned_column.metric("People pinned down exactly", f"{result['pinned']} of {result['people']}")
right_column.metric(
    "Right in the first dataset found", f"{result['first_right']} of {result['people']}"
)
if not result["count"]:
    st.info(
        "The search stopped before finding a dataset: these tables allow too many to list. "
        "Try a smaller block."
    )
elif not result["complete"]:
    st.warning(
        f"More than {result['count']:,} datasets fit these tables; the search stopped "
        "counting there, so the number pinned down is an upper bound."
    )
elif result["count"] == 1:
    st.error(
        f"Exactly one dataset fits: all {result['people']} people reconstructed. Publishing "
        "these six tables was publishing the rows."
    )
else:
    st.warning(
        f"{result['count']:,} datasets fit these tables, but {result['pinned']} of the "
        f"{result['people']} records are in every one of them: those people are exposed "
        "anyway."
    )
if result["count"]:
    ui_tables.show(model.reconstructed(zip_code, size, seed), key="records")

st.subheader("Putting names on the records")
st.markdown(
    "The records carry no names. But, as in Why anonymisation fails, the block's residents are "
    "on a public voter list with their sex and date of birth, which gives their age band. "
    "Where every reconstructed record of that sex and age band has the same race and "
    "income, the attacker learns them."
)
names_on_records(zip_code, size, seed, len(people))

# --- 3. The defence -------------------------------------------------------------------------
st.header("3. The defence: noisy tables")
st.markdown(
    "Now the agency adds Laplace noise to every cell before it publishes, and rounds to "
    "whole numbers ≥ 0 (rounding uses only the noisy numbers, so it costs no privacy). "
    "Neighbours are *add or remove one person*: "
    "one person is in one cell of each of the six tables, so all tables together change by "
    "at most 6, and each cell gets"
)
notebook.latex(
    r"\mathrm{Lap}\!\left(\frac{6}{\varepsilon}\right) \quad \text{(the whole release is }"
    r"\varepsilon\text{-DP: } \varepsilon/6 \text{ per table)}"
)
st.markdown(
    "No dataset fits noisy tables exactly any more, so the attacker takes the one whose "
    "tables are *closest*: the smallest total absolute difference, found by an integer "
    "program. Under Laplace noise alone that would also be the most likely dataset, but the "
    "agency rounds and clips at 0, so it is only the closest, not the maximum-likelihood "
    "one. An attacker uses it anyway: it is one cheap, exact computation, and wherever the "
    "noise is small it lands on the true records."
)


@st.fragment
def defence(zip_code: str, size: int, seed: int, exact_share: float) -> None:
    """The ε slider, what the attacker gets at that ε, and the curve it moves along (a
    fragment: moving ε reruns only this section)."""
    curve = model.accuracy_curve(zip_code, size, seed)
    baseline = model.baseline_share(zip_code, size, seed)
    controls_column, chart_column = st.columns([1, 2], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(key="recon_eps", default=1.0)
        defended = model.defence(zip_code, size, seed, epsilon)
        share = defended["right"] / defended["people"]
        st.metric("Noise scale per cell, 6/ε", text.number(defended["scale"]))
        st.metric(
            "Attacker's closest dataset: right", f"{defended['right']} of {defended['people']}"
        )
        st.metric("People in it", f"{defended['guessed_people']:,}")
    with chart_column:
        charts.defence_curve().show(
            curve=curve,
            levels=model.levels_frame(
                levels := (
                    (f"exact tables: {text.percent(exact_share)}", exact_share),
                    (
                        (
                            f"made-up people: {text.percent(baseline)}",
                            f"made-up: {text.percent(baseline)}",
                        ),
                        baseline,
                    ),
                ),
                charts.level_places(curve, "epsilon", levels, with_bars=True),
            ),
            mark=model.mark_frame("epsilon", epsilon, share),
            title=[
                "Reconstruction against ε",
                f"◆ this release at ε = {text.number(epsilon)}: "
                f"{defended['right']} of {defended['people']} right",
            ],
            alt=model.describe_curve(
                curve, exact_share, baseline, epsilon, defended["right"], defended["people"]
            ),
        )
    st.caption(
        f"Blue: the share of the block's people the closest dataset gets exactly right, the "
        f"mean of {model.CURVE_DRAWS} noisy releases per ε (bars: ±\u00a01 standard error). "
        "Made-up people: a block invented from the whole census's mix of the four attributes, "
        "with no table at all. Where the blue line falls to it, the tables tell the attacker "
        "nothing about this block. "
        + (
            "The noise also hides how many people live here: the closest dataset at your ε "
            f"holds {defended['guessed_people']:,} people, not {defended['people']}."
            if defended["guessed_people"] != defended["people"]
            else "At your ε the closest dataset even holds the right number of people, "
            f"{defended['people']}: the noise did not hide how many live here."
        )
    )
    # Sent once opened (Streamlit's lazy expander): six tables no student sees on arrival
    # were a fifth of this page's first render.
    with st.expander(
        "The noisy tables this release publishes", key="recon_noisy_tables", on_change="rerun"
    ) as noisy_tables:
        if noisy_tables.open:
            for row in (model.PAIRS[:3], model.PAIRS[3:]):
                for column, pair in zip(st.columns(3), row, strict=True):
                    with column:
                        st.markdown(f"**{model.table_title(pair)}**")
                        ui_tables.written(
                            model.table_arrow(defended["tables"][pair], pair), index=True
                        )
    downloads.download_csv(
        curve, filename="reconstruction-accuracy-vs-epsilon.csv", key="reconstruction_dl_curve"
    )


defence(zip_code, size, seed, result["first_right"] / result["people"])

# --- 4. Dinur–Nissim ------------------------------------------------------------------------
st.header("4. The theorem behind it: Dinur and Nissim")
st.markdown(
    "Take n people with a secret bit each (here: does this census person earn >50K?). "
    "A curator answers m questions of the form *how many people in this random subset have "
    "the bit?*, each with an error of at most E. The attacker finds the bits that best "
    "explain all the answers (least squares over [0, 1]ⁿ) and rounds them:"
)
notebook.latex(
    r"\hat x = \operatorname*{arg\,min}_{z \in [0,1]^n} \lVert Q z - a \rVert_2^2,"
    r"\qquad \hat x_i \ge \tfrac12 \Rightarrow 1"
)
st.markdown(
    "Dinur and Nissim (2003) proved that with many such queries, any error E much smaller "
    "than √n lets an attacker recover almost every bit. Noise of order √n per answer is the "
    "price of privacy — and the Laplace noise of DP, spread over many queries, pays it."
)


@st.fragment
def dinur_nissim(seed: int) -> None:
    """The three sliders, the attack at their values and the curve over E (a fragment:
    moving a slider reruns only this section)."""
    controls_column, chart_column = st.columns([1, 2], gap="medium")
    with controls_column:
        n = controls.number_slider("People n", model.DN_PEOPLE, 200, key="recon_dn_n", kind=int)
        m = controls.number_slider(
            "Queries m (fewer → less to attack)",
            model.DN_QUERIES,
            1_000,
            key="recon_dn_m",
            kind=int,
        )
        ratio = controls.number_slider(
            "Noise bound E, in units of √n (right → more private)",
            model.DN_RATIOS,
            0.5,
            key="recon_dn_e",
        )
        dn = model.dn_attack(n, m, ratio, seed)
        st.metric("E", text.number(dn["bound"]))
        st.metric("Bits the attack gets right", text.percent(dn["accuracy"]))
    with chart_column:
        dn_curve = model.dn_curve(n, m, seed)
        charts.dinur_nissim_curve().show(
            curve=dn_curve,
            levels=model.levels_frame(
                majority := (
                    (f"guess '<=50K' for all: {text.percent(dn['majority'])}", dn["majority"]),
                ),
                charts.level_places(dn_curve, "ratio", majority, with_bars=False),
            ),
            mark=model.mark_frame("ratio", ratio, dn["accuracy"]),
            title=[
                f"{n:,} people, {m:,} queries",
                f"◆ your E = {text.number(ratio)}·√n: "
                f"{text.percent(dn['accuracy'])} of the bits right",
            ],
            alt=model.dn_description(n, m, ratio, seed),
        )
    st.caption(
        f"√n = {text.number(n**0.5)} for n = {n:,}. With E well below √n the attack recovers "
        "almost every income. More queries average away more noise, so the fall moves right "
        "as m grows; with fewer queries it comes sooner. Once the attack drops under the grey "
        "line it is worse than guessing '<=50K' for everyone, which needs no query at all. "
        "That is why a curator who answers many questions must add noise of order √n or more."
    )
    snippets.DINUR_NISSIM.show(n=n, m=m, seed=seed)
    downloads.download_csv(
        dn_curve, filename="reconstruction-dinur-nissim.csv", key="reconstruction_dl_dn"
    )


dinur_nissim(seed)

# --- 5. The story ---------------------------------------------------------------------------
st.header("5. How this changed the US census")
st.markdown(
    "For the 2010 census the US Census Bureau published more than 150 billion statistics in "
    "180 table sets, most of them down to single blocks, which can hold a single person. "
    "Protecting tables this way rested on an assumption: aggregates are safer than rows. "
    "The Bureau then attacked its own 2010 tables. Using only 34 of the published table "
    "sets, it reconstructed records of block, sex, age, race and ethnicity, and an attacker "
    "could *verify* that every record was right in 70% of all blocks (97 million people). "
    "Linked to other data, the records revealed the race and ethnicity of 3.4 million people "
    "who differ from most of their block, with 95% accuracy. The 2020 census therefore "
    "protected its tables with differential privacy (the TopDown algorithm), which the same "
    "study shows defends against this attack."
)
st.caption(
    "Source: J. M. Abowd, T. Adams, R. Ashmead et al., “The 2010 Census Confidentiality "
    "Protections Failed, Here's How and Why”, US Census Bureau CES Working Paper 23-63 / "
    "NBER Working Paper 31995 (2023), arXiv:2312.11283. The theorem: I. Dinur and "
    "K. Nissim, “Revealing information while preserving privacy”, PODS 2003."
)

quiz.check_yourself(
    "reconstruction",
    [
        *quiz.bank(__file__, "reconstruction"),
        quiz.Question(
            "n = 400 people, many random subset-sum queries. Which noise bound E still "
            "lets the least-squares attack recover nearly every bit?",
            ("E = 2", "E = 100", "E = 400"),
            correct=0,
            explanation=model.quiz_noise_explanation(controls.DEFAULT_SEED),
        ),
    ],
)
