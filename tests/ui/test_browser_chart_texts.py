"""A chart's texts stay readable in the states a student reaches with its sliders: none
written over another, none cut at the chart's edge (browser_helpers.CHART_TEXT_CLASHES),
none crossed by a line of the chart (CHART_TEXT_CROSSED); every lesson at its defaults on
three screens: tests/ui/test_browser_sweeps.py.

Each case below was found by pressing every slider of every lesson to both ends and reading
the same check, and failed before its chart was mended."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Page

from browser_helpers import (
    CHART_TEXT_CLASHES,
    CHART_TEXT_CROSSED,
    PHONE,
    PROJECTOR,
    TWO_FRAMES,
    assert_no_exception,
    expect_rerun,
    move_slider_with_keyboard,
    open_page,
)

SCREENS = {
    "laptop": {"width": 1280, "height": 800},
    "presenter": PROJECTOR,
    "presenter-1080": {"width": 1920, "height": 1080},  # presenter mode on a 1080p projector
}

# Any chart of the page reads `shows` once the state's run has been drawn.
DRAWN = """(shows) => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg')]
  .some((svg) => svg.textContent.includes(shows))"""


@dataclass(frozen=True)
class Case:
    lesson: str  # its url path (and a link's state, on a phone or a laptop)
    # (part of a slider's label, or a pattern of it; Home or End: its ends, or an arrow)
    moves: tuple[tuple[str | re.Pattern, str], ...]
    shows: str  # a chart's text in that state
    screen: str = "laptop"  # a key of SCREENS (presenter mode at 1280×720, 1920×1080), or "phone"
    picks: tuple[tuple[str, str], ...] = ()  # (a select box's or radio's key, an option)


CASES = {
    # the chosen ε's label, left of its diamond at the plot's left edge, over the y axis's
    # "50%" (and the coin's label under the diamond): now right of it, the coin's at the right
    "laplace-accuracy": Case("laplace", (("Privacy loss of this answer", "Home"),), "ε = 0.01:"),
    # then, on a phone, right of it: crossed by the curve rising from the coin's line (the
    # diamond's words are the title's now)
    "laplace-accuracy-phone": Case(
        "laplace", (("Privacy loss of this answer", "Home"),), "ε = 0.01:", "phone"
    ),
    # "+ε" and "−ε" both above their lines, which all but meet at ε = 0.01
    "definition-edges": Case("definition", (("ε for the privacy loss", "Home"),), "±0.01"),
    # "your E: 88.6%" over "E = √n", written at the top of its rule
    "reconstruction-root": Case("reconstruction", (("People n", "End"),), "500 people"),
    # "shown half the time: 3,316 users" cut at the chart's right edge
    "group-by-rule": Case("group-by", (("Total budget", "Home"),), "ε = 0.01"),
    # ZIP5's noise "4.47" over its median count "6"
    "census-levels": Case("census-topdown", (("Total ρ", "Home"),), "ρ = 0.05"),
    # ZIP3's noise "4.77" written under its point over ZIP5's count "6" above the next row's,
    # at 32 px a row in presenter mode (found stepping each slider, 2026-12-02): 50 px a row
    "census-levels-presenter": Case("census-topdown?ct_rho=0.2", (), "4.77", "presenter"),
    # "b = 2" right of its rule at the top, crossed by the refusal curve falling from 100%
    # just right of it (ε = 2, presenter mode): at the plot's bottom where the top is crossed
    "beyond-global-ptr-presenter": Case("beyond-global?bg_ptr_eps=2", (), "b = 2", "presenter"),
    # a deployment's long name over the ε of the row below it ("2.64")
    "epsilon-deployments": Case("epsilon-meaning", (), "Mobility Reports"),
    # the window's last tick, "32,600", half past the histogram's edge on a phone
    "laplace-window-phone": Case("laplace", (("Minimum age", "Home"),), "32,600", "phone"),
    # the lowest total's label beside its diamond at the range's end, crossed by the total
    # climbing steeply from it (at ε = 0.01; with everyone): the title says it now
    "clamping-best-low": Case("clamping", (("Privacy loss ε", "Home"),), "U = 500"),
    "clamping-best-high": Case("clamping", (("People in the data", "End"),), "U = 100,000"),
    # "shown half the time" at the 50% line's right end, crossed by the Laplace threshold's
    # curve rising through it near 1,100 users at ε = 0.01 (ui.charts.level_label_places)
    "group-by-half": Case("group-by", (("ε of the selection", "Home"),), "ε = 0.01"),
    # "your group: 20" at the top of its rule, crossed by the ratio's bias drawn along the
    # plot's top at ε = 0.01: at the bottom now (ui.charts.rule_label_at_bottom)
    "uncertainty-group-rule": Case("uncertainty", (("ε of the mean", "Home"),), "your group: 20"),
    # your (ε, δ)'s label right of its diamond at ε = 0.1, crossed by the dashed tail falling
    # past it: the diamond's words are the title's now
    "approximate-dp-mark": Case("approximate-dp", (("Privacy loss ε", "Home"),), "(0.1, 10⁻⁵)"),
    # on a phone, the crossover's label at the top crossed by advanced composition's climb
    # (at the bottom now: ui.charts.rule_label_at_bottom); "ε = 8.206" left of its diamond
    # and above it, crossed by the simple conversion's curve (under it now)
    "approximate-dp-crossover-phone": Case(
        "approximate-dp", (("Noise SD per answer", "Home"),), "cheaper from k = 25", "phone"
    ),
    "approximate-dp-conversion-phone": Case(
        "approximate-dp", (("δ for the conversion", "Home"),), "ε = 8.206", "phone"
    ),
    # "S = 1.506" beside the smooth sensitivity's diamond at ε = 10, crossed by A⁽ᵏ⁾ rising
    # from the same corner (in the title now); on a phone, "n = 101" at the top of its rule
    # crossed by global Laplace's flat error at ε = 0.1 (at the bottom now)
    "beyond-global-smooth-peak": Case("beyond-global", (("Privacy loss ε", "End"),), "S = 1.506"),
    "beyond-global-n-phone": Case(
        "beyond-global", (("Privacy loss ε", "Home"),), "at ε = 0.1", "phone"
    ),
    # at ε = 0.1 the noisy lines run through the whole dashboard, over "day 365" at its
    # top (the title names the day now), and the increments' error climbs through it in the
    # errors' chart (at the bottom now)
    "counting-over-time-day": Case("counting-over-time", (("Privacy loss ε", "Home"),), "day 365"),
    # "0.0%" right of a bar of 0, crossed by the ceiling's rule at 5% (ε = 0.1); "96.3%"
    # right of its bar, by the rule at 98.7% (ε = 5): past the rule, or left of the bar's end
    "floating-point-values": Case("floating-point", (("ε of the three", "Home"),), "0.0%"),
    "floating-point-values-end": Case("floating-point", (("ε of the three", "End"),), "96.3%"),
    # "ε = 10" at the top of its rule, where both bounds reach 100% (a phone; at the bottom
    # now: ui.charts.rule_label_at_bottom)
    "epsilon-meaning-rule-phone": Case(
        "epsilon-meaning", (("Privacy loss ε", "End"),), "ε = 10", "phone"
    ),
    # on a projector: "ε' = 5.399" above its diamond at ε = 10, crossed by ε's own line, and
    # "ε' = 0.001717" at q = 0.001 by q·ε's (in the title now); clamping's "m = 22" a line
    # above its diamond, over "your m = 10" at ε = 0.01 (in the title now)
    "subsampling-mark-presenter": Case(
        "subsampling", (("Privacy loss ε of the mechanism", "End"),), "5.399", "presenter"
    ),
    "subsampling-rate-presenter": Case(
        "subsampling", (("Sampling rate q", "Home"),), "0.001717", "presenter"
    ),
    "clamping-rows-presenter": Case(
        "clamping", (("ε for the visit count", "Home"),), "m = 22", "presenter"
    ),
    # "λ = 0.0001" at the top of its rule, where the bound 2/(nλ) starts (at the bottom now)
    "private-erm-lambda-presenter": Case(
        "private-erm", (("λ (larger → a stabler", "Home"),), "0.0001", "presenter"
    ),
    # on a projector: "15%" under the group's diamond met the prior's line just below it
    # (the value is in the title now); "FPR 1%" at the top of its rule, in the no-noise ROC
    # curve's corner (above the plot now, where no line runs)
    "composition-group-presenter": Case(
        "composition", (("Group size g", "Home"),), "15%", "presenter"
    ),
    "membership-roc-presenter": Case(
        "membership", (("People in the study n", "Home"),), "FPR 1%", "presenter"
    ),
    # a category's two "»" (raw and projected, cut at the axis's edge, 9 px apart in height)
    # written over each other at ε = 0.01: the second series' mark steps inside its bar
    "kary-edges-presenter": Case("kary-rr", (("Privacy loss ε", "Home"),), "ε = 0.01", "presenter"),
    # the first ZIP's label pushed inside the axis (Streamlit's labelFlush) onto the second's
    # at the projector's font
    "large-domains-zips-presenter": Case("large-domains", (), "98475", "presenter"),
    # (floating point's ceiling: test_the_ceilings_label_is_above_the_bars below)
    # the smooth sensitivity at ε = 10 written with 60 zeros, past the chart's edge
    "beyond-global-smooth-phone": Case(
        "beyond-global",
        (("People in the group", "End"), ("Privacy loss ε", "End")),
        "everyone (32,561), ε = 10",
        "phone",
    ),
    # "half the count" written across by the line √2/(ε·count) falling through it at the
    # plot's left end, on a phone from ε = 0.3 on (found at random states, 2026-12-02); the
    # label's "Privacy loss ε" from its start: "Model's privacy loss ε" holds it too
    "who-pays-note-phone": Case(
        "who-pays", ((re.compile(r"^Privacy loss ε"), "ArrowRight"),), "half the count", "phone"
    ),
    # "prior 5%" at the line's right end, crossed by the worst-case curve hugging the line
    # (1-3 points above it at ε = 0.05) and under the chosen g's diamond (found at random
    # states, 2026-12-02): now where neither runs (composition.charts.prior_place)
    "composition-prior-phone": Case(
        "composition",
        (("ε per person", "ArrowLeft"),) * 6
        + (("Group size g", "ArrowRight"),) * 5
        + (("Attacker's belief before", "ArrowLeft"),),
        "prior 5%",
        "phone",
    ),
    # at ε = 0.07 on a phone: the legend (inside the plot, top left) crossed by your ε's
    # rule, "your ε = 0.07: 50.9%" by the curve rising through it, and from 0.02 to 0.07
    # "coin toss: 50%" by the rule (found stepping each slider, 2026-12-02): the legend is
    # under the plot, the rates in the title, the coin's label at the far end of its line
    "anonymisation-success-phone": Case("anonymisation?anon_eps=0.07", (), "coin toss", "phone"),
    "anonymisation-success-coin-phone": Case(
        "anonymisation?anon_eps=0.03", (), "coin toss", "phone"
    ),
    # "ε = 0.07: 10.6%" right of its diamond, touched by the curve rising through its right
    # end (found stepping each slider, 2026-12-02): the diamond's words are the title's
    "definition-posterior-phone": Case("definition?def_post_eps=0.07", (), "prior 10%", "phone"),
    # your ε's label at the top of its rule, crossed by the winner's curve climbing to 100%
    # right of the rule (ε = 0.05) and running along the top left of it (ε = 0.3), on a phone
    # (found stepping each slider, 2026-12-02): now above the plot's top edge
    "choosing-winner-phone": Case("choosing?choose_eps=0.05", (), "ε = 0.05", "phone"),
    "choosing-winner-left-phone": Case("choosing?choose_eps=0.3", (), "ε = 0.3", "phone"),
    # with p ≠ q the shorter bar's number, "0.2231", written on the ε line (found stepping
    # each slider, 2026-12-02): now from the line on
    "binary-rr-reveals-phone": Case("binary-rr?brr_p=0.4", (), "0.2231", "phone"),
    # p close to q: whiskers past the axis, each marked "«" or "»" at the plot's left edge,
    # where the cut whisker ran through the mark (found stepping each slider, 2026-12-02):
    # now an arrowhead at each cut end
    "unary-estimates-cut-phone": Case("unary-encoding?ue_p=0.21", (), "Adm-clerical", "phone"),
    # your δ's words beside its diamond, "δ = 10⁻⁸: 0.0326%", through the curve's rise and the
    # 1/n rule on a phone (found at random states, 2026-12-02; the link opens that state,
    # three sliders share the label "δ"): now in the title
    "approximate-dp-exposure-phone": Case(
        "approximate-dp?ad_n_delta=1e-08", (), "0.0326%", "phone"
    ),
    # "ε = 0.1" crossed by the curve of ε = 0.07, within a factor of 2 above it (found at
    # random states, 2026-12-02): now under its own curve
    "kary-variance-phone": Case(
        "kary-rr", (("ε for the variance curve", "ArrowLeft"),) * 5, "(ε = 0.07)", "phone"
    ),
    # the local line's label over the census size's, both at the plot's top
    "central-local-size-phone": Case(
        "central-vs-local", (("ε for the comparison by n", "Home"),), "32,561", "phone"
    ),
    # a column header of four words on four lines, the last two over the first row's counts
    "synthetic-headers": Case(
        "synthetic", (), "age band × education", picks=(("syn_pair", "age band × education"),)
    ),
    # "Amer-Indian-Eskimo" in the legend's second column, past the chart's edge
    "choosing-legend": Case(
        "choosing", (), "Amer-Indian-Eskimo", picks=(("choose_column", "Race"),)
    ),
    # your ε's label over the "without them" line's label at ε = 0.01 (privatized data for ML;
    # since 2026-12-02 the diamond's words are the title's)
    "private-ml-gap": Case(
        "private-ml", (("ε for the coefficients", "Home"),), "14.9 points", "phone"
    ),
    # a bit's chance to four digits (".3775") in each of 14 cells of ~20 px on a phone
    "unary-journey-phone": Case(
        "unary-encoding", (), "q = 0.3775", "phone", picks=(("ue_mode", "SUE (symmetric)"),)
    ),
    # occupation's 14 labels in 19-px rows at the projector's 19-px font
    "kary-occupations-presenter": Case("kary-rr", (), "Transport-moving", "presenter"),
    # the crossover's label a 14-px line above the attribute's, at a 17-px font
    "unary-rules-presenter": Case("unary-encoding", (), "k* = 10.15", "presenter"),
    # Presenter mode at the sliders' ends (its texts 17/11 larger, their offsets were not):
    # "this release: 3 of 12" over "made-up people: 31.9%"; at ε = 0.01 (laptop),
    # "this release: 1 of 10" crossed by the curve's error bar at 0.25 (in the title now)
    "reconstruction-release-edge": Case("reconstruction", (("Privacy loss", "Home"),), "1 of 10"),
    # on a phone, reference lines' labels crossed by the curve (ui.charts.level_label_places):
    # "made-up people: 17.6%" at 6 people, climbed through at ε ≈ 0.5; "guess '<=50K' for
    # all" fallen through at E ≈ 2.5·√n by n = 50's curve and by m = 2,000's
    "reconstruction-made-up-phone": Case(
        "reconstruction", (("People in the block", "Home"),), "made-up people: 17.6%", "phone"
    ),
    # at 12 people the curve crosses 31.9% three times and its bars span it: the level's
    # shorter words, "made-up: 31.9%", right above the line (ui.charts.placed_level_labels)
    "reconstruction-made-up-12-phone": Case(
        "reconstruction", (("People in the block", "End"),), "5 of 12 right", "phone"
    ),
    "reconstruction-majority-phone": Case(
        "reconstruction", (("People n", "Home"),), "50 people", "phone"
    ),
    "reconstruction-queries-phone": Case(
        "reconstruction", (("Queries m", "End"),), "2,000 queries", "phone"
    ),
    "reconstruction-release-presenter": Case(
        "reconstruction", (("People in", "End"), ("Privacy loss", "Home")), "release", "presenter"
    ),
    # "your E: 72%" over "guess '<=50K' for all: 78.2%", then crossed by the curve: the
    # diamond's words are the title's now
    "reconstruction-majority-presenter": Case(
        "reconstruction", (("People n", "End"), ("Queries m", "Home")), "500 people", "presenter"
    ),
    # your ε's label left of its diamond at the plot's left edge, over the y axis's "20%"
    "definition-belief-presenter": Case(
        "definition", (("ε of the output", "Home"),), "ε = 0.01: 10.1%", "presenter"
    ),
    # "GRR" over "OUE", both above their lines' ends, which meet near k = 1,024 at ε = 5
    "unary-ends-presenter": Case(
        "unary-encoding", (("ε to compare", "End"),), "Variance versus k (ε = 5)", "presenter"
    ),
    # "local sd ± 18,045" right of its rule, past the chart's right edge
    "central-local-sd-presenter": Case(
        "central-vs-local", (("Privacy loss ε", "Home"),), "±\u00a018,045", "presenter"
    ),
    # ε = 10: "central sd ± 0.1414" right of its rule crossed by the local outline's tallest
    # bin, with no room on its left: in the title (lessons/central_vs_local typical_sides;
    # a title is drawn with plain spaces, ui.template.title_lines)
    "central-local-sd-10-presenter": Case(
        "central-vs-local", (("Privacy loss ε", "End"),), "± 0.1414", "presenter"
    ),
    # ε = 0.1 on a phone: "k* = 5.316" written rightwards over occupation's rule at k = 14,
    # with no room on its left: "k*" beside it, its value in the subtitle
    "unary-crossover-phone": Case(
        "unary-encoding", (("ε to compare", "Home"),), "Variance versus k (ε = 0.1)", "phone"
    ),
    # μ = 4 on a phone: "misses 72%" beside the attack's diamond crossed by the coin's
    # diagonal (the diamond's words are the title's second line now)
    "subsampling-tradeoff-phone": Case(
        "subsampling", (("μ of Gaussian DP", "End"),), "under μ = 4", "phone"
    ),
    # the place found for the page's font, a line above the level's label, was none at 17 px
    "private-ml-gap-presenter": Case(
        "private-ml", (("ε for the coefficients", "Home"),), "14.9 points", "presenter"
    ),
    # "(b) at your ε: 78.2%" between (a)'s label and (c)'s line, a projector's line from
    # neither
    "private-ml-accuracy-presenter": Case(
        "private-ml", (("Privacy loss ε", "Home"),), "78.2%", "presenter"
    ),
    # beside its diamond on a phone "(b) at your ε: 78.2%" (ε = 0.07) and "(b): 14.8 points"
    # were crossed by the curve or its error bar (found stepping each slider, 2026-12-02):
    # the diamonds' words are the titles' now
    "private-ml-accuracy-phone": Case("private-ml?pml_eps=0.07", (), "78.2%", "phone"),
    "private-ml-gap-phone": Case("private-ml?pml_model_eps=0.07", (), "14.8 points", "phone"),
    # "your m = 1" at the top of its rule, where the total error starts at the plot's top
    # corner and falls slowly across a 1080p projector's wide plot (found stepping each
    # slider at 1920×1080, 2026-12-03): now above the plot's top edge, where no line runs
    "clamping-rows-1080": Case("clamping?clamp_m=1", (), "your m = 1", "presenter-1080"),
    # PTR's "b = 0.5" and sample-and-aggregate's "k = 5", "k = 20" (ε = 0.2) at the top of
    # their rules, crossed by a curve leaving the plot's top left on a 1080p projector (its
    # label placed for 1280×720's narrower plot found nothing crossed; found stepping each
    # slider at 1920×1080, 2026-12-03): a wider plot decides where the narrow one does not
    "beyond-global-ptr-1080": Case(
        "beyond-global?bg_bound=0.5&bg_eps=0.5&bg_n=1001", (), "b = 0.5", "presenter-1080"
    ),
    "beyond-global-blocks-1080": Case(
        "beyond-global?bg_eps=0.5&bg_n=1001&bg_ptr_eps=0.5&bg_k=5", (), "k = 5", "presenter-1080"
    ),
    "beyond-global-blocks-slope-1080": Case(
        "beyond-global?bg_eps=0.5&bg_k=20&bg_n=1001&bg_ptr_eps=0.5&bg_sa_eps=0.2",
        (),
        "k = 20",
        "presenter-1080",
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_no_chart_text_is_written_over_another_cut_or_crossed(
    page: Page, browser: Browser, app_server: str, case: Case
) -> None:
    with contextlib.ExitStack() as stack:
        if case.screen == "phone":  # a phone's own tab: its page is laid out as a phone's
            context = browser.new_context(viewport=PHONE, is_mobile=True)
            stack.callback(context.close)
            page = context.new_page()
        else:
            page.set_viewport_size(SCREENS[case.screen])
        presenting = case.screen.startswith("presenter")
        query = "?present=true" if presenting else ""
        if query and "?" in case.lesson:  # a link's state, and presenter mode
            query = "&" + query[1:]
        open_page(page, app_server, case.lesson + query)
        if presenting:  # its style sheet lands a moment after the elements
            page.wait_for_function(
                "() => getComputedStyle(document.documentElement).fontSize === '21px'"
            )
        for key, option in case.picks:
            with expect_rerun(page):
                box = page.locator(f'[data-testid="stMain"] .st-key-{key}')
                if box.get_by_role("combobox").count():  # a select box: typed, it filters
                    box.get_by_role("combobox").click()
                    page.keyboard.type(option)
                    page.keyboard.press("Enter")
                else:  # a radio
                    box.get_by_text(option, exact=True).click()
        for slider, key in case.moves:
            move_slider_with_keyboard(page, slider, key)
        page.wait_for_function(DRAWN, arg=case.shows)
        page.evaluate(TWO_FRAMES)
        assert page.evaluate(CHART_TEXT_CLASHES) == []
        assert page.evaluate(CHART_TEXT_CROSSED) == []
        assert_no_exception(page)


# The box of the first text `label` starts and the top of the first bar, in one chart.
LABEL_AND_BARS = """([title, label]) => {
  const chart = [...document.querySelectorAll('[data-testid=stVegaLiteChart]')]
    .find((c) => c.textContent.includes(title));
  const text = [...chart.querySelectorAll('svg text')].find((t) => t.textContent.startsWith(label));
  const bars = [...chart.querySelectorAll('svg g.mark-rect path')];
  const top = Math.min(...bars.map((b) => b.getBoundingClientRect().top));
  return [text.getBoundingClientRect().bottom, top];
}"""


def test_the_ceilings_label_is_above_the_bars(page: Page, app_server: str) -> None:
    """Floating point's three samplers: the ceiling's label was written over the first bar,
    and on a phone its end touched that bar's value ("tanh(ε/2) = 46.2%" and "79.9%"); the
    rows now leave it a strip of its own above the bars."""
    page.set_viewport_size(PHONE)
    open_page(page, app_server, "floating-point")
    page.wait_for_function(DRAWN, arg="tanh(ε/2)")
    page.evaluate(TWO_FRAMES)
    label_bottom, bars_top = page.evaluate(LABEL_AND_BARS, ["three samplers", "tanh(ε/2)"])
    assert label_bottom <= bars_top


# The lines of the chart title that starts with `start`, as Vega draws them (a tspan each).
TITLE_LINES = """(start) => {
  const title = [...document.querySelectorAll(
    '[data-testid=stVegaLiteChart] .role-title-text text')]
    .find((text) => text.textContent.startsWith(start));
  return title ? [...title.querySelectorAll('tspan')].map((line) => line.textContent) : null;
}"""


def test_a_title_is_wrapped_only_where_its_plot_is_narrow(page: Page, app_server: str) -> None:
    """Titles are wrapped at presenter mode's 34 characters (its narrowest column), which broke
    reconstruction's full-width projector chart as "◆ this release at" / "ε = 1: 5 of 10 right"
    across 600 px. The title is drawn as the page gave it where the plot is wide enough, and
    wrapped again when the window narrows (Vega's width signal), never cut or overlapping."""
    page.set_viewport_size(PROJECTOR)
    open_page(page, app_server, "reconstruction?present=true")
    given = ["Reconstruction against ε", "◆ this release at ε = 1: 5 of 10 right"]
    page.wait_for_function(f"() => ({TITLE_LINES})('Reconstruction against')?.length === 2")
    assert page.evaluate(TITLE_LINES, "Reconstruction against") == given
    page.evaluate(TWO_FRAMES)
    assert page.evaluate(CHART_TEXT_CLASHES) == []
    page.set_viewport_size({"width": 900, "height": 720})  # a projector window made narrower
    page.wait_for_function(f"() => ({TITLE_LINES})('Reconstruction against')?.length === 3")
    assert page.evaluate(TITLE_LINES, "Reconstruction against") == [
        "Reconstruction against ε",
        "◆ this release at",
        "ε = 1: 5 of 10 right",
    ]
    page.evaluate(TWO_FRAMES)
    # this chart's (at 900 px the other chart's axis title runs out: not a presenter screen)
    clashes = page.evaluate(CHART_TEXT_CLASHES)
    assert [clash for clash in clashes if clash.startswith("Reconstruction against")] == []


# A chart as Vega draws one: a curve (a line mark, drawn with clip to its left 30 px in the
# last case), an axis's grid line, a text.
CROSSING_SVG = """<div data-testid="stMain"><div data-testid="stVegaLiteChart">
<svg width="300" height="100"><g class="role-title"><text x="0" y="12">A chart</text></g>
<defs><clipPath id="clip7"><rect x="0" y="0" width="30" height="100"/></clipPath></defs>
<g class="mark-line role-mark" {clip}><path d="M0,{line_y} L300,{line_y}" stroke="#000"
 stroke-width="2" fill="none"/></g>
<g class="mark-rule role-axis-grid"><line x1="60" y1="0" x2="60" y2="100" stroke="#ddd"/></g>
<g class="mark-text role-mark"><text x="40" y="60" font-size="12">a label</text></g>
</svg></div></div>"""


@pytest.mark.parametrize(
    ("line_y", "clip", "crossed"),
    [(56, "", True), (40, "", False), (70, "", False), (56, 'clip-path="url(#clip7)"', False)],
)
def test_the_crossing_check_finds_a_line_through_a_text_and_only_there(
    page: Page, line_y: int, clip: str, crossed: bool
) -> None:
    """CHART_TEXT_CROSSED (tests/ui/test_browser_sweeps.py) on a drawn chart: a curve
    through the middle of "a label" is found; one above it or under it is not, nor the
    axis's grid line through it, nor a curve clipped before it (the dashboard's noisy
    counts at ε = 0.1 run far past their axis, drawn with clip)."""
    page.set_content(CROSSING_SVG.format(line_y=line_y, clip=clip))
    expected = ['A chart: "a label" crossed by a line'] if crossed else []
    assert page.evaluate(CHART_TEXT_CROSSED) == expected
