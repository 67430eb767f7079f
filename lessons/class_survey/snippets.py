"""The code behind the projector's chart: the running estimate and its 95% interval from
the class's reported bits (see ui/snippets.py)."""

from ui.snippets import Snippet

RUNNING_ESTIMATE = Snippet(
    "survey_running_estimate",
    "The class survey: the debiased estimate and its 95% interval after each answer",
    """
    import pandas as pd

    import dp

    p, q = $p, $q  # the survey's coins: keep a true yes with p, a true no with q
    reports = $reports  # the reported bits, in arrival order (1 = "yes")
    frame = pd.DataFrame(dp.rr_running_intervals(reports, p, q))
    """,
    {"p": 0.75, "q": 0.75, "reports": [1, 0, 1, 1, 0, 1, 0, 0, 1, 1]},
)
