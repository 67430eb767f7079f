"""Input checks shared by every dp/ function.

Every public function validates through these helpers, so bad input always raises a
ValueError or TypeError whose message names the parameter and its allowed range —
never a NaN, a numpy warning or a silently wrong answer.
"""

from __future__ import annotations

import math
import numbers
import sys

import numpy as np


def _is_bool(x: object) -> bool:
    return isinstance(x, bool | np.bool_)


def check_real(
    name: str,
    x: object,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    allow_inf: bool = False,
    range_text: str | None = None,
) -> float:
    """A real scalar (not bool, not NaN, finite unless allowed) within the given bounds."""
    kind = type(x)
    if kind is not float and kind is not int:  # plain numbers skip the slower ABC checks
        if isinstance(x, np.ndarray) and x.ndim == 0:
            x = x.item()
        if _is_bool(x) or not isinstance(x, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {type(x).__name__} {x!r}")
    try:
        value = float(x)
    except OverflowError:  # an int or Fraction beyond the largest float
        raise ValueError(f"{name} must be finite, got a number too large for a float") from None
    if math.isnan(value):
        raise ValueError(f"{name} must be a number, got NaN")
    if math.isinf(value) and not allow_inf:
        raise ValueError(f"{name} must be finite, got {value}")
    if (low is not None and (value < low or (low_open and value == low))) or (
        high is not None and (value > high or (high_open and value == high))
    ):
        text = range_text or _range_text(low, high, low_open, high_open)
        raise ValueError(f"{name} must be {text}, got {value:g}")
    return value


def _range_text(low, high, low_open, high_open) -> str:
    if low is not None and high is not None:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        return f"in {left}{low:g}, {high:g}{right}"
    if low is not None:
        return f"{'>' if low_open else '>='} {low:g}"
    if high is not None:
        return f"{'<' if high_open else '<='} {high:g}"
    return "a real number"


# The largest ε whose e^ε is a finite float (ln of the largest double, ≈ 709.78).
MAX_EXP_EPSILON = math.log(sys.float_info.max)


# A whole number is kept as an int64 (counts, totals, the value of a discrete mechanism), and a
# float holds every whole number only up to 2⁵³: beyond MAX_COUNT one is refused, never cast
# to a wrong number (a count of 10²⁰ came back as −9,223,372,036,854,775,807).
MAX_COUNT = 2**53

# A formula that squares a number (σ², Δ², (T/ε)²) needs its square to be a finite, non-zero
# float: such a number, or a ratio of two such as Δ/σ, lies in [1/SQUARE_LIMIT, SQUARE_LIMIT].
SQUARE_LIMIT = 1e150


def check_squarable(name: str, value: float) -> float:
    """A positive number (already checked) whose square a formula needs as a finite, non-zero
    float. `name` is what the message calls it: a parameter, or a ratio ("sensitivity/sigma")."""
    if not 1.0 / SQUARE_LIMIT <= value <= SQUARE_LIMIT:
        raise ValueError(
            f"{name} must be in [1e-150, 1e150] here (its square must be a float), got {value:g}"
        )
    return value


def check_magnitude(name: str, arr: np.ndarray, limit: float = SQUARE_LIMIT) -> np.ndarray:
    """A finite array (already checked) whose entries a formula squares or multiplies
    together: every |x| at most `limit`."""
    if arr.size and float(np.max(np.abs(arr))) > limit:
        raise ValueError(
            f"{name} must be at most {limit:g} in size here, got {float(np.max(np.abs(arr))):g}"
        )
    return arr


def check_count(name: str, x: object) -> int:
    """A whole number from 0 to MAX_COUNT (a count, a total, a number of people)."""
    value = check_integer(name, x, low=0)
    if value > MAX_COUNT:
        raise ValueError(f"{name} must be at most 2**53, got {value:g}")
    return value


def check_epsilon(epsilon: object, name: str = "epsilon", *, high: float | None = None) -> float:
    """ε must be a finite real number > 0 (and <= `high` where a formula needs e^ε as a
    float: `high=MAX_EXP_EPSILON`)."""
    value = check_real(name, epsilon, low=0.0, low_open=True, range_text="finite and > 0")
    if high is not None and value > high:
        raise ValueError(
            f"{name} must be <= {high:.2f} here (e^{name} would overflow a float), got {value:g}"
        )
    return value


def check_positive(name: str, x: object) -> float:
    """A finite real number > 0 (sensitivities, scales)."""
    return check_real(name, x, low=0.0, low_open=True, range_text="finite and > 0")


def check_probability(name: str, x: object) -> float:
    """A probability in [0, 1]."""
    return check_real(name, x, low=0.0, high=1.0)


def check_integer(name: str, x: object, *, low: int = 0) -> int:
    """A whole number >= low (a float such as 4.0 is accepted; 2.5 and True are not)."""
    if type(x) is int:  # the common case, without the slower ABC checks
        if x < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {x}")
        return x
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x.item()
    if _is_bool(x) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be an integer >= {low}, got {type(x).__name__} {x!r}")
    if isinstance(x, numbers.Integral):
        value = int(x)
    else:
        f = float(x)
        if not math.isfinite(f) or f != math.floor(f):
            raise ValueError(f"{name} must be an integer >= {low}, got {x!r}")
        value = int(f)
    if value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value}")
    return value


# Bounds on what one call may allocate (the smallest Community Cloud box has 690 MB): at most
# MAX_DRAWS random draws per call (80 MB of float64) and MAX_CATEGORIES categories.
MAX_DRAWS = 10_000_000
MAX_CATEGORIES = 100_000


def check_k(k: object, name: str = "k") -> int:
    """The number of categories: an integer from 2 to MAX_CATEGORIES."""
    value = check_integer(name, k, low=2)
    if value > MAX_CATEGORIES:
        raise ValueError(f"{name} must be at most {MAX_CATEGORIES:,} categories, got {value:,}")
    return value


def check_size(size: object, name: str = "size") -> int | tuple[int, ...] | None:
    """`size` for repeated draws: None, a positive integer, or a tuple of them, at most
    MAX_DRAWS draws in all."""
    if size is None:
        return None
    if isinstance(size, tuple):
        checked: int | tuple[int, ...] = tuple(check_integer(name, s, low=1) for s in size)
        total = math.prod(checked)
    else:
        checked = total = check_integer(name, size, low=1)
    if total > MAX_DRAWS:
        raise ValueError(f"{name} must be at most {MAX_DRAWS:,} draws, got {total:,}")
    return checked


def as_rng(rng: object) -> np.random.Generator:
    """`rng` may be None (fresh entropy), a non-negative int seed, or a Generator."""
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, np.random.Generator):
        return rng
    if _is_bool(rng) or not isinstance(rng, numbers.Integral):
        raise TypeError(
            f"rng must be None, an int seed or a numpy.random.Generator, got {type(rng).__name__}"
        )
    if int(rng) < 0:
        raise ValueError(f"rng seed must be >= 0, got {int(rng)}")
    return np.random.default_rng(int(rng))


def _as_numeric_array(name: str, x: object) -> np.ndarray:
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as exc:  # ragged nested lists
        raise TypeError(f"{name} must be an array of numbers: {exc}") from None
    if arr.dtype == bool:
        return arr
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"{name} must contain numbers, got dtype {arr.dtype}")
    return arr


def check_categories(name: str, values: object, k: int, *, allow_empty: bool = True) -> np.ndarray:
    """A 1-D array of category codes in 0..k-1, returned as int64."""
    arr = _as_numeric_array(name, values)
    if arr.dtype == bool:
        raise TypeError(f"{name} must hold integer category codes 0..{k - 1}, not booleans")
    arr = np.atleast_1d(arr)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        if not allow_empty:
            raise ValueError(f"{name} must not be empty")
        return arr.astype(np.int64)
    if np.issubdtype(arr.dtype, np.floating) and (
        not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr))
    ):
        raise ValueError(f"{name} must hold whole numbers 0..{k - 1}")
    if arr.min() < 0 or arr.max() > k - 1:
        raise ValueError(
            f"{name} must lie in 0..{k - 1} (k = {k}), got values from {arr.min():g} "
            f"to {arr.max():g}"
        )
    return arr.astype(np.int64)


def check_binary(name: str, values: object, *, allow_empty: bool = True, ndim: int = 1):
    """An array of 0/1 values (booleans allowed), returned as bool."""
    arr = _as_numeric_array(name, values)
    if ndim == 1:
        arr = np.atleast_1d(arr)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    if arr.dtype != bool:
        if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must hold only 0 and 1, got NaN or inf")
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError(f"{name} must hold only 0 and 1")
        arr = arr == 1
    return arr


def check_counts(name: str, counts: object) -> np.ndarray:
    """A non-empty 1-D array of non-negative whole-number counts, returned as int64."""
    if (  # the common case, a bincount or histogram, returned as it is (never modified)
        type(counts) is np.ndarray
        and counts.dtype == np.int64
        and counts.ndim == 1
        and counts.size
        and counts.min() >= 0
    ):
        return counts
    arr = _as_numeric_array(name, counts)
    if arr.dtype == bool:
        raise TypeError(f"{name} must hold integer counts, not booleans")
    arr = np.atleast_1d(arr)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of counts")
    if np.issubdtype(arr.dtype, np.floating) and (
        not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr))
    ):
        raise ValueError(f"{name} must hold whole numbers")
    if arr.min() < 0:
        raise ValueError(f"{name} must be >= 0, got {arr.min():g}")
    if arr.max() > MAX_COUNT:
        raise ValueError(f"{name} must be at most 2**53 each, got {arr.max():g}")
    return arr.astype(np.int64)


def check_finite_array(name: str, x: object, *, allow_empty: bool = False) -> np.ndarray:
    """A float array with no NaN or inf."""
    arr = _as_numeric_array(name, x)
    if arr.dtype == bool:
        raise TypeError(f"{name} must hold numbers, not booleans")
    arr = arr.astype(float)
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return arr


def exact_sum(name: str, arr: np.ndarray) -> float:
    """Σ arr, correctly rounded (math.fsum): a budget's shares add up to what they add up to
    on paper, not to within a float's last bit of it. A sum past the largest float is refused
    (`name` named), never inf."""
    try:
        total = math.fsum(arr.tolist())
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):
        raise ValueError(f"{name} add up to more than the largest float (1.8e308)")
    return total


def check_not_one(p: float, q: float) -> None:
    """Binary RR estimators divide by p + q - 1."""
    if abs(p + q - 1.0) < 1e-12:
        raise ValueError(
            f"p + q must differ from 1 (got p = {p:g}, q = {q:g}): then the answers carry "
            "no information about the truth and the estimator would divide by zero"
        )


def check_distinct(p: float, q: float) -> None:
    """Unary-encoding estimators divide by p - q."""
    if abs(p - q) < 1e-12:
        raise ValueError(
            f"p and q must differ (got p = q = {p:g}): the bits then carry no information "
            "and the estimator would divide by zero"
        )


def check_real_array(name: str, x: object, *, allow_inf: bool = True) -> np.ndarray:
    """A float array (any shape, scalars too) with no NaN; ±inf only if allowed."""
    arr = _as_numeric_array(name, x)
    if arr.dtype == bool:
        raise TypeError(f"{name} must hold numbers, not booleans")
    arr = arr.astype(float)
    if np.isnan(arr).any():
        raise ValueError(f"{name} must be numbers, got NaN")
    if not allow_inf and np.isinf(arr).any():
        raise ValueError(f"{name} must be finite, got inf")
    return arr


def add_noise(value, size, draw):
    """`value` + noise from `draw(shape)`: one noisy answer per entry of `value` (a number or
    an array), or with `size` that many independent answers (shape `size`, or `size +
    value.shape`). A float for a number without `size`."""
    size = check_size(size)
    if np.ndim(value) == 0:
        v = check_real("value", value)
        return float(v + draw(None)) if size is None else v + draw(size)
    values = check_finite_array("value", value, allow_empty=True)
    shape = values.shape if size is None else (*np.atleast_1d(size), *values.shape)
    return values + draw(shape)


def check_ids(name: str, ids: object) -> np.ndarray:
    """Dense integer codes 0..u−1 for a 1-D, non-empty sequence of ids (ints or strings: a
    user, a partition, an equivalence class), equal ids alike. A list is kept as its Python
    objects: numpy would turn [1, "1"] into two equal strings."""
    if isinstance(ids, np.ndarray):
        array = ids
    elif isinstance(ids, (list, tuple)):
        array = np.empty(len(ids), dtype=object)
        array[:] = list(ids)
    else:
        raise TypeError(
            f"{name} must be a list, tuple or 1-D numpy array, got {type(ids).__name__}"
        )
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got {array.ndim} dimensions")
    if array.size == 0:
        raise ValueError(f"{name} must not be empty")
    if array.size > MAX_DRAWS:
        raise ValueError(f"{name} must hold at most {MAX_DRAWS:,} rows, got {array.size:,}")
    kind = array.dtype.kind
    if kind in "iuUS":
        return np.unique(array, return_inverse=True)[1].reshape(-1)
    if kind == "f":
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name} must hold ids, not NaN or inf")
        return np.unique(array, return_inverse=True)[1].reshape(-1)
    if kind != "O":
        raise TypeError(f"{name} must hold ints or strings, got dtype {array.dtype}")
    lookup: dict = {}
    codes = np.empty(array.size, dtype=np.int64)
    for position, value in enumerate(array.tolist()):
        if value is None or isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{name} must hold ids, got {value!r} at row {position}")
        if not isinstance(value, numbers.Integral | str | bytes | float | tuple):
            raise TypeError(
                f"{name} must hold ints or strings, got {type(value).__name__} at row {position}"
            )
        codes[position] = lookup.setdefault(value, len(lookup))
    return codes


def check_id_columns(
    first_name: str, first: object, second_name: str, second: object
) -> tuple[np.ndarray, np.ndarray]:
    """Two id columns of one table (a user and a partition, a class and a sensitive value):
    each as `check_ids` codes, of the same length."""
    a, b = check_ids(first_name, first), check_ids(second_name, second)
    if a.size != b.size:
        raise ValueError(
            f"{first_name} and {second_name} must have the same length, got {a.size:,} and "
            f"{b.size:,}"
        )
    return a, b
