r"""Reconstruction attacks: from published statistics back to people's records.

Two attacks, one lesson: answering too many questions too accurately gives the data away.

Subset sums (Dinur & Nissim 2003). n people hold secret bits x ∈ {0, 1}ⁿ. The curator
answers m random subset-sum queries "how many of the people in S have x = 1?", each within
E of the truth: a = Q x + e with |eᵢ| ≤ E, Q ∈ {0, 1}^{m×n} the queries' indicator rows. The
attacker solves the least-squares problem

    x̂ = argmin_{z ∈ [0, 1]ⁿ} ‖Q z − a‖²,   then rounds: x̂ᵢ ≥ ½ → 1.

With E = o(√n) and m ≳ n random queries, all but o(n) bits come out right (Dinur & Nissim
2003, Thm 2 for the linear-programming variant; the least-squares variant is the one of
Dwork, Smith, Steinke & Ullman 2017, "Exposed!", §2). Noise of order √n is what privacy costs:
with E ≫ √n the rounded estimate is a coin toss per person.

Marginal tables (the US Census Bureau's 2010 reconstruction, Abowd et al. 2023). A block's
people are records over d categorical attributes (attribute i has levels[i] values). The
agency publishes every two-way table of counts (attribute i × attribute j, all i < j) but
never the full cross-tabulation. A *consistent dataset* is any table of joint counts whose
two-way tables equal the published ones; people are interchangeable, so datasets are
multisets of records (count vectors over the ∏ levels joint cells). A record *pinned down*
is one present in every consistent dataset: the element-wise minimum of their count vectors.

Defence: publish each two-way table with Laplace noise. Add/remove one person changes one
cell of each of the T tables by 1, so the L1 sensitivity of all tables together is T and
Lap(T/ε) per cell is ε-DP (equivalently: ε/T per table, each table a histogram of
sensitivity 1; sequential composition). The attacker's best guess is then the dataset whose
tables are closest to the noisy ones in L1 — the maximum-likelihood dataset under Laplace
noise — found as an integer program (scipy.optimize.milp, HiGHS).
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp, minimize

from ._validate import (
    MAX_COUNT,
    MAX_DRAWS,
    _as_numeric_array,
    as_rng,
    check_binary,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_real,
)

# Bounds on one call's work (the app serves a class from one small box).
MAX_PEOPLE = 10_000  # Dinur–Nissim: secret bits
MAX_QUERY_CELLS = 10_000_000  # m × n entries of a query matrix (10 MB of bools)
MAX_JOINT_CELLS = 4_096  # ∏ levels: the joint cells a block reconstruction searches over
MAX_BLOCK_PEOPLE = 40  # people in a block reconstructed exactly
MAX_SOLUTIONS = 100_000  # consistent datasets listed before the count is capped
MAX_SEARCH_STEPS = 300_000  # placements tried before the count is reported as incomplete
MAX_OPTION_ENTRIES = 4_000_000  # integers in the precomputed placements (32 MB)


# --- Dinur–Nissim: subset-sum queries ------------------------------------------------------


def random_subset_queries(n: int, m: int, *, rng=None) -> np.ndarray:
    """m random subsets of n people as a boolean (m, n) matrix: each person is in each
    subset independently with probability ½ (Dinur & Nissim 2003)."""
    n = check_integer("n", n, low=1)
    m = check_integer("m", m, low=1)
    if n > MAX_PEOPLE:
        raise ValueError(f"n must be at most {MAX_PEOPLE:,} people, got {n:,}")
    if n * m > MAX_QUERY_CELLS:
        raise ValueError(f"m × n must be at most {MAX_QUERY_CELLS:,} entries, got {n * m:,}")
    return as_rng(rng).random((m, n)) < 0.5


def _check_queries(queries: object) -> np.ndarray:
    if np.ndim(queries) == 0:  # one number, not a matrix (True is not even a number)
        kind = TypeError if isinstance(queries, (bool, np.bool_)) else ValueError
        raise kind(f"queries must be a 2-D array of 0/1 (m queries × n people), got {queries!r}")
    q = check_binary("queries", queries, allow_empty=False, ndim=2)
    if q.size > MAX_QUERY_CELLS:
        raise ValueError(f"queries must have at most {MAX_QUERY_CELLS:,} entries, got {q.size:,}")
    return q


def subset_sum_answers(secret, queries, noise_bound: float, *, rng=None) -> np.ndarray:
    """Each query's true count Q·x plus independent noise uniform on [−E, E], E =
    `noise_bound` >= 0 (Dinur & Nissim's curator: every answer within E of the truth)."""
    x = check_binary("secret", secret, allow_empty=False)
    q = _check_queries(queries)
    if q.shape[1] != x.size:
        raise ValueError(
            f"queries must have one column per person: {q.shape[1]} columns, {x.size} people"
        )
    bound = check_real("noise_bound", noise_bound, low=0.0)
    exact = q.astype(np.int64) @ x.astype(np.int64)
    if bound == 0.0:
        return exact.astype(float)
    return exact + as_rng(rng).uniform(-bound, bound, size=exact.size)


def subset_sum_attack(queries, answers) -> np.ndarray:
    r"""The least-squares reconstruction: x̂ = argmin over z ∈ [0, 1]ⁿ of ‖Q z − a‖², rounded
    (x̂ᵢ >= ½ → 1). Returns an int array of n bits.

    Solved on the normal equations (G = QᵀQ, c = Qᵀa: ½ zᵀGz − cᵀz) by L-BFGS-B with the box
    as bounds, to a projected gradient of 1e-9 per unit of m: the rounded bits agree with an
    exact bounded least-squares solver (tests compare with scipy's lsq_linear)."""
    q = _check_queries(queries)
    a = check_finite_array("answers", answers)
    if a.ndim != 1 or a.size != q.shape[0]:
        raise ValueError(
            f"answers must be 1-D with one answer per query ({q.shape[0]}), got shape {a.shape}"
        )
    matrix = q.astype(float)
    gram = matrix.T @ matrix
    target = matrix.T @ a

    def objective(z: np.ndarray) -> tuple[float, np.ndarray]:
        gz = gram @ z
        return 0.5 * float(z @ gz) - float(target @ z), gz - target

    n = q.shape[1]
    result = minimize(
        objective,
        np.full(n, 0.5),
        jac=True,
        method="L-BFGS-B",
        bounds=Bounds(np.zeros(n), np.ones(n)),
        options={"maxiter": 10_000, "ftol": 1e-15, "gtol": 1e-9 * q.shape[0]},
    )
    return (result.x >= 0.5).astype(np.int64)


# --- Marginal tables: a block's published tables ------------------------------------------


def _check_levels(levels: object) -> tuple[int, ...]:
    if isinstance(levels, (str, bytes)) or not hasattr(levels, "__len__"):
        raise TypeError(f"levels must be a sequence of integers, got {type(levels).__name__}")
    checked = tuple(check_integer("levels", k, low=1) for k in levels)
    if len(checked) < 2:
        raise ValueError(f"levels must name at least 2 attributes, got {len(checked)}")
    cells = math.prod(checked)
    if cells > MAX_JOINT_CELLS:
        raise ValueError(f"levels must give at most {MAX_JOINT_CELLS:,} joint cells, got {cells:,}")
    return checked


def _pairs(d: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(d), 2))


def _joint_codes(levels: tuple[int, ...]) -> np.ndarray:
    """Every joint cell as a row of attribute codes, in C order: shape (∏ levels, d)."""
    grids = np.indices(levels).reshape(len(levels), -1)
    return grids.T


def _pair_matrix(levels: tuple[int, ...]) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The 0/1 matrix A (joint cells × all two-way table cells) with A[c, t] = 1 when joint
    cell c falls in table cell t; tables in _pairs order, each flattened in C order."""
    codes = _joint_codes(levels)
    pairs = _pairs(len(levels))
    blocks = []
    for i, j in pairs:
        flat = codes[:, i] * levels[j] + codes[:, j]
        block = np.zeros((codes.shape[0], levels[i] * levels[j]), dtype=np.int64)
        block[np.arange(codes.shape[0]), flat] = 1
        blocks.append(block)
    return np.hstack(blocks), pairs


def joint_counts(records, levels) -> np.ndarray:
    """A block's records (n people × d attribute codes, attribute i in 0..levels[i]−1) as
    counts over the joint cells, flattened in C order (np.ravel_multi_index)."""
    lv = _check_levels(levels)
    arr = _as_numeric_array("records", records)
    if arr.dtype == bool:
        raise TypeError("records must hold integer codes, not booleans")
    if arr.ndim != 2 or arr.shape[1] != len(lv):
        raise ValueError(
            f"records must be 2-D with one column per attribute ({len(lv)}), got shape {arr.shape}"
        )
    if np.issubdtype(arr.dtype, np.floating) and (
        not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr))
    ):
        raise ValueError("records must hold whole-number codes")
    upper = np.asarray(lv) - 1
    if arr.size and (arr.min() < 0 or np.any(arr.max(axis=0) > upper)):  # before the cast
        raise ValueError(f"records must hold codes 0..levels[i]−1 in column i (levels {lv})")
    arr = arr.astype(np.int64)
    flat = np.ravel_multi_index(arr.T, lv) if arr.size else np.zeros(0, dtype=np.int64)
    return np.bincount(flat, minlength=math.prod(lv)).astype(np.int64)


def records_from_counts(counts, levels) -> np.ndarray:
    """Joint counts back to records: one row of attribute codes per person, sorted."""
    lv = _check_levels(levels)
    c = _check_joint(counts, lv)
    if int(c.sum()) > MAX_DRAWS:
        raise ValueError(f"counts must sum to at most {MAX_DRAWS:,} people here, got {c.sum():,}")
    return _joint_codes(lv)[np.repeat(np.arange(c.size), c)]


def _check_joint(counts: object, levels: tuple[int, ...]) -> np.ndarray:
    arr = _as_numeric_array("counts", counts)
    if arr.dtype == bool:
        raise TypeError("counts must hold integer counts, not booleans")
    if arr.ndim != 1 or arr.size != math.prod(levels):
        raise ValueError(
            f"counts must be 1-D with one count per joint cell ({math.prod(levels)}), "
            f"got shape {arr.shape}"
        )
    if np.issubdtype(arr.dtype, np.floating) and (
        not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr))
    ):
        raise ValueError("counts must hold whole numbers")
    if arr.size and arr.min() < 0:
        raise ValueError(f"counts must be >= 0, got {arr.min():g}")
    if arr.size and arr.max() > MAX_COUNT:
        raise ValueError(f"counts must be at most 2**53 each, got {arr.max():g}")
    return arr.astype(np.int64)


def marginal_tables(records, levels) -> dict[tuple[int, int], np.ndarray]:
    """Every two-way table of counts of a block: {(i, j): levels[i] × levels[j] int array}
    for all attribute pairs i < j (what the agency publishes)."""
    lv = _check_levels(levels)
    joint = joint_counts(records, lv).reshape(lv)
    d = len(lv)
    return {
        (i, j): joint.sum(axis=tuple(k for k in range(d) if k not in (i, j))).astype(np.int64)
        for i, j in _pairs(d)
    }


def _check_tables(tables: object, levels: tuple[int, ...], *, whole: bool) -> np.ndarray:
    """The published tables as one flat vector in _pairs order (int if `whole`)."""
    if not isinstance(tables, dict):
        raise TypeError(
            f"tables must be a dict {{(i, j): 2-D counts}}, got {type(tables).__name__}"
        )
    pairs = _pairs(len(levels))
    if set(tables) != set(pairs):
        raise ValueError(f"tables must hold exactly the two-way tables {pairs}")
    parts = []
    for i, j in pairs:
        table = check_finite_array(f"tables[{i}, {j}]", tables[(i, j)])
        if table.shape != (levels[i], levels[j]):
            raise ValueError(
                f"tables[{i}, {j}] must have shape {(levels[i], levels[j])}, got {table.shape}"
            )
        if whole and (np.any(table != np.floor(table)) or table.min() < 0):
            raise ValueError(f"tables[{i}, {j}] must hold whole counts >= 0")
        parts.append(table.ravel())
    flat = np.concatenate(parts)
    return flat.astype(np.int64) if whole else flat


class Reconstruction(NamedTuple):
    """Every dataset consistent with a block's published tables.

    solutions: (s, ∏ levels) joint counts, one row per consistent dataset found;
    complete: False when the search stopped at max_solutions or its step budget (then
    `solutions` is a subset and `pinned` an upper bound); pinned: joint counts of the
    records present in every solution found (their element-wise minimum)."""

    solutions: np.ndarray
    complete: bool
    pinned: np.ndarray

    @property
    def count(self) -> int:
        return int(self.solutions.shape[0])

    @property
    def pinned_people(self) -> int:
        return int(self.pinned.sum())


def _compositions(total: int, parts: int) -> np.ndarray:
    """Every way to put `total` people into `parts` cells: (C(total+parts−1, parts−1), parts)."""
    rows = []
    for bars in itertools.combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *bars, total + parts - 1)
        rows.append([edges[k + 1] - edges[k] - 1 for k in range(parts)])
    return np.asarray(rows, dtype=np.int64).reshape(-1, parts)


def reconstruct_from_marginals(tables, levels, *, max_solutions: int = 10_000) -> Reconstruction:
    """Every dataset whose two-way tables equal `tables` (exact search).

    The (0, 1) table fixes how many people have each pair of values of the first two
    attributes; the search places those people, cell by cell, over the other attributes'
    combinations, keeping every other published table's running counts within its target
    (vectorised over all placements of a cell), and keeps the datasets meeting them all
    exactly. Stops at `max_solutions` datasets or MAX_SEARCH_STEPS placements tried, and says
    so (complete=False)."""
    lv = _check_levels(levels)
    cap = check_integer("max_solutions", max_solutions, low=1)
    if cap > MAX_SOLUTIONS:
        raise ValueError(f"max_solutions must be at most {MAX_SOLUTIONS:,}, got {cap:,}")
    target = _check_tables(tables, lv, whole=True)
    matrix, pairs = _pair_matrix(lv)
    sizes = [lv[i] * lv[j] for i, j in pairs]
    starts = np.cumsum([0, *sizes])
    people = int(target[: sizes[0]].sum())
    if any(int(target[starts[k] : starts[k + 1]].sum()) != people for k in range(len(pairs))):
        raise ValueError("tables must all count the same number of people (their totals differ)")
    if people > MAX_BLOCK_PEOPLE:
        raise ValueError(f"tables must count at most {MAX_BLOCK_PEOPLE} people, got {people}")

    backbone = target[: sizes[0]]  # the (0, 1) table: people per (attr 0, attr 1) value pair
    rest = math.prod(lv[2:])  # combinations of the other attributes
    joint_cells = math.prod(lv)
    # Joint cell of (backbone cell b, rest combination r) is b * rest + r (C order).
    cells = [b for b in range(backbone.size) if backbone[b] > 0]
    # Each cell's placements (all ways to spread its people over the other attributes'
    # combinations) and what each adds to the other tables, built once. Their number is
    # C(c + rest − 1, rest − 1); past the step budget the search reports itself incomplete
    # before building anything.
    other_cells = int(matrix.shape[1] - sizes[0])
    sizes_of_options = [math.comb(int(backbone[b]) + rest - 1, rest - 1) for b in cells]
    if (
        sum(sizes_of_options) > MAX_SEARCH_STEPS
        or sum(sizes_of_options) * (rest + other_cells) > MAX_OPTION_ENTRIES
    ):
        empty = np.zeros((0, joint_cells), dtype=np.int64)
        return Reconstruction(empty, False, np.zeros(joint_cells, dtype=np.int64))
    options = {b: _compositions(int(backbone[b]), rest) for b in cells}
    added = {b: options[b] @ matrix[b * rest : (b + 1) * rest, sizes[0] :] for b in cells}
    other_target = target[sizes[0] :]
    found: list[np.ndarray] = []
    steps = 0
    complete = True
    current = np.zeros(joint_cells, dtype=np.int64)

    def place(k: int, running: np.ndarray) -> None:
        nonlocal steps, complete
        if not complete:
            return
        if k == len(cells):
            if np.array_equal(running, other_target):
                found.append(current.copy())
                if len(found) >= cap:
                    complete = False
            return
        b = cells[k]
        steps += options[b].shape[0]
        if steps > MAX_SEARCH_STEPS:
            complete = False
            return
        feasible = np.all(running + added[b] <= other_target, axis=1)
        for option, add in zip(options[b][feasible], added[b][feasible], strict=True):
            current[b * rest : (b + 1) * rest] = option
            place(k + 1, running + add)
            if not complete:
                break
        current[b * rest : (b + 1) * rest] = 0

    place(0, np.zeros(other_target.size, dtype=np.int64))
    if len(found) >= cap:  # reached the cap: more may exist
        complete = False
    solutions = np.asarray(found, dtype=np.int64).reshape(-1, joint_cells)
    pinned = solutions.min(axis=0) if found else np.zeros(joint_cells, dtype=np.int64)
    return Reconstruction(solutions, complete and len(found) < cap, pinned)


def noisy_marginal_tables(
    tables, levels, epsilon, *, rng=None
) -> dict[tuple[int, int], np.ndarray]:
    """The two-way tables with Laplace noise, ε-DP under add/remove-one-person neighbours.

    One person is in one cell of each of the T tables, so all tables together have L1
    sensitivity T: every cell gets Lap(T/ε) (= ε/T per table by sequential composition)."""
    lv = _check_levels(levels)
    flat = _check_tables(tables, lv, whole=False)
    eps = check_epsilon(epsilon)
    pairs = _pairs(len(lv))
    noisy = flat + as_rng(rng).laplace(0.0, len(pairs) / eps, size=flat.size)
    out, start = {}, 0
    for i, j in pairs:
        size = lv[i] * lv[j]
        out[(i, j)] = noisy[start : start + size].reshape(lv[i], lv[j])
        start += size
    return out


def closest_dataset(tables, levels) -> np.ndarray:
    r"""The dataset whose two-way tables are closest to `tables` in L1: argmin over joint
    counts x ∈ ℕ^{∏ levels} of Σ |A x − t|, where A maps joint counts to table cells. Under
    Laplace noise on every cell this is the maximum-likelihood dataset; on exact tables it is
    one consistent dataset. An integer program (scipy.optimize.milp, HiGHS): x integer >= 0,
    deviations u, v >= 0 with A x − u + v = t, minimise Σ u + v. Returns joint counts; ties
    are broken by the solver (deterministic)."""
    lv = _check_levels(levels)
    target = _check_tables(tables, lv, whole=False)
    matrix, _ = _pair_matrix(lv)
    cells, rows = matrix.shape
    # Variables: x (cells, integer), u (rows), v (rows).
    constraint = LinearConstraint(
        np.hstack([matrix.T.astype(float), -np.eye(rows), np.eye(rows)]), target, target
    )
    cost = np.concatenate([np.zeros(cells), np.ones(2 * rows)])
    result = milp(
        cost,
        constraints=[constraint],
        integrality=np.concatenate([np.ones(cells), np.zeros(2 * rows)]),
        bounds=Bounds(np.zeros(cells + 2 * rows), np.full(cells + 2 * rows, np.inf)),
        options={"time_limit": 10.0},
    )
    if result.x is None:  # cannot happen for this always-feasible program; be explicit
        raise RuntimeError(f"the integer program found no dataset: {result.message}")
    return np.rint(result.x[:cells]).astype(np.int64)


def reconstruction_matches(truth, guess) -> int:
    """How many people a reconstruction gets exactly right: the size of the multiset
    intersection of two joint-count vectors, Σ min(truthᵢ, guessᵢ)."""
    t = _as_numeric_array("truth", truth)
    g = _as_numeric_array("guess", guess)
    for name, arr in (("truth", t), ("guess", g)):
        if arr.dtype == bool:
            raise TypeError(f"{name} must hold counts, not booleans")
        if arr.ndim != 1:
            raise ValueError(f"{name} must be a 1-D array of joint counts")
        if arr.size and (not np.all(np.isfinite(arr)) or arr.min() < 0):
            raise ValueError(f"{name} must hold counts >= 0")
    if t.shape != g.shape:
        raise ValueError(f"truth and guess must have the same shape, got {t.shape} and {g.shape}")
    return int(np.minimum(t, g).sum())
