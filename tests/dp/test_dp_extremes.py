"""Every public dp/ function at the far ends of each argument, one argument at a time, from
the valid call of test_dp_bad_inputs.VALID: ε = 1,000 (a student trying "no privacy at
all"), a count of 10²⁰, a scale of 10⁻³⁰⁰. Each call either returns an answer, with no NaN
in it and no numpy warning on the way, or raises ValueError/TypeError whose message names one
of the function's parameters. Never another exception (OverflowError, ZeroDivisionError,
IndexError, MemoryError, numpy's own "n < 0"), a NaN, or a call that does not end.

The sweep found, before the mends: `advanced_composition`, `tpr_bound`, `snapping_delta` and
`partition_selection_probability` raising OverflowError at ε = 1,000; `discrete_laplace_mechanism`
of a value of 10²⁰ returning −9,223,372,036,854,775,807 (and `round_preserving_sum` −…808);
`gaussian_delta` at σ = 10³⁰⁰ returning NaN; `above_threshold_probabilities` taking 19 s at a
threshold of 10¹² (12 ms now) and still running after 5 s at 2⁵³; `l2_laplace_vector` of
dimension 10¹² asking for 7 TiB."""

from __future__ import annotations

import copy
import inspect
import math
import signal
import warnings

import numpy as np
import pytest
from test_dp_bad_inputs import VALID, names_parameter

SCALARS = (1000.0, 1e6, 1e20, -1e20, 1e-9, 1e-15, 1e-300, 1e300, 10**18, 2**53 + 1)
FACTORS = (1e20, -1e20, 1e300, 1e-300)  # an array argument, scaled
HANG_S = 60  # a call still running after this long does not end (the slowest valid one: < 1 s)


def _variants(good):
    """The far ends of one argument whose valid value is `good`."""
    if isinstance(good, bool | str) or good is None or callable(good):
        return []
    if isinstance(good, int | float | np.integer | np.floating):
        return list(SCALARS)
    array = np.asarray(good)
    if array.dtype.kind not in "iuf" or array.size == 0:
        return []
    floats = array.astype(float)
    return [floats * factor for factor in FACTORS] + [floats + 1e16]


def _cases():
    for name, (_function, kwargs) in sorted(VALID.items()):
        for param, good in kwargs.items():
            if param == "rng":
                continue
            for i, value in enumerate(_variants(good)):
                yield pytest.param(name, param, value, id=f"{name}-{param}-{i}")


def _floats(out) -> list[float]:
    if isinstance(out, float | np.floating):
        return [float(out)]
    if isinstance(out, np.ndarray) and out.dtype.kind == "f":
        return out.ravel().tolist()
    if isinstance(out, tuple | list):
        return [x for item in out for x in _floats(item)]
    return []


class _Hang(Exception):
    pass


def _hang(*_args):
    raise _Hang


@pytest.mark.parametrize(("name", "param", "value"), list(_cases()))
def test_every_function_at_the_far_end_of_each_argument(name, param, value):
    function, kwargs = VALID[name]
    call = copy.deepcopy({**kwargs, param: value})
    if "rng" in call:
        call["rng"] = 0
    parameters = list(inspect.signature(function).parameters)
    previous = signal.signal(signal.SIGALRM, _hang)
    signal.alarm(HANG_S)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = function(**call)
    except (ValueError, TypeError) as error:
        message = str(error)
        assert any(names_parameter(message, p) for p in parameters), message
        return
    except _Hang:
        pytest.fail(f"{name}({param}={value!r}) still running after {HANG_S} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not any(math.isnan(x) for x in _floats(out)), out
