"""grading/autograder.py's parts, one by one: what passes between the processes (data only),
and the reading of a notebook's code for a function that calls dp/."""

from __future__ import annotations

import numpy as np
import pytest

from grading.autograder import refers_to_dp
from homework import wire


def test_values_pass_as_data_and_come_back_equal() -> None:
    rng = np.random.default_rng(5)
    rng.random(3)
    value = [1, 2.5, float("inf"), None, True, "a", (1, 2), {"k": np.arange(4.0)}, ...]
    back = wire.decode(wire.encode(value))
    assert back[:7] == [1, 2.5, float("inf"), None, True, "a", (1, 2)]
    assert back[8] is Ellipsis
    np.testing.assert_array_equal(back[7]["k"], np.arange(4.0))
    copy = wire.decode(wire.encode(rng))
    assert copy.random() == rng.random()  # the same stream, from where it stood


@pytest.mark.parametrize(
    "value", [object(), {1: 2}, np.array(["a"]), lambda x: x, np.empty(2, dtype=object)]
)
def test_anything_else_is_refused_by_name(value) -> None:
    with pytest.raises(TypeError, match="a "):
        wire.encode(value)


@pytest.mark.parametrize(
    "data", [{"t": "pickle", "v": "..."}, {"t": "array", "dtype": "O", "shape": [1], "v": [1]}]
)
def test_decoding_never_builds_code_or_objects(data) -> None:
    with pytest.raises(ValueError):
        wire.decode(data)


MINE = "def f(x, rng):\n    return x + rng.laplace(0, 1)\n"


@pytest.mark.parametrize(
    ("cells", "calls"),
    [
        ([MINE], False),
        (
            ["import dp\n", "def f(x, rng):\n    return dp.laplace_mechanism(x, 1, 1, rng=rng)\n"],
            True,
        ),
        (["import dp as d\n", "def f(x, rng):\n    return d.laplace_mechanism(x, 1, 1)\n"], True),
        (
            [
                "from dp import laplace_mechanism as lm\n",
                "def f(x, rng):\n    return lm(x, 1, 1)\n",
            ],
            True,
        ),
        (["from dp import *\n", "def f(x, rng):\n    return laplace_mechanism(x, 1, 1)\n"], True),
        (
            [
                "import dp\n",
                "g = dp.laplace_mechanism\n",
                "def f(x, rng):\n    return g(x, 1, 1)\n",
            ],
            True,
        ),
        (
            [
                "import dp\n",
                "def h(x):\n    return dp.laplace_mechanism(x, 1, 1)\n",
                "def f(x, rng):\n    return h(x)\n",
            ],
            True,
        ),
        (
            ["def f(x, rng):\n    import importlib\n    return importlib.import_module('dp')\n"],
            True,
        ),
        (["import dp\n", "%timeit 1\n", MINE], False),  # dp imported, not used by f
    ],
)
def test_a_function_that_refers_to_dp_is_found_in_the_notebooks_code(cells, calls) -> None:
    assert refers_to_dp(cells, "f") is calls
