"""Written by `python -m lessons.dpsgd.make_tables` (see there): do not edit by hand.

NOISE: σ for each ε of the accuracy curve (q, steps, δ and the accountant of model.py).
ATTACK_NOISE: σ for each ε of the attacked models (model.ATTACK_RATE, attack_steps()).
ACCOUNTANT: (ε by PLD, ε by RDP) for each (σ, steps) of the accountant chart."""

NOISE: dict[float, float] = {
    0.01: 48.741996102483256,
    0.03: 18.990089056190104,
    0.1: 6.0378880903453584,
    0.3: 2.351752840826524,
    1.0: 1.171829977266474,
    10.0: 0.5075329099415631,
}

ATTACK_NOISE: dict[float, float] = {
    1.0: 18.1450698764679,
    10.0: 2.4948145110622137,
}

ACCOUNTANT: dict[tuple[float, int], tuple[float, float]] = {
    (0.7, 30): (1.8711173095119897, 2.7195456390425377),
    (0.7, 300): (3.081987594549219, 3.8531607381272046),
    (0.7, 3000): (7.527021126187788, 8.44458367600736),
    (1.1, 30): (0.37019981456553225, 0.8656355468176704),
    (1.1, 300): (0.8576625120021032, 1.1497243584989687),
    (1.1, 3000): (2.6754925429500425, 2.9331432318327186),
    (2.0, 30): (0.10630284766904752, 0.21600728797665375),
    (2.0, 300): (0.3313610454801611, 0.37203586797099353),
    (2.0, 3000): (1.1195732381844725, 1.2260226343043206),
}
