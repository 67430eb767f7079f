"""Every lesson's homework, one module per lesson (named as its folder), each with its
`EXERCISES`. A new lesson's module is imported and named in MODULES here, in the course's
order: the notebook download, `make homework`, both autograders and the README's list follow."""

from homework.core import registry
from homework.lessons import (
    anonymisation,
    approximate_dp,
    beyond_global,
    beyond_k_anonymity,
    binary_rr,
    census_topdown,
    central_vs_local,
    choosing,
    clamping,
    coin_flip,
    composition,
    counting_over_time,
    definition,
    dpsgd,
    epsilon_meaning,
    floating_point,
    group_by,
    kary_rr,
    laplace,
    large_domains,
    membership,
    private_ml,
    reconstruction,
    sparse_vector,
    subsampling,
    synthetic,
    unary_encoding,
    uncertainty,
)

# the lessons with homework, in the course's order
MODULES = (
    anonymisation,
    beyond_k_anonymity,
    reconstruction,
    definition,
    laplace,
    clamping,
    composition,
    approximate_dp,
    membership,
    uncertainty,
    epsilon_meaning,
    choosing,
    group_by,
    beyond_global,
    sparse_vector,
    census_topdown,
    counting_over_time,
    synthetic,
    floating_point,
    coin_flip,
    binary_rr,
    kary_rr,
    unary_encoding,
    large_domains,
    central_vs_local,
    private_ml,
    dpsgd,
    subsampling,
)
LESSONS = tuple(module.__name__.rsplit(".", 1)[-1] for module in MODULES)
REGISTRY = registry(MODULES)  # every exercise, by id
