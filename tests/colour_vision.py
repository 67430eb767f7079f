"""Colour-vision deficiency, simulated, for the chart palettes' test (tests/ui/test_charts.py).

A colour is simulated as a dichromat sees it with the matrices of Machado, Oliveira &
Fernandes, "A physiologically-based model for simulation of color vision deficiency", IEEE
TVCG 15(6), 2009 (severity 1.0), applied to linear sRGB; two colours are then compared by
their distance in CIELAB (CIE 1976 ΔE, D65 white). Two series of one chart must stay at
least MIN_DELTA_E apart for every reader: the lines also differ by dash or shape, and this
makes colour a second cue that still works, not the only one."""

from __future__ import annotations

import itertools
import re

import numpy as np

SIMULATIONS = {
    "typical vision": np.eye(3),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
MIN_DELTA_E = 10.0
HEX = re.compile(r"#[0-9A-Fa-f]{6}")
_SRGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
_D65 = np.array([0.95047, 1.0, 1.08883])


def _linear(hex_colour: str) -> np.ndarray:
    channels = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)


def _lab(linear_rgb: np.ndarray) -> np.ndarray:
    t = _SRGB_TO_XYZ @ np.clip(linear_rgb, 0.0, 1.0) / _D65
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: str, b: str, vision: str) -> float:
    """CIE76 ΔE between two #rrggbb colours as a reader with `vision` sees them."""
    m = SIMULATIONS[vision]
    return float(np.linalg.norm(_lab(m @ _linear(a)) - _lab(m @ _linear(b))))


def too_close(colours: list[str]) -> list[str]:
    """Every pair of distinct `colours` closer than MIN_DELTA_E for some reader."""
    found = []
    for a, b in itertools.combinations(dict.fromkeys(c.upper() for c in colours), 2):
        for vision in SIMULATIONS:
            if (d := delta_e(a, b, vision)) < MIN_DELTA_E:
                found.append(f"{a} and {b}: ΔE {d:.1f} with {vision}")
    return found


def palette_problems(spec: object) -> list[str]:
    """What a Vega-Lite spec's colour encodings of categories break: a palette left to Vega
    (its default scheme: no layer of the chart gives the field a range), or two series too
    close for some reader."""
    encodings = list(_colour_encodings(spec))
    ranged = {
        e.get("field") for e in encodings if isinstance((e.get("scale") or {}).get("range"), list)
    }
    found: list[str] = []
    for encoding in encodings:
        field, scale = encoding.get("field"), encoding.get("scale") or {}
        colours = scale.get("range")
        if not isinstance(colours, list):
            written = _values(spec, field)  # a field that holds the colours themselves
            if written and all(isinstance(v, str) and HEX.fullmatch(v) for v in written):
                found += [f"{field}: {problem}" for problem in too_close(written)]
            elif field not in ranged:
                found.append(f"{field}: no palette of its own")
            continue
        used = colours[: len(scale["domain"])] if "domain" in scale else colours
        found += [f"{field}: {problem}" for problem in too_close(used)]
    return list(dict.fromkeys(found))


def _values(spec: object, field: str) -> list:
    """The values of `field` in the spec's inline datasets (what Streamlit sends beside it)."""
    datasets = spec.get("datasets", {}) if isinstance(spec, dict) else {}
    return [row[field] for rows in datasets.values() for row in rows if field in row]


def _colour_encodings(spec: object):
    """Every colour, fill or stroke encoding of a nominal field in the spec."""
    if isinstance(spec, dict):
        for channel in ("color", "fill", "stroke"):
            encoding = spec.get(channel)
            if isinstance(encoding, dict) and encoding.get("type") == "nominal":
                yield encoding
        for value in spec.values():
            yield from _colour_encodings(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from _colour_encodings(value)
