"""What every lesson keeps, one table a row per lesson: each section with its own control is
an @st.fragment (a widget reruns its section, not the page), only the controls that drive
several sections rerun the whole page, and "Check yourself" marks a wrong answer wrong with
its explanation and the right one right."""

from __future__ import annotations

import pytest

import apptest_helpers as helpers
from lesson_rules import PAGE_WIDE
from lessons.catalogue import LESSONS

# The widgets that must each sit inside a fragment, by lesson.
FRAGMENT_KEYS = {
    "beyond_global": ("bg_leak_guess", "bg_eps", "bg_bound", "bg_ptr_eps", "bg_k", "bg_sa_eps"),
    "choosing": ("choose_q_eps", "choose_num", "choose_n", "choose_total_eps", "choose_share"),
    "dpsgd": ("dps_step_clip", "dps_step_sigma", "dps_clip", "dps_acc_sigma"),
    "group_by": (
        "gb_unit_eps",
        "gb_l0",
        "gb_linf",
        "gb_eps",
        "gb_sel_eps",
        "gb_delta",
        "gb_sel_l0",
        "gb_pipe_eps",
        "gb_pipe_delta",
    ),
    "large_domains": ("ld_eps", "ld_live_eps", "ld_eps0", "ld_n"),
    "membership": ("mi_mechanism", "mi_eps", "mi_audit_eps", "mi_trials"),
    "sparse_vector": ("svt_eps", "svt_c", "svt_c_eps", "svt_guess", "svt_audit"),
    "uncertainty": (
        "unc_n",
        "unc_eps",
        "unc_cov_n",
        "unc_cov_eps",
        "unc_clip_eps",
        "unc_group",
        "unc_ratio_eps",
    ),
    "synthetic": ("syn_naive_eps", "syn_pair", "syn_eps", "syn_rounds"),
    # and the split's ten sliders, made in a loop inside its fragment (keys em_share_i,
    # em_weight_i, which this static check cannot read)
    "epsilon_meaning": ("em_eps", "em_prior", "em_attack_eps", "em_unit"),
    "census_topdown": ("ct_rho", "ct_table_rho", "ct_zip3", "ct_cell", "ct_pay_rho"),
    "counting_over_time": ("ot_eps", "ot_day", "ot_tree_day", "ot_event_day"),
    "beyond_k_anonymity": ("bk_age", "bk_zip", "bk_sex", "bk_k", "bk_sensitive"),
    "floating_point": ("fp_eps", "fp_near", "fp_micro_eps", "fp_fix_eps", "fp_bound"),
    "subsampling": ("ss_eps", "ss_q", "ss_mu", "ss_line_eps", "ss_sigma", "ss_clt_q", "ss_steps"),
}

# A wrong answer (quiz key, question, option), a phrase of its explanation, the right answer.
QUIZ_MARKS = {
    "beyond_global": (("beyond_global", 0, 0), "ε = ∞", ("beyond_global", 0, 1)),
    "choosing": (("choosing", 0, 1), "Claim 3.9", ("choosing", 0, 0)),
    "group_by": (("group_by", 1, 1), "3 · 2 = 6", ("group_by", 1, 3)),
    "large_domains": (("large_domains", 1, 1), "g = round(3 + 1) = 4", ("large_domains", 1, 0)),
    "membership": (("membership", 1, 0), "2.7%", ("membership", 1, 1)),
    "sparse_vector": (("sparse_vector", 0, 1), "Theorem 3.23", ("sparse_vector", 0, 0)),
    "uncertainty": (("uncertainty", 2, 0), "b/2", ("uncertainty", 2, 1)),
    "epsilon_meaning": (("epsilon_meaning", 2, 0), "tanh(ε/2)", ("epsilon_meaning", 2, 1)),
    "census_topdown": (("census_topdown", 2, 0), "so σₗ falls by √2", ("census_topdown", 2, 1)),
    "beyond_k_anonymity": (
        ("beyond_k_anonymity", 1, 0),
        "A skewness attack",
        ("beyond_k_anonymity", 1, 1),
    ),
    "floating_point": (
        ("floating_point", 2, 0),
        "the two releases are not independent",
        ("floating_point", 2, 1),
    ),
    "subsampling": (("subsampling", 2, 0), "Φ(Φ⁻¹(1 − α) − μ)", ("subsampling", 2, 1)),
    "counting_over_time": (
        ("counting_over_time", 0, 1),
        "sequential composition gives 100 × 0.1 = 10",
        ("counting_over_time", 0, 2),
    ),
    "synthetic": (
        ("synthetic", 1, 0),
        "Sequential composition over 2T steps",
        ("synthetic_predict", 0, 1),
    ),
}


@pytest.mark.parametrize("folder", sorted(FRAGMENT_KEYS))
def test_every_section_with_its_own_control_is_a_fragment(folder: str) -> None:
    page = f"{folder}/page.py"
    assert helpers.widgets_outside_fragments(page, FRAGMENT_KEYS[folder]) == []


@pytest.mark.parametrize(
    "folder", sorted(lesson.folder for lesson in LESSONS if not lesson.activity)
)
def test_only_controls_that_drive_several_sections_rerun_the_whole_page(folder: str) -> None:
    outside = helpers.widgets_run_outside_fragments(f"{folder}/page.py")
    assert outside == set(PAGE_WIDE.get(folder, {}))


@pytest.mark.parametrize("folder", sorted(QUIZ_MARKS))
def test_quiz_feedback(folder: str) -> None:
    at = helpers.run_lesson(f"{folder}/page.py")
    helpers.assert_quiz_marks(at, *QUIZ_MARKS[folder])


# Lessons that show no dataset's numbers, so an upload changes nothing they say.
NO_DATASET = {
    "renyi": "curves of mechanisms, no data",
    "holdout": "its own random data, made on the page",
    "floating_point": "counts of 0 and 1 only",
    "approximate_dp": "only the file's size n, said as 'the dataset in use'",
}
STAFF_CSV = (
    "staff.csv",
    b"Dept,Remote,Salary\n"
    + b"".join(
        f"{('Sales', 'Support', 'Legal')[i % 3]},{('yes', 'no')[i % 2]},{1000 * i}\n".encode()
        for i in range(1, 61)
    ),
)


@pytest.mark.parametrize(
    "folder", sorted(lesson.folder for lesson in LESSONS if not lesson.activity)
)
def test_after_an_upload_every_lesson_says_whose_numbers_it_shows(folder: str) -> None:
    """With a file uploaded, a lesson either names the file as the dataset in use, or says
    it always uses the bundled census, or shows no dataset at all (NO_DATASET). Private ERM
    and Who pays showed the census's numbers after an upload without a word."""
    at = helpers.hosted_page(f"{folder}/page.py", upload=STAFF_CSV, timeout_s=180)
    uses_file = any(c.value.startswith("Dataset: Your file") for c in at.caption)
    census = any("always uses the bundled census" in i.value for i in at.info)
    assert uses_file or census or folder in NO_DATASET, folder
    assert not (folder in NO_DATASET and (uses_file or census)), folder
