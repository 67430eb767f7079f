"""Every public dp/ function rejects bad arguments with ValueError/TypeError naming the
parameter (the dp/ conventions, docs/ARCHITECTURE.md §2), and valid edge inputs never leak
a numpy warning."""

import math
import re
import warnings

import numpy as np
import pytest

import dp

NAN, INF = math.nan, math.inf
EITHER = (TypeError, ValueError)  # non-integral value of an integer parameter: either is fine

# bad epsilon values: (value, exception)
BAD_EPSILONS = [
    (0, ValueError),
    (0.0, ValueError),
    (-1.0, ValueError),
    (NAN, ValueError),
    (INF, ValueError),
    (-INF, ValueError),
    (True, TypeError),
    ("1", TypeError),
    (None, TypeError),
]
BAD_PROBABILITIES = [
    (-0.1, ValueError),
    (1.5, ValueError),
    (NAN, ValueError),
    (INF, ValueError),
    (True, TypeError),
    ("0.5", TypeError),
]
BAD_K = [(1, ValueError), (0, ValueError), (-3, ValueError), (2.5, EITHER), (True, TypeError)]
BAD_RNG = [("seed", TypeError), (1.5, EITHER), (3 + 4j, TypeError)]

ONE_HOT = np.eye(3, dtype=bool)[[0, 1, 2, 0]]
BLOCK_LEVELS = (2, 2, 2)
BLOCK = [[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]]
BLOCK_TABLES = {
    (0, 1): np.array([[1, 1], [1, 1]]),
    (0, 2): np.array([[1, 1], [1, 1]]),
    (1, 2): np.array([[1, 1], [1, 1]]),
}

# Each function with a valid call: name -> (function, kwargs). Bad cases override one kwarg.
VALID = {
    "above_threshold": (
        dp.above_threshold,
        {
            "answers": [3.0, 9.0, 12.0],
            "threshold": 10.0,
            "epsilon": 1.0,
            "sensitivity": 1.0,
            "rng": 0,
        },
    ),
    "above_threshold_probabilities": (
        dp.above_threshold_probabilities,
        {"answers": [3.0, 9.0, 12.0], "threshold": 10.0, "epsilon": 1.0, "sensitivity": 1.0},
    ),
    "sparse_vector": (
        dp.sparse_vector,
        {
            "answers": [3.0, 9.0, 12.0],
            "threshold": 10.0,
            "epsilon": 1.0,
            "max_positives": 2,
            "sensitivity": 1.0,
            "rng": 0,
        },
    ),
    "sparse_vector_variant": (
        dp.sparse_vector_variant,
        {
            "answers": [3.0, 9.0, 12.0],
            "threshold": 10.0,
            "epsilon": 1.0,
            "max_positives": 2,
            "variant": "correct",
            "sensitivity": 1.0,
            "runs": 10,
            "rng": 0,
        },
    ),
    "stopping_probabilities": (
        dp.stopping_probabilities,
        {
            "answers": [3.0, 9.0, 12.0],
            "threshold": 10.0,
            "threshold_scale": 2.0,
            "query_scale": 4.0,
        },
    ),
    "laplace_scale": (dp.laplace_scale, {"sensitivity": 1.0, "epsilon": 1.0}),
    "laplace_mechanism": (
        dp.laplace_mechanism,
        {"value": 3.0, "sensitivity": 1.0, "epsilon": 1.0, "rng": 0},
    ),
    "laplace_interval_probability": (
        dp.laplace_interval_probability,
        {"lo": -1.0, "hi": 1.0, "loc": 0.0, "scale": 1.0},
    ),
    "laplace_privacy_loss": (
        dp.laplace_privacy_loss,
        {"y": 0.3, "loc": 0.0, "loc_neighbour": 1.0, "scale": 1.0},
    ),
    "laplace_privacy_loss_cdf": (dp.laplace_privacy_loss_cdf, {"loss": 0.3, "epsilon": 1.0}),
    "laplace_variance": (dp.laplace_variance, {"sensitivity": 1.0, "epsilon": 1.0}),
    "sequential_composition": (dp.sequential_composition, {"epsilons": [0.5, 1.0]}),
    "parallel_composition": (dp.parallel_composition, {"epsilons": [0.5, 1.0]}),
    "group_privacy": (dp.group_privacy, {"epsilon": 1.0, "group_size": 2}),
    "approx_group_privacy": (
        dp.approx_group_privacy,
        {"epsilon": 1.0, "delta": 1e-5, "group_size": 2},
    ),
    "approx_group_privacy_per_change": (
        dp.approx_group_privacy_per_change,
        {"epsilon": 1.0, "delta": 1e-5, "group_size": 2},
    ),
    "coin_flip_probabilities": (dp.coin_flip_probabilities, {"honest": 0.5, "yes": 0.5}),
    "rr_epsilon": (dp.rr_epsilon, {"p": 0.75, "q": 0.75}),
    "rr_keep_probability": (dp.rr_keep_probability, {"epsilon": 1.0}),
    "randomized_response": (
        dp.randomized_response,
        {"truth": [0, 1, 1], "p": 0.75, "q": 0.75, "rng": 0},
    ),
    "estimate_proportion": (
        dp.estimate_proportion,
        {"responses": [0, 1, 1], "p": 0.75, "q": 0.75},
    ),
    "estimate_count": (dp.estimate_count, {"responses": [0, 1, 1], "p": 0.75, "q": 0.75}),
    "rr_variance": (dp.rr_variance, {"proportion": 0.3, "n": 100, "p": 0.75, "q": 0.75}),
    "sample_rr_counts": (
        dp.sample_rr_counts,
        {"true_yes": 3, "n": 10, "p": 0.75, "q": 0.75, "rng": 0},
    ),
    "grr_probabilities": (dp.grr_probabilities, {"epsilon": 1.0, "k": 4}),
    "grr_perturb": (dp.grr_perturb, {"values": [0, 1, 3], "k": 4, "epsilon": 1.0, "rng": 0}),
    "grr_estimate": (dp.grr_estimate, {"reports": [0, 1, 3], "k": 4, "epsilon": 1.0}),
    "grr_variance": (dp.grr_variance, {"n": 100, "epsilon": 1.0, "k": 4}),
    "sample_grr_counts": (
        dp.sample_grr_counts,
        {"true_counts": [5, 3, 2], "epsilon": 1.0, "rng": 0},
    ),
    "ue_encode": (dp.ue_encode, {"values": [0, 1, 2], "k": 3}),
    "ue_perturb": (dp.ue_perturb, {"bits": ONE_HOT, "p": 0.5, "q": 0.25, "rng": 0}),
    "ue_aggregate": (dp.ue_aggregate, {"bits": ONE_HOT, "p": 0.5, "q": 0.25}),
    "ue_epsilon": (dp.ue_epsilon, {"p": 0.75, "q": 0.25}),
    "sue_probabilities": (dp.sue_probabilities, {"epsilon": 1.0}),
    "oue_probabilities": (dp.oue_probabilities, {"epsilon": 1.0}),
    "ue_variance": (dp.ue_variance, {"n": 100, "p": 0.5, "q": 0.25, "frequency": 0.1}),
    "sample_ue_counts": (
        dp.sample_ue_counts,
        {"true_counts": [5, 3, 2], "p": 0.5, "q": 0.25, "rng": 0},
    ),
    "project_counts": (dp.project_counts, {"estimates": [3.0, -1.0, 2.0], "n": 4}),
    "audit_epsilon": (dp.audit_epsilon, {"outputs_d": [0, 1, 1], "outputs_d_prime": [0, 0, 1]}),
    "epsilon_from_rates": (dp.epsilon_from_rates, {"tpr": 0.6, "fpr": 0.3, "delta": 0.0}),
    "clamped_median": (dp.clamped_median, {"values": [3.0, 1.0, 2.0], "lower": 0.0, "upper": 5.0}),
    "median_local_sensitivity": (
        dp.median_local_sensitivity,
        {"values": [3.0, 1.0, 2.0], "lower": 0.0, "upper": 5.0},
    ),
    "median_sensitivity_at_distance": (
        dp.median_sensitivity_at_distance,
        {"values": [3.0, 1.0, 2.0], "lower": 0.0, "upper": 5.0, "k": 1},
    ),
    "median_sensitivity_curve": (
        dp.median_sensitivity_curve,
        {"values": [3.0, 1.0, 2.0], "lower": 0.0, "upper": 5.0},
    ),
    "median_smooth_sensitivity": (
        dp.median_smooth_sensitivity,
        {"values": [3.0, 1.0, 2.0], "lower": 0.0, "upper": 5.0, "beta": 0.5},
    ),
    "smooth_beta": (dp.smooth_beta, {"epsilon": 1.0, "delta": 1e-6}),
    "smooth_median_scale": (
        dp.smooth_median_scale,
        {"values": [3.0, 1.0, 2.0], "lower": 0.0, "upper": 5.0, "epsilon": 1.0, "delta": 1e-6},
    ),
    "smooth_median": (
        dp.smooth_median,
        {
            "values": [3.0, 1.0, 2.0],
            "lower": 0.0,
            "upper": 5.0,
            "epsilon": 1.0,
            "delta": 1e-6,
            "rng": 0,
        },
    ),
    "median_distance_to_instability": (
        dp.median_distance_to_instability,
        {"values": [3.0, 1.0, 2.0], "lower": 0.0, "upper": 5.0, "bound": 1.0},
    ),
    "ptr_refusal_probability": (
        dp.ptr_refusal_probability,
        {"distance": 3.0, "epsilon": 1.0, "delta": 1e-6},
    ),
    "propose_test_release": (
        dp.propose_test_release,
        {"value": 2.0, "distance": 3.0, "bound": 1.0, "epsilon": 1.0, "delta": 1e-6, "rng": 0},
    ),
    "sample_and_aggregate": (
        dp.sample_and_aggregate,
        {
            "data": [1.0, 2.0, 3.0, 4.0],
            "statistic": np.mean,
            "blocks": 2,
            "lower": 0.0,
            "upper": 5.0,
            "epsilon": 1.0,
            "rng": 0,
        },
    ),
    "clip_rows": (dp.clip_rows, {"matrix": [[3.0, 4.0], [0.0, 0.0]], "clip_norm": 1.0}),
    "dpsgd_epsilon": (
        dp.dpsgd_epsilon,
        {
            "noise_multiplier": 1.1,
            "sample_rate": 0.01,
            "steps": 100,
            "delta": 1e-5,
            "accountant": "rdp",
        },
    ),
    "dpsgd_noise_multiplier": (
        dp.dpsgd_noise_multiplier,
        {"epsilon": 2.0, "sample_rate": 0.01, "steps": 100, "delta": 1e-5, "accountant": "rdp"},
    ),
    "dpsgd_step": (
        dp.dpsgd_step,
        {
            "gradients": [[3.0, 4.0], [0.5, 0.0]],
            "clip_norm": 1.0,
            "noise_multiplier": 1.0,
            "expected_batch_size": 2.0,
            "rng": 0,
        },
    ),
    "olh_parameters": (dp.olh_parameters, {"epsilon": 1.0}),
    "olh_perturb": (dp.olh_perturb, {"values": [0, 3, 4], "k": 5, "epsilon": 1.0, "rng": 0}),
    "olh_estimate": (
        dp.olh_estimate,
        {"seeds": [12345, 67890, 13579], "reports": [0, 1, 2], "k": 5, "epsilon": 1.0},
    ),
    "olh_variance": (dp.olh_variance, {"n": 100, "epsilon": 1.0, "frequency": 0.1}),
    "shuffle_epsilon": (dp.shuffle_epsilon, {"epsilon0": 1.0, "n": 100_000, "delta": 1e-6}),
    "marginal_queries": (dp.marginal_queries, {"shape": (3, 2, 4), "attributes": [0, 2]}),
    "mwem": (
        dp.mwem,
        {
            "counts": [3.0, 0.0, 5.0, 2.0],
            "queries": [[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0]],
            "epsilon": 1.0,
            "rounds": 3,
            "rng": 0,
        },
    ),
    "mwem_trace": (
        dp.mwem_trace,
        {
            "counts": [3.0, 0.0, 5.0, 2.0],
            "queries": [[1, 1, 0, 0], [0, 0, 1, 1]],
            "epsilon": 1.0,
            "rounds": 3,
            "rng": 0,
        },
    ),
    "synthetic_rows": (
        dp.synthetic_rows,
        {"counts": [3.0, 0.0, 5.0, 2.0], "rows": 10, "shape": (2, 2), "rng": 0},
    ),
    "tpr_bound": (dp.tpr_bound, {"fpr": [0.0, 0.01, 0.5], "epsilon": 1.0, "delta": 1e-5}),
    "epsilon_lower_bound": (
        dp.epsilon_lower_bound,
        {
            "true_positives": 50,
            "positives": 100,
            "false_positives": 20,
            "negatives": 100,
            "delta": 0.0,
            "confidence": 0.95,
        },
    ),
    "tracing_score": (
        dp.tracing_score,
        {
            "targets": [[1.0, 0.0], [0.0, 1.0]],
            "released_means": [0.5, 0.5],
            "reference_means": [0.4, 0.6],
        },
    ),
    # --- beyond the pinned contract: every other public name (iterated from dp.__all__)
    "averaged_laplace_std": (
        dp.averaged_laplace_std,
        {"sensitivity": 1.0, "epsilon": 1.0, "answers": 4},
    ),
    "best_guess_accuracy": (dp.best_guess_accuracy, {"epsilon": 1.0, "sensitivity": 1.0}),
    "better_frequency_oracle": (dp.better_frequency_oracle, {"epsilon": 1.0, "k": 4}),
    "advantage_bound": (dp.advantage_bound, {"epsilon": 1.0, "delta": 0.0}),
    "approx_dp_tradeoff": (
        dp.approx_dp_tradeoff,
        {"epsilon": 1.0, "delta": 0.01, "alpha": 0.1},
    ),
    "gaussian_tradeoff": (dp.gaussian_tradeoff, {"mu": 1.0, "alpha": 0.1}),
    "gdp_delta": (dp.gdp_delta, {"mu": 1.0, "epsilon": 1.0}),
    "gdp_clt_mu": (dp.gdp_clt_mu, {"sample_rate": 0.01, "steps": 100, "sigma": 1.0}),
    "gdp_epsilon": (dp.gdp_epsilon, {"mu": 1.0, "delta": 1e-5}),
    "float_laplace": (dp.float_laplace, {"value": 0.0, "scale": 1.0, "size": 3, "rng": 0}),
    "possible_outputs": (dp.possible_outputs, {"outputs": [0.5, 1.5], "value": 0.0, "scale": 1.0}),
    "snapping_probabilities": (
        dp.snapping_probabilities,
        {"value": 0.0, "scale": 1.0, "bound": 20.0},
    ),
    "snapping_delta": (
        dp.snapping_delta,
        {"value": 0.0, "neighbour": 1.0, "scale": 1.0, "bound": 20.0, "epsilon": 1.0},
    ),
    "subsampled_privacy": (
        dp.subsampled_privacy,
        {"epsilon": 1.0, "delta": 1e-5, "sample_rate": 0.01},
    ),
    "binary_tree_counts": (dp.binary_tree_counts, {"stream": [1, 0, 1], "epsilon": 1.0, "rng": 0}),
    "binary_tree_variance": (dp.binary_tree_variance, {"t": 3, "horizon": 8, "epsilon": 1.0}),
    "increments_variance": (dp.increments_variance, {"t": 3, "epsilon": 1.0}),
    "recompute_variance": (dp.recompute_variance, {"horizon": 8, "epsilon": 1.0}),
    "discrete_gaussian": (dp.discrete_gaussian, {"sigma2": 2.0, "size": 3, "rng": 0}),
    "discrete_gaussian_pmf": (dp.discrete_gaussian_pmf, {"x": [0, 1], "sigma2": 2.0}),
    "discrete_gaussian_std": (dp.discrete_gaussian_std, {"sigma2": 2.0}),
    "simplex_projection": (dp.simplex_projection, {"values": [1.0, 2.0], "total": 2.0}),
    "round_preserving_sum": (dp.round_preserving_sum, {"values": [0.5, 0.5]}),
    "topdown": (
        dp.topdown,
        {"noisy_levels": [[1.0, 2.0]], "parents": [[0, 0]], "total": 3},
    ),
    "l_diversity": (dp.l_diversity, {"class_codes": [0, 0, 1], "sensitive_codes": [1, 2, 1]}),
    "t_closeness": (dp.t_closeness, {"class_codes": [0, 0, 1], "sensitive_codes": [1, 2, 1]}),
    "class_distances": (
        dp.class_distances,
        {"class_codes": [0, 0, 1], "sensitive_codes": [1, 2, 1]},
    ),
    "bound_partitions": (
        dp.bound_partitions,
        {
            "user_ids": [1, 1, 2],
            "partition_keys": ["a", "b", "a"],
            "max_partitions": 1,
            "max_per_partition": 1,
            "rng": 0,
        },
    ),
    "laplace_partition_threshold": (
        dp.laplace_partition_threshold,
        {"epsilon": 1.0, "delta": 1e-5, "max_partitions": 1},
    ),
    "partition_selection_probability": (
        dp.partition_selection_probability,
        {"count": 3, "epsilon": 1.0, "delta": 1e-5, "max_partitions": 1},
    ),
    "noise_sampling_interval": (
        dp.noise_sampling_interval,
        {"release": 10.0, "sampling_sd": 1.0, "laplace_scale": 2.0, "confidence": 0.95},
    ),
    "noise_sampling_coverage": (
        dp.noise_sampling_coverage,
        {"t": 1.0, "sampling_sd": 1.0, "laplace_scale": 2.0},
    ),
    "class_size_per_person": (dp.class_size_per_person, {"codes": [[1, 2], [1, 2], [3, 4]]}),
    "clip_counts": (dp.clip_counts, {"estimates": [3.0, -1.0]}),
    "clipped_laplace_bias": (dp.clipped_laplace_bias, {"count": [0.0, 3.0], "scale": 1.0}),
    "differencing_attack_successes": (
        dp.differencing_attack_successes,
        {"count_all": 10, "count_without": 9, "epsilon": 1.0, "tries": 10, "rng": 0},
    ),
    "differencing_success_probability": (
        dp.differencing_success_probability,
        {"epsilon": 1.0, "sensitivity": 1.0},
    ),
    "discrete_laplace_pmf": (dp.discrete_laplace_pmf, {"x": [0, 1, -2], "epsilon": 1.0}),
    "discrete_laplace_sum_half_width": (
        dp.discrete_laplace_sum_half_width,
        {"epsilon": [0.5, 0.1], "count": [2, 4], "confidence": 0.95},
    ),
    "discrete_laplace_mechanism": (
        dp.discrete_laplace_mechanism,
        {"value": 10, "epsilon": 1.0, "rng": 0},
    ),
    "equivalence_classes": (dp.equivalence_classes, {"codes": [[1, 2], [1, 2], [3, 4]]}),
    "estimate_proportion_from_counts": (
        dp.estimate_proportion_from_counts,
        {"yes_counts": 6, "n": 10, "p": 0.75, "q": 0.75},
    ),
    "fair_coin_formula_bias": (
        dp.fair_coin_formula_bias,
        {"proportion": 0.3, "honest": 0.5, "yes": 0.5},
    ),
    "fair_coin_formula_estimate": (dp.fair_coin_formula_estimate, {"yes_counts": 6, "n": 10}),
    "grr_estimate_from_counts": (
        dp.grr_estimate_from_counts,
        {"report_counts": [5, 3, 2], "epsilon": 1.0},
    ),
    "grr_oue_crossover_k": (dp.grr_oue_crossover_k, {"epsilon": 1.0}),
    "k_anonymity": (dp.k_anonymity, {"class_sizes": [2, 2, 1]}),
    "l1_error": (dp.l1_error, {"estimates": [1.0, 2.0], "truth": [1.0, 3.0]}),
    "l2_error": (dp.l2_error, {"estimates": [1.0, 2.0], "truth": [1.0, 3.0]}),
    "laplace_abs_error_probability": (
        dp.laplace_abs_error_probability,
        {"lo": 0.0, "hi": 1.0, "sensitivity": 1.0, "epsilon": 1.0},
    ),
    "laplace_cdf": (dp.laplace_cdf, {"x": 0.5, "loc": 0.0, "scale": 1.0}),
    "laplace_difference_cdf": (dp.laplace_difference_cdf, {"t": 0.5, "scale": 1.0}),
    "laplace_difference_pdf": (dp.laplace_difference_pdf, {"z": 0.5, "scale": 1.0}),
    "laplace_event_probabilities": (
        dp.laplace_event_probabilities,
        {"lo": 0.0, "hi": 1.0, "loc": 0.0, "loc_neighbour": 1.0, "scale": 1.0},
    ),
    "laplace_interval_half_width": (
        dp.laplace_interval_half_width,
        {"scale": 1.0, "confidence": 0.95},
    ),
    "laplace_median_abs_error": (
        dp.laplace_median_abs_error,
        {"sensitivity": 1.0, "epsilon": 1.0},
    ),
    "laplace_median_relative_error": (
        dp.laplace_median_relative_error,
        {"true_value": 100.0, "sensitivity": 1.0, "epsilon": 1.0},
    ),
    "laplace_pdf": (dp.laplace_pdf, {"y": 0.5, "loc": 0.0, "scale": 1.0}),
    "laplace_std": (dp.laplace_std, {"sensitivity": 1.0, "epsilon": 1.0}),
    "likelihood_ratio_bound": (dp.likelihood_ratio_bound, {"epsilon": 1.0}),
    "local_count_std": (dp.local_count_std, {"n": 100, "epsilon": 1.0}),
    "local_to_central_error_ratio": (
        dp.local_to_central_error_ratio,
        {"n": 100, "epsilon": 1.0},
    ),
    "normal_quantile_two_sided": (dp.normal_quantile_two_sided, {"level": 0.95}),
    "normalised_error": (dp.normalised_error, {"std": 2.0, "true_count": 100.0}),
    "oue_variance": (dp.oue_variance, {"n": 100, "epsilon": 1.0}),
    "oue_sue_share_threshold": (dp.oue_sue_share_threshold, {"epsilon": 1.0}),
    "people_by_class_size": (dp.people_by_class_size, {"class_sizes": [2, 2, 1]}),
    "posterior_bound": (dp.posterior_bound, {"prior": 0.1, "epsilon": 1.0}),
    "proportion_standard_error": (
        dp.proportion_standard_error,
        {"proportion": 0.3, "tries": 100},
    ),
    "pure_estimate": (
        dp.pure_estimate,
        {"support_counts": [5, 3], "n": 8, "p": 0.75, "q": 0.25},
    ),
    "pure_variance": (dp.pure_variance, {"n": 100, "p": 0.75, "q": 0.25, "frequency": 0.1}),
    "queries_within_budget": (
        dp.queries_within_budget,
        {"total_epsilon": 1.0, "epsilon_per_query": 0.1},
    ),
    "rr_confidence_interval": (
        dp.rr_confidence_interval,
        {"yes_count": 6, "n": 10, "p": 0.75, "q": 0.75, "level": 0.95},
    ),
    "rr_count_std": (dp.rr_count_std, {"proportion": 0.3, "n": 100, "p": 0.75, "q": 0.75}),
    "rr_likelihood_ratios": (dp.rr_likelihood_ratios, {"p": 0.75, "q": 0.75}),
    "rr_pull_point": (dp.rr_pull_point, {"p": 0.75, "q": 0.6}),
    "rr_running_intervals": (
        dp.rr_running_intervals,
        {"reports": [1, 0, 1], "p": 0.75, "q": 0.75, "level": 0.95},
    ),
    "running_average": (dp.running_average, {"answers": [1.0, 2.0, 3.0]}),
    "share_unique": (dp.share_unique, {"class_sizes": [2, 2, 1]}),
    "split_budget": (dp.split_budget, {"total_epsilon": 1.0, "queries": 4}),
    "rdp_gaussian": (dp.rdp_gaussian, {"alpha": [2.0, 3.0], "sigma": 1.0, "sensitivity": 1.0}),
    "rdp_laplace": (dp.rdp_laplace, {"alpha": 2.0, "scale": 1.0, "sensitivity": 1.0}),
    "rdp_randomized_response": (
        dp.rdp_randomized_response,
        {"alpha": 2.0, "keep_probability": 0.75},
    ),
    "rdp_subsampled_gaussian": (
        dp.rdp_subsampled_gaussian,
        {"alpha": [2, 3], "sigma": 1.0, "sample_rate": 0.01},
    ),
    "rdp_to_dp": (dp.rdp_to_dp, {"alphas": [2.0, 3.0], "rdp": [0.5, 0.8], "delta": 1e-5}),
    "logistic_erm": (dp.logistic_erm, {"X": [[0.5, 0.1], [-0.3, 0.2]], "y": [1, -1], "lam": 0.1}),
    "l2_laplace_vector": (dp.l2_laplace_vector, {"dim": 3, "beta": 1.0, "rng": 0}),
    "output_perturbation": (
        dp.output_perturbation,
        {"X": [[0.5, 0.1], [-0.3, 0.2]], "y": [1, -1], "epsilon": 1.0, "lam": 0.1, "rng": 0},
    ),
    "objective_perturbation": (
        dp.objective_perturbation,
        {"X": [[0.5, 0.1], [-0.3, 0.2]], "y": [1, -1], "epsilon": 1.0, "lam": 0.1, "rng": 0},
    ),
    "thresholdout": (
        dp.thresholdout,
        {
            "train_values": [0.5, 0.6],
            "holdout_values": [0.5, 0.7],
            "threshold": 0.04,
            "tolerance": 0.01,
            "budget": 2,
            "rng": 0,
        },
    ),
    "Thresholdout": (
        dp.Thresholdout,
        {"threshold": 0.04, "tolerance": 0.01, "budget": 2, "rng": 0},
    ),
    "thresholdout_epsilon": (
        dp.thresholdout_epsilon,
        {"budget": 10, "tolerance": 0.01, "sensitivity": 0.001},
    ),
    "PrivacyBudget": (dp.PrivacyBudget, {"total": 2.0, "spent": 0.5}),
    "ue_estimate_from_counts": (
        dp.ue_estimate_from_counts,
        {"bit_counts": [5, 3], "n": 8, "p": 0.5, "q": 0.25},
    ),
    # --- sensitivity and clamping (the dp/ contract)
    "clamp": (dp.clamp, {"values": [1.0, 5.0, 12.0], "lower": 0.0, "upper": 10.0}),
    "sum_sensitivity": (dp.sum_sensitivity, {"lower": -2.0, "upper": 10.0}),
    "clamping_bias": (dp.clamping_bias, {"values": [1.0, 5.0, 12.0], "lower": 0.0, "upper": 10.0}),
    "noisy_sum": (
        dp.noisy_sum,
        {"values": [1.0, 5.0, 12.0], "lower": 0.0, "upper": 10.0, "epsilon": 1.0, "rng": 0},
    ),
    "noisy_mean": (
        dp.noisy_mean,
        {"values": [1.0, 5.0, 12.0], "lower": 0.0, "upper": 10.0, "epsilon": 1.0, "rng": 0},
    ),
    "noisy_mean_parts": (
        dp.noisy_mean_parts,
        {"values": [1.0, 5.0, 12.0], "lower": 0.0, "upper": 10.0, "epsilon": 1.0, "rng": 0},
    ),
    "clamping_bias_curve": (
        dp.clamping_bias_curve,
        {"values": [1.0, 5.0, 12.0], "lower": 0.0, "uppers": [2.0, 10.0]},
    ),
    "clamped_sum_squared_error": (
        dp.clamped_sum_squared_error,
        {"values": [1.0, 5.0, 12.0], "lower": 0.0, "uppers": [2.0, 10.0], "epsilon": 1.0},
    ),
    "best_clamp_upper": (
        dp.best_clamp_upper,
        {"values": [1.0, 5.0, 12.0], "lower": 0.0, "epsilon": 1.0, "uppers": [2.0, 10.0]},
    ),
    "contribution_bias": (dp.contribution_bias, {"rows_per_person": [1, 3, 7], "max_rows": 2}),
    "bound_contributions": (
        dp.bound_contributions,
        {"person_ids": [0, 0, 1, 2, 2, 2], "max_rows": 2, "rng": 0},
    ),
    # --- choosing privately (the dp/ contract)
    "exponential_mechanism_probabilities": (
        dp.exponential_mechanism_probabilities,
        {"scores": [0.0, 1.0, 3.0], "sensitivity": 1.0, "epsilon": 1.0},
    ),
    "exponential_mechanism": (
        dp.exponential_mechanism,
        {"scores": [0.0, 1.0, 3.0], "sensitivity": 1.0, "epsilon": 1.0, "rng": 0},
    ),
    "gumbel_noisy_max": (
        dp.gumbel_noisy_max,
        {"scores": [0.0, 1.0, 3.0], "sensitivity": 1.0, "epsilon": 1.0, "rng": 0},
    ),
    "report_noisy_max": (
        dp.report_noisy_max,
        {"counts": [3.0, 1.0, 2.0], "epsilon": 1.0, "rng": 0},
    ),
    "report_noisy_max_probabilities": (
        dp.report_noisy_max_probabilities,
        {"counts": [3.0, 1.0, 2.0], "epsilon": 1.0},
    ),
    "quantile_scores": (
        dp.quantile_scores,
        {"values": [1.0, 5.0, 7.0], "candidates": [0.0, 5.0, 10.0], "alpha": 0.5},
    ),
    "quantile_sensitivity": (dp.quantile_sensitivity, {"alpha": 0.5}),
    "private_quantile": (
        dp.private_quantile,
        {
            "values": [1.0, 5.0, 7.0],
            "candidates": [0.0, 5.0, 10.0],
            "alpha": 0.5,
            "epsilon": 1.0,
            "rng": 0,
        },
    ),
    # --- approximate DP and the Gaussian mechanism (the dp/ contract)
    "gaussian_sigma_classic": (
        dp.gaussian_sigma_classic,
        {"sensitivity": 1.0, "epsilon": 0.5, "delta": 1e-5},
    ),
    "gaussian_delta": (dp.gaussian_delta, {"sigma": 2.0, "sensitivity": 1.0, "epsilon": 1.0}),
    "analytic_gaussian_sigma": (
        dp.analytic_gaussian_sigma,
        {"sensitivity": 1.0, "epsilon": 1.0, "delta": 1e-5},
    ),
    "gaussian_mechanism": (
        dp.gaussian_mechanism,
        {"value": 3.0, "sensitivity": 1.0, "epsilon": 1.0, "delta": 1e-5, "rng": 0},
    ),
    "gaussian_privacy_loss": (
        dp.gaussian_privacy_loss,
        {"y": 0.3, "loc": 0.0, "loc_neighbour": 1.0, "sigma": 1.0},
    ),
    "gaussian_privacy_loss_distribution": (
        dp.gaussian_privacy_loss_distribution,
        {"sensitivity": 1.0, "sigma": 2.0},
    ),
    "gaussian_loss_tail": (
        dp.gaussian_loss_tail,
        {"sigma": 2.0, "sensitivity": 1.0, "epsilon": 1.0},
    ),
    "delta_exposure": (dp.delta_exposure, {"delta": 1e-5, "people": 1000}),
    "gaussian_zcdp_rho": (dp.gaussian_zcdp_rho, {"sensitivity": 1.0, "sigma": 2.0}),
    "gaussian_sigma_for_rho": (dp.gaussian_sigma_for_rho, {"sensitivity": 1.0, "rho": 0.5}),
    "pure_to_zcdp": (dp.pure_to_zcdp, {"epsilon": 1.0}),
    "zcdp_to_approx_dp": (dp.zcdp_to_approx_dp, {"rho": 0.5, "delta": 1e-10}),
    "zcdp_to_approx_dp_simple": (dp.zcdp_to_approx_dp_simple, {"rho": 0.5, "delta": 1e-10}),
    "zcdp_compose": (dp.zcdp_compose, {"rhos": [0.5, 0.25]}),
    "advanced_composition": (
        dp.advanced_composition,
        {"epsilon": 0.1, "delta": 0.0, "k": 10, "delta_prime": 1e-5},
    ),
    "advanced_composition_linear_from": (
        dp.advanced_composition_linear_from,
        {"epsilon": 0.1, "delta_prime": 1e-5},
    ),
    "zcdp_linear_from": (dp.zcdp_linear_from, {"rho": 0.5, "delta": 1e-5}),
    "laplace_gaussian_crossover": (dp.laplace_gaussian_crossover, {"delta": 1e-5}),
    "audit_delta": (
        dp.audit_delta,
        {"outputs_d": [0, 1, 1], "outputs_d_prime": [0, 0, 1], "epsilon": 1.0},
    ),
    "random_subset_queries": (dp.random_subset_queries, {"n": 5, "m": 8, "rng": 0}),
    "subset_sum_answers": (
        dp.subset_sum_answers,
        {"secret": [1, 0, 1], "queries": [[1, 1, 0], [0, 1, 1]], "noise_bound": 1.0, "rng": 0},
    ),
    "subset_sum_attack": (
        dp.subset_sum_attack,
        {"queries": [[1, 1, 0], [0, 1, 1], [1, 0, 1]], "answers": [1.0, 1.0, 2.0]},
    ),
    "joint_counts": (dp.joint_counts, {"records": BLOCK, "levels": BLOCK_LEVELS}),
    "records_from_counts": (
        dp.records_from_counts,
        {"counts": [1, 0, 0, 1, 0, 1, 1, 0], "levels": BLOCK_LEVELS},
    ),
    "marginal_tables": (dp.marginal_tables, {"records": BLOCK, "levels": BLOCK_LEVELS}),
    "reconstruct_from_marginals": (
        dp.reconstruct_from_marginals,
        {"tables": BLOCK_TABLES, "levels": BLOCK_LEVELS, "max_solutions": 100},
    ),
    "noisy_marginal_tables": (
        dp.noisy_marginal_tables,
        {"tables": BLOCK_TABLES, "levels": BLOCK_LEVELS, "epsilon": 1.0, "rng": 0},
    ),
    "closest_dataset": (dp.closest_dataset, {"tables": BLOCK_TABLES, "levels": BLOCK_LEVELS}),
    "reconstruction_matches": (dp.reconstruction_matches, {"truth": [1, 2, 0], "guess": [0, 3, 1]}),
}

CHOOSING_SCORES = (
    ("exponential_mechanism_probabilities", "scores"),
    ("exponential_mechanism", "scores"),
    ("gumbel_noisy_max", "scores"),
    ("report_noisy_max", "counts"),
    ("report_noisy_max_probabilities", "counts"),
)
WITH_ALPHA = ("quantile_scores", "quantile_sensitivity", "private_quantile")

CLAMP_FUNCTIONS = (
    "clamp",
    "sum_sensitivity",
    "clamping_bias",
    "noisy_sum",
    "noisy_mean",
    "noisy_mean_parts",
)
WITH_VALUES = (
    "clamp",
    "clamping_bias",
    "noisy_sum",
    "noisy_mean",
    "noisy_mean_parts",
    "clamping_bias_curve",
    "clamped_sum_squared_error",
    "best_clamp_upper",
)

WITH_EPSILON = [name for name, (_, kw) in VALID.items() if "epsilon" in kw]
WITH_PQ = [name for name, (_, kw) in VALID.items() if "p" in kw]
# k categories (>= 2); advanced_composition's k counts mechanisms (>= 1), and the median's
# k counts replacements (>= 0): their own cases
K_NOT_CATEGORIES = ("advanced_composition", "median_sensitivity_at_distance")
WITH_K = [name for name, (_, kw) in VALID.items() if "k" in kw and name not in K_NOT_CATEGORIES]
WITH_RNG = [name for name, (_, kw) in VALID.items() if "rng" in kw]
# δ = 0 is allowed where it means pure DP: advanced composition's per-step δ, and an attack's
# rates turned into ε (epsilon_from_rates, epsilon_lower_bound: δ in [0, 1), cases below)
DELTA_MAY_BE_ZERO = (
    "advanced_composition",
    "approx_group_privacy",  # δ = 0: the pure case, g·ε
    "approx_group_privacy_per_change",
    "advantage_bound",
    "approx_dp_tradeoff",
    "subsampled_privacy",
    "epsilon_from_rates",
    "epsilon_lower_bound",
    "tpr_bound",
)
WITH_DELTA = [
    name for name, (_, kw) in VALID.items() if "delta" in kw and name not in DELTA_MAY_BE_ZERO
]
WITH_SIGMA = [name for name, (_, kw) in VALID.items() if "sigma" in kw]
WITH_SENSITIVITY_GAUSSIAN = (
    "gaussian_sigma_classic",
    "gaussian_delta",
    "analytic_gaussian_sigma",
    "gaussian_mechanism",
    "gaussian_privacy_loss_distribution",
    "gaussian_loss_tail",
    "gaussian_zcdp_rho",
    "gaussian_sigma_for_rho",
)
# δ must lie strictly inside (0, 1); ρ, σ and Δ must be finite and > 0
BAD_DELTAS = [
    (0, ValueError),
    (0.0, ValueError),
    (1.0, ValueError),
    (-1e-5, ValueError),
    (NAN, ValueError),
    (INF, ValueError),
    (True, TypeError),
    ("1e-5", TypeError),
]
BAD_RHOS = [
    (0.0, ValueError),
    (-0.5, ValueError),
    (NAN, ValueError),
    (INF, ValueError),
    (True, TypeError),
    ("0.5", TypeError),
]


def build_cases():
    cases = []

    def add(name, override, exc, param, tag):
        cases.append(pytest.param(name, override, exc, param, id=f"{name}-{tag}"))

    for name in WITH_EPSILON:
        for value, exc in BAD_EPSILONS:
            add(name, {"epsilon": value}, exc, "epsilon", f"epsilon={value!r}")
    # Rényi DP: orders > 1 and finite (α = ∞ is pure DP, refused), integer ones where asked
    for name in ("rdp_gaussian", "rdp_laplace", "rdp_randomized_response"):
        for value, exc in (
            (1.0, ValueError),
            (0.5, ValueError),
            (INF, ValueError),
            (NAN, ValueError),
            ("2", TypeError),
            ([], ValueError),
        ):
            add(name, {"alpha": value}, exc, "alpha", f"alpha={value!r}")
    for value, exc in (
        (2.5, ValueError),
        (1, ValueError),
        ([2, 3.5], ValueError),
        (True, TypeError),
        ("2", TypeError),
        (INF, ValueError),
    ):
        add("rdp_subsampled_gaussian", {"alpha": value}, exc, "alpha", f"alpha={value!r}")
    for value, exc in ((0.0, ValueError), (1.5, ValueError), (NAN, ValueError), ("q", TypeError)):
        add("rdp_subsampled_gaussian", {"sample_rate": value}, exc, "sample_rate", f"q={value!r}")
    for value, exc in (
        (0.5, ValueError),
        (1.0, ValueError),
        (0.3, ValueError),
        (NAN, ValueError),
        ("p", TypeError),
    ):
        add(
            "rdp_randomized_response",
            {"keep_probability": value},
            exc,
            "keep_probability",
            f"p={value!r}",
        )
    add("rdp_to_dp", {"alphas": [1.0, 3.0]}, ValueError, "alphas", "order 1")
    add("rdp_to_dp", {"alphas": [[2.0, 3.0]], "rdp": [[0.5, 0.8]]}, ValueError, "alphas", "2-D")
    add("rdp_to_dp", {"rdp": [0.5]}, ValueError, "rdp", "length")
    add("rdp_to_dp", {"rdp": [0.5, NAN]}, ValueError, "rdp", "nan")
    add("rdp_to_dp", {"rdp": [-0.5, 0.8]}, ValueError, "rdp", "negative")
    add("rdp_to_dp", {"conversion": "tight"}, ValueError, "conversion", "unknown conversion")
    for name in ("logistic_erm", "output_perturbation", "objective_perturbation"):
        add(name, {"X": [[0.9, 0.9], [0.1, 0.1]]}, ValueError, "X", "a row outside the ball")
        add(name, {"X": [0.5, 0.1]}, ValueError, "X", "1-D")
        add(name, {"X": [[0.5, NAN], [0.1, 0.1]]}, ValueError, "X", "nan")
        add(name, {"y": [1, 0]}, ValueError, "y", "a 0 label")
        add(name, {"y": [1]}, ValueError, "y", "one label short")
        for value, exc in (
            (0.0, ValueError),
            (-1.0, ValueError),
            (NAN, ValueError),
            ("1", TypeError),
        ):
            add(name, {"lam": value}, exc, "lam", f"lam={value!r}")
    for value, exc in ((0, ValueError), (2.5, EITHER), ("3", TypeError)):
        add("l2_laplace_vector", {"dim": value}, exc, "dim", f"dim={value!r}")
    for value, exc in ((0.0, ValueError), (-1.0, ValueError), (INF, ValueError), ("1", TypeError)):
        add("l2_laplace_vector", {"beta": value}, exc, "beta", f"beta={value!r}")
    add("thresholdout", {"holdout_values": [0.5]}, ValueError, "holdout_values", "lengths")
    add("thresholdout", {"train_values": [[0.5, 0.6]]}, ValueError, "train_values", "2-D")
    add("thresholdout", {"train_values": [0.5, NAN]}, ValueError, "train_values", "nan")
    add("thresholdout", {"holdout_values": ["a", "b"]}, TypeError, "holdout_values", "text")
    for value, exc in ((-0.1, ValueError), (NAN, ValueError), (INF, ValueError), ("0", TypeError)):
        add("thresholdout", {"threshold": value}, exc, "threshold", f"T={value!r}")
    for value, exc in ((0.0, ValueError), (-1.0, ValueError), (NAN, ValueError), ("1", TypeError)):
        add("thresholdout", {"tolerance": value}, exc, "tolerance", f"sigma={value!r}")
    for value, exc in ((0, ValueError), (2.5, EITHER), (True, TypeError), ("2", TypeError)):
        add("thresholdout", {"budget": value}, exc, "budget", f"budget={value!r}")
        add("Thresholdout", {"budget": value}, exc, "budget", f"budget={value!r}")
        add("thresholdout_epsilon", {"budget": value}, exc, "budget", f"budget={value!r}")
    for value, exc in ((-0.1, ValueError), (NAN, ValueError), ("0", TypeError)):
        add("Thresholdout", {"threshold": value}, exc, "threshold", f"T={value!r}")
    for value, exc in ((0.0, ValueError), (-1.0, ValueError), (INF, ValueError), ("1", TypeError)):
        add("Thresholdout", {"tolerance": value}, exc, "tolerance", f"sigma={value!r}")
        add("thresholdout_epsilon", {"tolerance": value}, exc, "tolerance", f"sigma={value!r}")
        add("thresholdout_epsilon", {"sensitivity": value}, exc, "sensitivity", f"D={value!r}")
    for value, exc in BAD_EPSILONS:  # a budget is an ε, finite and > 0 (None: no budget)
        if value is None:
            continue
        add("PrivacyBudget", {"total": value}, exc, "total", f"total={value!r}")
    for value, exc in [(-0.1, ValueError), (2.5, ValueError), (NAN, ValueError), ("0", TypeError)]:
        add("PrivacyBudget", {"spent": value}, exc, "spent", f"spent={value!r}")
    for name in ("sequential_composition", "parallel_composition"):
        add(name, {"epsilons": []}, ValueError, "epsilon", "empty")
        for value, exc in BAD_EPSILONS:
            add(name, {"epsilons": [0.5, value]}, exc, "epsilon", f"element={value!r}")
    for name in WITH_PQ:
        for param in ("p", "q"):
            for value, exc in BAD_PROBABILITIES:
                add(name, {param: value}, exc, param, f"{param}={value!r}")
    for name in ("coin_flip_probabilities",):
        for param in ("honest", "yes"):
            for value, exc in BAD_PROBABILITIES:
                add(name, {param: value}, exc, param, f"{param}={value!r}")
    for name in WITH_K:
        for value, exc in BAD_K:
            add(name, {"k": value}, exc, "k", f"k={value!r}")
    # Rules by parameter name, for every function of the table.
    for name, (_, kwargs) in VALID.items():
        for param in kwargs:
            if param in ("sensitivity", "scale", "std"):
                zero = [] if param == "std" else [(0.0, ValueError)]  # std 0: an exact answer
                for value, exc in [
                    *zero,
                    (-1.0, ValueError),
                    (NAN, ValueError),
                    (INF, ValueError),
                    ("1", TypeError),
                    (True, TypeError),
                ]:
                    add(name, {param: value}, exc, param, f"{param}={value!r}")
            shares = ("prior", "frequency", "proportion", "honest", "yes")
            if param in shares and name != "coin_flip_probabilities":
                for value, exc in BAD_PROBABILITIES:
                    add(name, {param: value}, exc, param, f"{param}={value!r}")
            if param in ("level", "confidence"):
                # a 0% interval is a point (half-width 0): valid
                for value, exc in [
                    (-0.1, ValueError),
                    (1.0, ValueError),
                    (NAN, ValueError),
                    ("x", TypeError),
                ]:
                    add(name, {param: value}, exc, param, f"{param}={value!r}")
            if param in ("n", "tries", "queries", "answers") and name != "project_counts":
                # local_count_std and local_to_central_error_ratio take a real n (a curve)
                real_n = name in ("local_count_std", "local_to_central_error_ratio")
                fraction = [] if real_n else [(2.5, EITHER)]
                for value, exc in [(-1, ValueError), *fraction, (True, TypeError)]:
                    add(name, {param: value}, exc, param, f"{param}={value!r}")
            if param in ("total_epsilon", "epsilon_per_query"):
                for value, exc in BAD_EPSILONS:
                    add(name, {param: value}, exc, "epsilon", f"{param}={value!r}")
            if param in (
                "estimates",
                "truth",
                "answers",
                "support_counts",
                "bit_counts",
                "report_counts",
                "class_sizes",
                "codes",
                "reports",
            ):
                # empty in, empty out: per-person functions and a survey with no answer yet
                empty_ok = name in ("randomized_response", "rr_running_intervals")
                if isinstance(kwargs[param], list) and not empty_ok:
                    add(name, {param: []}, ValueError, param, f"{param}=empty")
                    if isinstance(np.ravel(kwargs[param])[0].item(), float):
                        add(name, {param: [1.0, NAN]}, ValueError, param, f"{param}=nan")
    for name in WITH_RNG:
        for value, exc in BAD_RNG:
            add(name, {"rng": value}, exc, "rng", f"rng={value!r}")

    # p + q == 1: the binary RR estimators would divide by zero
    for name in ("estimate_proportion", "estimate_count", "rr_variance"):
        add(name, {"p": 0.5, "q": 0.5}, ValueError, "p", "p+q=1-half")
        add(name, {"p": 0.3, "q": 0.7}, ValueError, "q", "p+q=1")
    # p == q: unary-encoding estimators would divide by zero. (ue_epsilon(p, p) is not an
    # estimator: the bits then ignore the value, so epsilon is 0; see test_dp_exact_values.)
    for name in ("ue_aggregate", "ue_variance"):
        add(name, {"p": 0.4, "q": 0.4}, ValueError, "p", "p=q")

    # values outside 0..k-1
    for name, param in (
        ("grr_perturb", "values"),
        ("grr_estimate", "reports"),
        ("ue_encode", "values"),
    ):
        add(name, {param: [0, 4]}, ValueError, param, "value=k")
        add(name, {param: [0, 99]}, ValueError, param, "value>k")
        add(name, {param: [-1, 0]}, ValueError, param, "negative")
        add(name, {param: [0.5, 1]}, EITHER, param, "non-integer")
        add(name, {param: ["a", "b"]}, EITHER, param, "strings")
    for name in ("grr_perturb", "ue_encode"):
        add(name, {"values": [0, 1, 2, 3, 3], "k": 3}, ValueError, "values", "value=k-small-k")
    # empty input to estimators and the audit
    add("estimate_proportion", {"responses": []}, ValueError, "responses", "empty")
    add("estimate_count", {"responses": []}, ValueError, "responses", "empty")
    add("grr_estimate", {"reports": []}, ValueError, "reports", "empty")
    add("ue_aggregate", {"bits": np.zeros((0, 3), dtype=bool)}, ValueError, "bits", "empty")
    add("project_counts", {"estimates": []}, ValueError, "estimates", "empty")
    add("audit_epsilon", {"outputs_d": []}, ValueError, "outputs_d", "empty")
    add("audit_epsilon", {"alpha": 0.0}, ValueError, "alpha", "alpha=0")
    add("audit_epsilon", {"alpha": 1.5}, ValueError, "alpha", "alpha>1")
    add("audit_epsilon", {"alpha": NAN}, ValueError, "alpha", "alpha=nan")
    # responses and bits outside {0, 1}
    add("estimate_proportion", {"responses": [0, 2]}, ValueError, "responses", "two")
    add("estimate_count", {"responses": [-1, 1]}, ValueError, "responses", "minus-one")
    add("ue_aggregate", {"bits": [[0, 2, 0]]}, ValueError, "bits", "two")
    add("ue_perturb", {"bits": [[0, 2, 0]]}, ValueError, "bits", "two")
    # sensitivity and scale must be > 0 and finite
    for name in ("laplace_scale", "laplace_mechanism", "laplace_variance"):
        for value, exc in (
            (0.0, ValueError),
            (-1.0, ValueError),
            (NAN, ValueError),
            (INF, ValueError),
            (True, TypeError),
            ("1", TypeError),
        ):
            add(name, {"sensitivity": value}, exc, "sensitivity", f"sensitivity={value!r}")
    for name in ("laplace_interval_probability", "laplace_privacy_loss"):
        for value, exc in (
            (0.0, ValueError),
            (-2.0, ValueError),
            (NAN, ValueError),
            (True, TypeError),
            ("1", TypeError),
        ):
            add(name, {"scale": value}, exc, "scale", f"scale={value!r}")
    add("laplace_interval_probability", {"lo": NAN}, ValueError, "lo", "lo=nan")
    add("laplace_interval_probability", {"hi": NAN}, ValueError, "hi", "hi=nan")
    add("laplace_interval_probability", {"loc": NAN}, ValueError, "loc", "loc=nan")
    add("laplace_privacy_loss", {"loc": NAN}, ValueError, "loc", "loc=nan")
    add("laplace_privacy_loss", {"loc_neighbour": INF}, ValueError, "loc_neighbour", "inf")
    add("laplace_mechanism", {"value": NAN}, ValueError, "value", "value=nan")
    add("laplace_mechanism", {"value": "3"}, TypeError, "value", "value=str")
    # randomized_response truth: only 0/1 (booleans are accepted: they are 0/1 by nature,
    # and `df.Occupation == "Sales"` is the natural way to pass a yes/no condition)
    add("randomized_response", {"truth": [0, 2]}, ValueError, "truth", "two")
    add("randomized_response", {"truth": [-1, 1]}, ValueError, "truth", "minus-one")
    add("randomized_response", {"truth": [0.5, 1]}, EITHER, "truth", "half")
    # counts for the samplers
    add("sample_rr_counts", {"true_yes": 11, "n": 10}, ValueError, "true_yes", "n<true_yes")
    add("sample_rr_counts", {"true_yes": -1}, ValueError, "true_yes", "negative")
    add("sample_rr_counts", {"n": -5, "true_yes": 0}, ValueError, "n", "negative-n")
    add("sample_rr_counts", {"true_yes": 2.5}, EITHER, "true_yes", "non-integer")
    add("sample_rr_counts", {"true_yes": True}, TypeError, "true_yes", "bool")
    add("sample_rr_counts", {"size": -1}, EITHER, "size", "negative-size")
    for name in ("sample_grr_counts", "sample_ue_counts"):
        add(name, {"true_counts": [5, -1, 2]}, ValueError, "true_counts", "negative")
        add(name, {"true_counts": [5, 1.5, 2]}, EITHER, "true_counts", "non-integer")
        add(name, {"true_counts": [5, NAN, 2]}, EITHER, "true_counts", "nan")
    # sizes and groups
    for value, exc in ((0, ValueError), (-2, ValueError), (1.5, EITHER), (True, TypeError)):
        for name in ("group_privacy", "approx_group_privacy", "approx_group_privacy_per_change"):
            add(name, {"group_size": value}, exc, "group_size", f"group_size={value!r}")
    for name in ("approx_group_privacy", "approx_group_privacy_per_change"):
        for value, exc in ((1.0, ValueError), (-1e-5, ValueError), (NAN, ValueError)):
            add(name, {"delta": value}, exc, "delta", f"delta={value!r}")
        for value, exc in ((True, TypeError), ("1e-5", TypeError)):
            add(name, {"delta": value}, exc, "delta", f"delta={value!r}")
        # e^{g·ε} past a float: refused, not an infinite or NaN δ
        add(name, {"epsilon": 800.0, "group_size": 2}, ValueError, "group_size", "overflow")
    add("rr_variance", {"proportion": 1.5}, ValueError, "proportion", "proportion>1")
    add("rr_variance", {"proportion": NAN}, ValueError, "proportion", "proportion=nan")
    add("rr_variance", {"n": 0}, ValueError, "n", "n=0")
    add("rr_variance", {"n": -10}, ValueError, "n", "n<0")
    add("grr_variance", {"n": -10}, ValueError, "n", "n<0")
    add("ue_variance", {"n": -10}, ValueError, "n", "n<0")
    add("ue_variance", {"frequency": 1.5}, ValueError, "frequency", "frequency>1")
    add("ue_variance", {"frequency": -0.1}, ValueError, "frequency", "frequency<0")
    add("project_counts", {"n": -1}, ValueError, "n", "n<0")
    add("discrete_laplace_mechanism", {"value": 2.5}, ValueError, "value", "fraction")
    add("discrete_laplace_mechanism", {"value": NAN}, ValueError, "value", "nan")
    add("discrete_laplace_mechanism", {"value": "3"}, TypeError, "value", "str")
    add("discrete_laplace_pmf", {"x": [0.5]}, ValueError, "x", "fraction")
    add("discrete_laplace_pmf", {"x": [NAN]}, ValueError, "x", "nan")
    add("project_counts", {"estimates": [1.0, NAN]}, ValueError, "estimates", "nan")
    add("project_counts", {"estimates": [1.0, INF]}, ValueError, "estimates", "inf")
    # clamping: bounds in order and finite, values numbers, not empty, one per person
    for name in CLAMP_FUNCTIONS:
        add(name, {"lower": 10.0, "upper": 10.0}, ValueError, "lower", "lower=upper")
        add(name, {"lower": 11.0, "upper": 10.0}, ValueError, "lower", "lower>upper")
        for param in ("lower", "upper"):
            for value, exc in ((NAN, ValueError), (INF, ValueError), ("0", TypeError)):
                add(name, {param: value}, exc, param, f"{param}={value!r}")
            add(name, {param: True}, TypeError, param, f"{param}=bool")
    add("sum_sensitivity", {"neighbours": "swap"}, ValueError, "neighbours", "unknown")
    for name in WITH_VALUES:
        add(name, {"values": []}, ValueError, "values", "empty")
        add(name, {"values": [1.0, NAN]}, ValueError, "values", "nan")
        add(name, {"values": [1.0, INF]}, ValueError, "values", "inf")
        add(name, {"values": ["a", "b"]}, EITHER, "values", "strings")
        add(name, {"values": "12"}, TypeError, "values", "one-string")
        add(name, {"values": [True, False]}, TypeError, "values", "booleans")
    for name in ("clamping_bias_curve", "clamped_sum_squared_error", "best_clamp_upper"):
        add(name, {"uppers": []}, ValueError, "uppers", "empty")
        add(name, {"uppers": [NAN]}, ValueError, "uppers", "nan")
        add(name, {"uppers": [-1.0]}, ValueError, "upper", "below-lower")
        add(name, {"lower": NAN}, ValueError, "lower", "lower=nan")
    add("noisy_sum", {"values": [[1.0], [2.0]]}, ValueError, "values", "two-dimensional")
    add("contribution_bias", {"rows_per_person": []}, ValueError, "rows_per_person", "empty")
    add("contribution_bias", {"rows_per_person": [1, -2]}, ValueError, "rows_per_person", "neg")
    add("contribution_bias", {"rows_per_person": [1, 2.5]}, ValueError, "rows_per_person", "half")
    add("contribution_bias", {"max_rows": 0}, ValueError, "max_rows", "zero")
    add("contribution_bias", {"max_rows": NAN}, ValueError, "max_rows", "nan")
    add("bound_contributions", {"person_ids": []}, ValueError, "person_ids", "empty")
    add("bound_contributions", {"max_rows": 0}, ValueError, "max_rows", "zero")
    add("bound_contributions", {"max_rows": 1.5}, EITHER, "max_rows", "half")
    # choosing: scores non-empty, 1-D, finite; quantiles on an increasing grid, α in [0, 1]
    for name, param in CHOOSING_SCORES:
        add(name, {param: []}, ValueError, param, "empty")
        add(name, {param: [1.0, NAN]}, ValueError, param, "nan")
        add(name, {param: [1.0, INF]}, ValueError, param, "inf")
        add(name, {param: [[1.0, 2.0]]}, ValueError, param, "two-dimensional")
        add(name, {param: ["a", "b"]}, EITHER, param, "strings")
        add(name, {param: [True, False]}, TypeError, param, "booleans")
    for name in ("quantile_scores", "private_quantile"):
        add(name, {"values": []}, ValueError, "values", "empty")
        add(name, {"values": [1.0, NAN]}, ValueError, "values", "nan")
        add(name, {"candidates": []}, ValueError, "candidates", "empty")
        add(name, {"candidates": [5.0, 0.0, 10.0]}, ValueError, "candidates", "unsorted")
        add(name, {"candidates": [0.0, 0.0, 10.0]}, ValueError, "candidates", "repeated")
        add(name, {"candidates": [0.0, NAN]}, ValueError, "candidates", "nan")
    for name in WITH_ALPHA:
        for value, exc in BAD_PROBABILITIES:
            add(name, {"alpha": value}, exc, "alpha", f"alpha={value!r}")
    add("quantile_sensitivity", {"neighbours": "swap"}, ValueError, "neighbours", "unknown")
    # approximate DP: δ in (0, 1); ρ, σ, Δ finite and > 0; the classic σ only for ε < 1
    for name in WITH_DELTA:
        for value, exc in BAD_DELTAS:
            add(name, {"delta": value}, exc, "delta", f"delta={value!r}")
    for name in (
        "zcdp_to_approx_dp",
        "zcdp_to_approx_dp_simple",
        "gaussian_sigma_for_rho",
        "zcdp_linear_from",
    ):
        for value, exc in BAD_RHOS:
            add(name, {"rho": value}, exc, "rho", f"rho={value!r}")
    for name in WITH_SIGMA:
        for value, exc in BAD_RHOS:
            add(name, {"sigma": value}, exc, "sigma", f"sigma={value!r}")
    for name in WITH_SENSITIVITY_GAUSSIAN:
        for value, exc in BAD_RHOS:
            add(name, {"sensitivity": value}, exc, "sensitivity", f"sensitivity={value!r}")
    for value in (1.0, 1.5, 10.0):
        add("gaussian_sigma_classic", {"epsilon": value}, ValueError, "epsilon", f"eps={value}")
    add("advanced_composition", {"delta": 1.0}, ValueError, "delta", "delta=1")
    add("advanced_composition", {"delta": -0.1}, ValueError, "delta", "delta<0")
    add("advanced_composition", {"delta": NAN}, ValueError, "delta", "delta=nan")
    add("advanced_composition", {"delta": 0.2}, ValueError, "delta", "k-delta-over-1")
    add("advanced_composition", {"k": 0}, ValueError, "k", "k=0")
    add("advanced_composition", {"k": 2.5}, EITHER, "k", "k=2.5")
    for value, exc in BAD_DELTAS:
        add("advanced_composition", {"delta_prime": value}, exc, "delta_prime", f"dp={value!r}")
    for value, exc in BAD_DELTAS:
        add(
            "advanced_composition_linear_from",
            {"delta_prime": value},
            exc,
            "delta_prime",
            f"dp={value!r}",
        )
    # below 1e-12 double precision cannot resolve the Gaussian's δ(ε) at the crossover
    add("laplace_gaussian_crossover", {"delta": 1e-13}, ValueError, "delta", "too-small")
    for name in (
        "exponential_mechanism_probabilities",
        "exponential_mechanism",
        "gumbel_noisy_max",
    ):
        for value in (1, "yes", None):
            add(name, {"monotone": value}, TypeError, "monotone", f"monotone={value!r}")
    add("gaussian_delta", {"epsilon": [1.0, 0.0]}, ValueError, "epsilon", "array-with-zero")
    add("gaussian_delta", {"epsilon": [1.0, NAN]}, ValueError, "epsilon", "array-with-nan")
    add("gaussian_privacy_loss", {"y": [0.0, NAN]}, ValueError, "y", "nan")
    add("laplace_privacy_loss_cdf", {"loss": [0.0, NAN]}, ValueError, "loss", "nan")
    add("laplace_privacy_loss_cdf", {"loss": "0"}, TypeError, "loss", "string")
    add("gaussian_privacy_loss", {"y": "1"}, TypeError, "y", "string")
    add("gaussian_mechanism", {"value": NAN}, ValueError, "value", "nan")
    add("delta_exposure", {"people": 0}, ValueError, "people", "zero")
    add("delta_exposure", {"people": 2.5}, EITHER, "people", "half")
    add("zcdp_compose", {"rhos": []}, ValueError, "rhos", "empty")
    add("zcdp_compose", {"rhos": [0.5, 0.0]}, ValueError, "rhos", "zero")
    add("zcdp_compose", {"rhos": [0.5, NAN]}, ValueError, "rhos", "nan")
    add("zcdp_compose", {"rhos": "0.5"}, TypeError, "rhos", "string")
    add("audit_delta", {"outputs_d": []}, ValueError, "outputs_d", "empty")
    add("audit_delta", {"outputs_d": [0.5, 1.25]}, ValueError, "thresholds", "continuous")
    add("audit_delta", {"alpha": 0.0}, ValueError, "alpha", "alpha=0")
    # reconstruction
    for param in ("n", "m"):
        add("random_subset_queries", {param: 0}, ValueError, param, "zero")
        add("random_subset_queries", {param: 2.5}, EITHER, param, "half")
        add("random_subset_queries", {param: True}, TypeError, param, "bool")
    add("random_subset_queries", {"n": 10_001}, ValueError, "n", "too-many-people")
    add("random_subset_queries", {"n": 5_000, "m": 5_000}, ValueError, "m × n", "too-many")
    add("subset_sum_answers", {"secret": [1, 2, 0]}, ValueError, "secret", "not-bits")
    add("subset_sum_answers", {"secret": []}, ValueError, "secret", "empty")
    add("subset_sum_answers", {"secret": [1, 0]}, ValueError, "queries", "columns")
    add("subset_sum_answers", {"queries": [1, 0, 1]}, ValueError, "queries", "1-D")
    add("subset_sum_answers", {"queries": [[1, 0.5, 0]]}, ValueError, "queries", "not-bits")
    for value, exc in (
        (-1.0, ValueError),
        (NAN, ValueError),
        (INF, ValueError),
        (True, TypeError),
        ("1", TypeError),
    ):
        add("subset_sum_answers", {"noise_bound": value}, exc, "noise_bound", f"E={value!r}")
    add("subset_sum_attack", {"answers": [1.0, 1.0]}, ValueError, "answers", "length")
    add("subset_sum_attack", {"answers": [1.0, NAN, 2.0]}, ValueError, "answers", "nan")
    add("subset_sum_attack", {"answers": [1.0, INF, 2.0]}, ValueError, "answers", "inf")
    add("subset_sum_attack", {"answers": ["a", "b", "c"]}, EITHER, "answers", "strings")
    add("subset_sum_attack", {"queries": [[2, 1, 0]] * 3}, ValueError, "queries", "not-bits")
    add("subset_sum_attack", {"queries": np.zeros((3, 0))}, ValueError, "queries", "empty")
    for name in ("joint_counts", "marginal_tables"):
        add(name, {"records": [[0, 0, 2]]}, ValueError, "records", "code-too-big")
        add(name, {"records": [[0, -1, 0]]}, ValueError, "records", "negative")
        add(name, {"records": [[0, 0]]}, ValueError, "records", "columns")
        add(name, {"records": [[0, 0.5, 0]]}, ValueError, "records", "fraction")
        add(name, {"records": [[0, NAN, 0]]}, ValueError, "records", "nan")
        add(name, {"records": [[True, False, True]]}, TypeError, "records", "bools")
        add(name, {"records": [["a", "b", "c"]]}, TypeError, "records", "strings")
    block_functions = (
        "joint_counts",
        "marginal_tables",
        "records_from_counts",
        "reconstruct_from_marginals",
        "noisy_marginal_tables",
        "closest_dataset",
    )
    for name in block_functions:
        add(name, {"levels": (2,)}, ValueError, "levels", "one-attribute")
        add(name, {"levels": (2, 0, 2)}, ValueError, "levels", "zero")
        add(name, {"levels": "222"}, TypeError, "levels", "string")
        add(name, {"levels": (2, 2.5, 2)}, EITHER, "levels", "half")
        add(name, {"levels": (100, 100, 100)}, ValueError, "levels", "too-many-cells")
    add("records_from_counts", {"counts": [1, 0]}, ValueError, "counts", "length")
    add("records_from_counts", {"counts": [-1, 0, 0, 1, 0, 1, 1, 0]}, ValueError, "counts", "neg")
    add("records_from_counts", {"counts": [0.5] * 8}, ValueError, "counts", "fraction")
    for name in ("reconstruct_from_marginals", "noisy_marginal_tables", "closest_dataset"):
        add(name, {"tables": [[1, 1]]}, TypeError, "tables", "not-a-dict")
        add(name, {"tables": {(0, 1): np.ones((2, 2))}}, ValueError, "tables", "missing")
        add(
            name,
            {"tables": {**BLOCK_TABLES, (0, 1): np.ones((2, 3))}},
            ValueError,
            "tables",
            "shape",
        )
        add(
            name,
            {"tables": {**BLOCK_TABLES, (0, 1): [[1, NAN], [1, 1]]}},
            ValueError,
            "tables",
            "nan",
        )
    add(
        "reconstruct_from_marginals",
        {"tables": {**BLOCK_TABLES, (0, 1): [[1, 1], [1, 2]]}},
        ValueError,
        "tables",
        "totals-differ",
    )
    add(
        "reconstruct_from_marginals",
        {"tables": {**BLOCK_TABLES, (0, 1): [[1, 1.5], [1, 1]]}},
        ValueError,
        "tables",
        "fraction",
    )
    add(
        "reconstruct_from_marginals",
        {"tables": {**BLOCK_TABLES, (0, 1): [[-1, 3], [1, 1]]}},
        ValueError,
        "tables",
        "negative",
    )
    big = {key: np.full((2, 2), 11) for key in BLOCK_TABLES}
    add("reconstruct_from_marginals", {"tables": big}, ValueError, "tables", "too-many-people")
    add("reconstruct_from_marginals", {"max_solutions": 0}, ValueError, "max_solutions", "0")
    add(
        "reconstruct_from_marginals",
        {"max_solutions": 10**6},
        ValueError,
        "max_solutions",
        "too-many",
    )
    add("reconstruction_matches", {"truth": [1, 2]}, ValueError, "truth", "shapes")
    add("reconstruction_matches", {"guess": [0, -1, 1]}, ValueError, "guess", "negative")
    add("reconstruction_matches", {"guess": [0, NAN, 1]}, ValueError, "guess", "nan")
    add("reconstruction_matches", {"truth": [True, False, True]}, TypeError, "truth", "bools")
    add("reconstruction_matches", {"truth": [[1, 2, 0]]}, ValueError, "truth", "2-D")
    # membership inference: rates in [0, 1], counts within their totals, a confidence in (0, 1)
    for param in ("tpr", "fpr"):
        for value, exc in (
            (-0.1, ValueError),
            (1.1, ValueError),
            (NAN, ValueError),
            ("0.5", TypeError),
        ):
            add("epsilon_from_rates", {param: value}, exc, param, f"{param}={value!r}")
    for value, exc in (
        (-0.1, ValueError),
        (1.5, ValueError),
        ([0.1, NAN], ValueError),
        (["a"], TypeError),
    ):
        add("tpr_bound", {"fpr": value}, exc, "fpr", f"fpr={value!r}")
    for name in ("epsilon_from_rates", "epsilon_lower_bound", "tpr_bound"):
        for value in (1.0, -0.1, NAN, INF):
            add(name, {"delta": value}, ValueError, "delta", f"delta={value!r}")
    for param, value in (
        ("true_positives", 101),
        ("true_positives", -1),
        ("false_positives", 101),
        ("false_positives", 2.5),
        ("positives", 0),
        ("negatives", -3),
    ):
        exc = EITHER if value == 2.5 else ValueError
        add("epsilon_lower_bound", {param: value}, exc, param, f"{param}={value!r}")
    for value in (0.0, 1.0, -0.5, NAN):
        add(
            "epsilon_lower_bound",
            {"confidence": value},
            ValueError,
            "confidence",
            f"confidence={value!r}",
        )
    add("tracing_score", {"targets": [[1.0, 0.0, 1.0]]}, ValueError, "targets", "width")
    add("tracing_score", {"released_means": [0.5, NAN]}, ValueError, "released_means", "nan")
    add("tracing_score", {"reference_means": [0.5]}, ValueError, "reference_means", "shape")
    add("tracing_score", {"released_means": []}, ValueError, "released_means", "empty")
    # beyond global sensitivity: bounds, data, k >= 0, β > 0, a bound >= 0, a distance >= 0
    for name in (
        "clamped_median",
        "median_local_sensitivity",
        "median_sensitivity_at_distance",
        "median_sensitivity_curve",
        "median_smooth_sensitivity",
        "smooth_median_scale",
        "smooth_median",
        "median_distance_to_instability",
    ):
        add(name, {"lower": 5.0}, ValueError, "lower", "lower=upper")
        add(name, {"upper": NAN}, ValueError, "upper", "upper=nan")
        add(name, {"values": []}, ValueError, "values", "empty")
        add(name, {"values": [1.0, NAN]}, ValueError, "values", "nan")
        add(name, {"values": "123"}, TypeError, "values", "str")
    add("median_sensitivity_at_distance", {"k": -1}, ValueError, "k", "k<0")
    add("median_sensitivity_at_distance", {"k": 1.5}, EITHER, "k", "k=1.5")
    for value in (0.0, -1.0, INF):
        add("median_smooth_sensitivity", {"beta": value}, ValueError, "beta", f"beta={value!r}")
    add("median_distance_to_instability", {"bound": -1.0}, ValueError, "bound", "bound<0")
    add("propose_test_release", {"bound": 0.0}, ValueError, "bound", "bound=0")
    add("propose_test_release", {"distance": -1.0}, ValueError, "distance", "distance<0")
    add("propose_test_release", {"value": NAN}, ValueError, "value", "value=nan")
    add("ptr_refusal_probability", {"distance": NAN}, ValueError, "distance", "distance=nan")
    add("sample_and_aggregate", {"blocks": 0}, ValueError, "blocks", "blocks=0")
    add("sample_and_aggregate", {"blocks": 5}, ValueError, "blocks", "blocks>rows")
    add("sample_and_aggregate", {"statistic": "mean"}, TypeError, "statistic", "not callable")
    add("sample_and_aggregate", {"data": []}, ValueError, "data", "empty")
    add("sample_and_aggregate", {"lower": 9.0}, ValueError, "lower", "lower>upper")
    # DP-SGD: rows to clip, C > 0, σ > 0, a rate in (0, 1], steps >= 1, a known accountant
    add("clip_rows", {"matrix": [1.0, 2.0]}, ValueError, "matrix", "1-D")
    add("clip_rows", {"matrix": [[1.0, NAN]]}, ValueError, "matrix", "nan")
    for value in (0.0, -1.0, NAN):
        add("clip_rows", {"clip_norm": value}, ValueError, "clip_norm", f"C={value!r}")
    for name in ("dpsgd_epsilon", "dpsgd_noise_multiplier"):
        for value in (0.0, 1.5, NAN):
            add(name, {"sample_rate": value}, ValueError, "sample_rate", f"q={value!r}")
        add(name, {"steps": 0}, ValueError, "steps", "steps=0")
        add(name, {"steps": 2.5}, EITHER, "steps", "steps=2.5")
        add(name, {"accountant": "moments"}, ValueError, "accountant", "unknown")
    for value in (0.0, -1.0, INF, NAN):
        add(
            "dpsgd_epsilon",
            {"noise_multiplier": value},
            ValueError,
            "noise_multiplier",
            f"sigma={value!r}",
        )
    # one step: 2-D finite gradients, C > 0 (inf only without noise), σ >= 0, B > 0
    add("dpsgd_step", {"gradients": [1.0, 2.0]}, ValueError, "gradients", "1-D")
    add("dpsgd_step", {"gradients": [[1.0, NAN]]}, ValueError, "gradients", "nan")
    add("dpsgd_step", {"gradients": [["a", "b"]]}, EITHER, "gradients", "strings")
    for value in (0.0, -1.0, NAN):
        add("dpsgd_step", {"clip_norm": value}, ValueError, "clip_norm", f"C={value!r}")
    add("dpsgd_step", {"clip_norm": INF}, ValueError, "clip_norm", "C=inf with noise")
    for value in (-1.0, INF, NAN):
        add(
            "dpsgd_step",
            {"noise_multiplier": value},
            ValueError,
            "noise_multiplier",
            f"σ={value!r}",
        )
    for value in (0.0, -2.0, INF, NAN):
        add(
            "dpsgd_step",
            {"expected_batch_size": value},
            ValueError,
            "expected_batch_size",
            f"B={value!r}",
        )
    add("dpsgd_step", {"rng": "seed"}, EITHER, "rng", "rng=str")
    # OLH and shuffling: values in [0, k), k >= 2, reports in [0, g), ε₀ within its bound
    add("olh_perturb", {"values": [0, 5]}, ValueError, "values", "v=k")
    add("olh_perturb", {"values": [0, -1]}, ValueError, "values", "negative")
    add("olh_perturb", {"values": [0.5]}, ValueError, "values", "fraction")
    add("olh_perturb", {"k": 1}, ValueError, "k", "k=1")
    add("olh_perturb", {"k": 2**40}, ValueError, "k", "k>prime")
    add("olh_estimate", {"reports": [0, 1, 9]}, ValueError, "reports", "r>=g")
    add("olh_estimate", {"reports": [0, 1]}, ValueError, "seeds", "lengths")
    add("olh_estimate", {"seeds": [-1, 2, 3]}, ValueError, "seeds", "negative")
    add("olh_estimate", {"candidates": [7]}, ValueError, "values", "candidate>=k")
    add("olh_variance", {"n": 0}, ValueError, "n", "n=0")
    add("olh_variance", {"frequency": 1.5}, ValueError, "frequency", "f>1")
    for value in (0.0, -1.0, NAN, INF, 100.0):
        add("shuffle_epsilon", {"epsilon0": value}, ValueError, "epsilon0", f"eps0={value!r}")
    add("shuffle_epsilon", {"n": 0}, ValueError, "n", "n=0")
    add("shuffle_epsilon", {"epsilon0": 8.0}, ValueError, "epsilon0", "beyond the bound")
    # synthetic data: a shape of sizes >= 1, distinct attributes, whole counts, 0/1 queries
    add("marginal_queries", {"shape": (3, 0)}, ValueError, "shape", "size 0")
    add("marginal_queries", {"shape": "32"}, TypeError, "shape", "str")
    add("marginal_queries", {"shape": (1000, 1000, 10)}, ValueError, "shape", "too big")
    add("marginal_queries", {"attributes": [3]}, ValueError, "attributes", "out of range")
    add("marginal_queries", {"attributes": [1, 1]}, ValueError, "attributes", "repeated")
    add("mwem", {"counts": [3.0, -1.0, 5.0, 2.0]}, ValueError, "counts", "negative")
    add("mwem", {"counts": [3.0, 0.5, 5.0, 2.0]}, ValueError, "counts", "fraction")
    add("mwem", {"counts": [0.0, 0.0, 0.0, 0.0]}, ValueError, "counts", "empty table")
    add("mwem", {"queries": [[1, 1, 0]]}, ValueError, "queries", "width")
    add("mwem", {"queries": [[1, 2, 0, 0]]}, ValueError, "queries", "not 0/1")
    add("mwem", {"rounds": 0}, ValueError, "rounds", "rounds=0")
    add("mwem_trace", {"rounds": 0}, ValueError, "rounds", "rounds=0")
    add("mwem_trace", {"counts": [3.0, -1.0, 5.0, 2.0]}, ValueError, "counts", "negative")
    add("synthetic_rows", {"counts": [1.0, 2.0]}, ValueError, "counts", "length")
    add("synthetic_rows", {"counts": [0.0, 0.0, 0.0, 0.0]}, ValueError, "counts", "zero total")
    add("synthetic_rows", {"rows": 0}, ValueError, "rows", "rows=0")
    # the sparse vector: a threshold, c >= 1 positives, noise scales > 0, one row of answers
    for name in (
        "above_threshold",
        "above_threshold_probabilities",
        "sparse_vector",
        "stopping_probabilities",
        "sparse_vector_variant",
    ):
        add(name, {"threshold": NAN}, ValueError, "threshold", "threshold=nan")
        add(name, {"threshold": "10"}, TypeError, "threshold", "threshold=str")
        add(name, {"answers": [[1.0, 2.0]]}, ValueError, "answers", "2-D")
    for value, exc in ((0, ValueError), (-1, ValueError), (1.5, EITHER), (True, TypeError)):
        add("sparse_vector", {"max_positives": value}, exc, "max_positives", f"c={value!r}")
        add("sparse_vector_variant", {"max_positives": value}, exc, "max_positives", f"c={value!r}")
    for value, exc in ((0, ValueError), (2.5, EITHER), (10**7, ValueError)):
        add("sparse_vector_variant", {"runs": value}, exc, "runs", f"runs={value!r}")
    add("sparse_vector_variant", {"variant": "broken"}, ValueError, "variant", "unknown")
    add("sparse_vector_variant", {"epsilon": 0.0}, ValueError, "epsilon", "eps=0")
    for param in ("threshold_scale", "query_scale"):
        for value, exc in (
            (0.0, ValueError),
            (-1.0, ValueError),
            (INF, ValueError),
            (True, TypeError),
        ):
            add("stopping_probabilities", {param: value}, exc, param, f"{param}={value!r}")
    # group-by: bounds >= 1, ids of one length, whole counts >= 0; the interval's scales >= 0
    for name in (
        "bound_partitions",
        "laplace_partition_threshold",
        "partition_selection_probability",
    ):
        for value, exc in ((0, ValueError), (-2, ValueError), (1.5, EITHER), (True, TypeError)):
            add(name, {"max_partitions": value}, exc, "max_partitions", f"L0={value!r}")
    for value, exc in ((0, ValueError), (2.5, EITHER), ("1", TypeError)):
        add(
            "bound_partitions", {"max_per_partition": value}, exc, "max_per_partition", f"{value!r}"
        )
    add("bound_partitions", {"user_ids": [1, 2]}, ValueError, "same length", "lengths")
    add("bound_partitions", {"user_ids": []}, ValueError, "user_ids", "empty")
    add(
        "bound_partitions", {"partition_keys": [1.0, NAN, 2.0]}, ValueError, "partition_keys", "nan"
    )
    add("bound_partitions", {"user_ids": "abc"}, TypeError, "user_ids", "a string")
    for value, exc in ((-1, ValueError), (2.5, EITHER), (NAN, ValueError), (True, TypeError)):
        add("partition_selection_probability", {"count": value}, exc, "count", f"n={value!r}")
    add("partition_selection_probability", {"count": [1, -1]}, ValueError, "count", "negative")
    add("partition_selection_probability", {"count": [1, 0.5]}, ValueError, "count", "fraction")
    for name in ("noise_sampling_interval", "noise_sampling_coverage"):
        for param in ("sampling_sd", "laplace_scale"):
            for value, exc in (
                (-1.0, ValueError),
                (INF, ValueError),
                (NAN, ValueError),
                ("1", TypeError),
            ):
                add(name, {param: value}, exc, param, f"{param}={value!r}")
        add(name, {"sampling_sd": 0.0, "laplace_scale": 0.0}, ValueError, "laplace_scale", "both 0")
    add("noise_sampling_interval", {"release": INF}, ValueError, "release", "release=inf")
    add("noise_sampling_interval", {"confidence": 0.0}, ValueError, "confidence", "c=0")
    add("noise_sampling_coverage", {"t": -1.0}, ValueError, "t", "t<0")
    # round 4: δ in [0, 1) where 0 means pure DP; the rest by parameter
    for name in ("advantage_bound", "approx_dp_tradeoff", "subsampled_privacy"):
        for value, exc in (
            (1.0, ValueError),
            (-0.1, ValueError),
            (NAN, ValueError),
            ("0", TypeError),
        ):
            add(name, {"delta": value}, exc, "delta", f"delta={value!r}")
    for name in ("gaussian_tradeoff", "gdp_delta", "gdp_epsilon"):
        for value, exc in (
            (-1.0, ValueError),
            (INF, ValueError),
            (NAN, ValueError),
            ("1", TypeError),
        ):
            add(name, {"mu": value}, exc, "mu", f"mu={value!r}")
    add("gdp_delta", {"mu": 0.0}, ValueError, "mu", "mu=0")
    add("gdp_epsilon", {"mu": 0.0}, ValueError, "mu", "mu=0")
    for value, exc in ((0.0, ValueError), (1.0, ValueError), (NAN, ValueError), ("0", TypeError)):
        add("gdp_epsilon", {"delta": value}, exc, "delta", f"delta={value!r}")
    add("gdp_epsilon", {"mu": 1e6}, ValueError, "mu", "epsilon beyond the largest exp")
    for name in ("float_laplace", "possible_outputs"):
        for value, exc in (
            (0.0, ValueError),
            (-1.0, ValueError),
            (NAN, ValueError),
            ("1", TypeError),
        ):
            add(name, {"scale": value}, exc, "scale", f"scale={value!r}")
        for value, exc in ((NAN, ValueError), (INF, ValueError), ("0", TypeError)):
            add(name, {"value": value}, exc, "value", f"value={value!r}")
        add(name, {"mechanism": "exact"}, ValueError, "mechanism", "unknown mechanism")
        add(name, {"mechanism": "snapping"}, ValueError, "bound", "snapping without B")
        add(name, {"bound": 5.0}, ValueError, "bound", "B without snapping")
        add(name, {"mechanism": "snapping", "bound": -1.0}, ValueError, "bound", "B<0")
    add("float_laplace", {"size": -1}, ValueError, "size", "size<0")
    for name in ("snapping_probabilities", "snapping_delta"):
        for param in ("scale", "bound"):
            for value, exc in (
                (0.0, ValueError),
                (-1.0, ValueError),
                (NAN, ValueError),
                ("1", TypeError),
            ):
                add(name, {param: value}, exc, param, f"{param}={value!r}")
        add(name, {"value": NAN}, ValueError, "value", "value=nan")
    add("snapping_probabilities", {"bound": 1e9}, ValueError, "bound", "too many outputs")
    add("snapping_delta", {"neighbour": INF}, ValueError, "value", "neighbour=inf")
    add("snapping_delta", {"epsilon": -1.0}, ValueError, "epsilon", "epsilon<0")
    add("possible_outputs", {"outputs": [0.5, NAN]}, ValueError, "outputs", "NaN output")
    add("possible_outputs", {"outputs": [INF]}, ValueError, "outputs", "inf output")
    add("possible_outputs", {"outputs": ["a"]}, TypeError, "outputs", "text output")
    add("gaussian_tradeoff", {"alpha": [0.1, 1.5]}, ValueError, "alpha", "array>1")
    add("gaussian_tradeoff", {"alpha": []}, ValueError, "alpha", "empty")
    add("approx_dp_tradeoff", {"epsilon": 800.0}, ValueError, "epsilon", "e^eps overflows")
    for name in ("subsampled_privacy", "gdp_clt_mu"):
        for value, exc in (
            (0.0, ValueError),
            (1.5, ValueError),
            (NAN, ValueError),
            (True, TypeError),
        ):
            add(name, {"sample_rate": value}, exc, "sample_rate", f"q={value!r}")
    for value, exc in ((0, ValueError), (2.5, EITHER), (True, TypeError)):
        add("gdp_clt_mu", {"steps": value}, exc, "steps", f"T={value!r}")
    add("gdp_clt_mu", {"sigma": 0.01}, ValueError, "sigma", "e^(1/sigma^2) overflows")
    add("binary_tree_counts", {"stream": []}, ValueError, "stream", "empty")
    add("binary_tree_counts", {"stream": [0, 2]}, ValueError, "stream", "not 0/1")
    add("binary_tree_counts", {"stream": [[0, 1]]}, ValueError, "stream", "2-D")
    for name in ("binary_tree_variance", "increments_variance"):
        for value, exc in ((0, ValueError), (2.5, EITHER), (True, TypeError)):
            add(name, {"t": value}, exc, "t", f"t={value!r}")
    add("binary_tree_variance", {"t": 9}, ValueError, "t", "t>horizon")
    for name in ("binary_tree_variance", "recompute_variance"):
        for value, exc in ((0, ValueError), (2.5, EITHER), ("8", TypeError)):
            add(name, {"horizon": value}, exc, "horizon", f"T={value!r}")
    for name in ("discrete_gaussian", "discrete_gaussian_pmf", "discrete_gaussian_std"):
        for value, exc in (
            (0.0, ValueError),
            (-1.0, ValueError),
            (INF, ValueError),
            (NAN, ValueError),
            ("1", TypeError),
        ):
            add(name, {"sigma2": value}, exc, "sigma2", f"sigma2={value!r}")
    add("discrete_gaussian", {"size": -1}, EITHER, "size", "negative")
    add("discrete_gaussian_pmf", {"x": 0.5}, ValueError, "x", "x=0.5")
    add("discrete_gaussian_pmf", {"x": [0, NAN]}, ValueError, "x", "nan")
    add("discrete_gaussian_pmf", {"x": True}, TypeError, "x", "bool")
    add("simplex_projection", {"values": []}, ValueError, "values", "empty")
    add("simplex_projection", {"values": [1.0, NAN]}, ValueError, "values", "nan")
    add("simplex_projection", {"values": [[1.0]]}, ValueError, "values", "2-D")
    for value, exc in ((-1.0, ValueError), (INF, ValueError), ("2", TypeError)):
        add("simplex_projection", {"total": value}, exc, "total", f"total={value!r}")
    add("round_preserving_sum", {"values": [0.5, 0.2]}, ValueError, "values", "fractional sum")
    add("round_preserving_sum", {"values": []}, ValueError, "values", "empty")
    add("round_preserving_sum", {"values": [INF, 1.0]}, ValueError, "values", "inf")
    add("topdown", {"total": -1}, ValueError, "total", "total<0")
    add("topdown", {"total": 2.5}, EITHER, "total", "total=2.5")
    add("topdown", {"parents": [[0, 1]]}, ValueError, "parents", "index beyond level 0")
    add("topdown", {"parents": [[0]]}, ValueError, "parents", "one per cell")
    add("topdown", {"parents": []}, ValueError, "parents", "levels")
    add("topdown", {"noisy_levels": "12"}, TypeError, "noisy_levels", "a string")
    add("topdown", {"noisy_levels": [[1.0, NAN]]}, ValueError, "noisy_levels", "nan")
    name = "discrete_laplace_sum_half_width"
    add(name, {"count": [2, 2.5]}, ValueError, "count", "fraction")
    add(name, {"count": [2, -1]}, ValueError, "count", "negative")
    add(name, {"count": [1, 2, 3]}, ValueError, "same length", "lengths")
    add(name, {"epsilon": [0.5, 0.0]}, ValueError, "epsilon", "eps=0")
    add(name, {"epsilon": [0.5, NAN]}, ValueError, "epsilon", "nan")
    add(name, {"epsilon": 1e-6, "count": 10**9}, ValueError, "too wide", "too wide")
    add(name, {"confidence": 1.0}, ValueError, "confidence", "confidence=1")
    for name in ("l_diversity", "t_closeness", "class_distances"):
        add(name, {"class_codes": [0, 1]}, ValueError, "same length", "lengths")
        add(name, {"sensitive_codes": []}, ValueError, "sensitive_codes", "empty")
        add(name, {"class_codes": [0, None, 1]}, ValueError, "class_codes", "None")
    return cases


def names_parameter(message, param):
    """Short names (p, q, n, k, lo, hi) must appear as a word; longer ones as a substring."""
    if len(param) <= 2:
        return re.search(rf"(?<![A-Za-z_]){param}(?![A-Za-z_])", message) is not None
    return param in message


@pytest.mark.parametrize(("name", "override", "exc", "param"), build_cases())
def test_bad_argument_is_rejected_with_a_message_naming_it(name, override, exc, param):
    function, kwargs = VALID[name]
    with pytest.raises(exc) as info:
        function(**{**kwargs, **override})
    assert names_parameter(str(info.value), param), f"message {str(info.value)!r} lacks {param!r}"


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_valid_call_in_the_table_succeeds(name):
    # guards the table above: each bad case differs from a call that works
    function, kwargs = VALID[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        function(**kwargs)


def test_every_public_function_has_bad_input_cases():
    # Iterates dp.__all__: a new public function without a valid call and at least one bad
    # case in the table fails here.
    covered = {case.values[0] for case in build_cases()}
    assert set(dp.__all__) <= set(VALID), sorted(set(dp.__all__) - set(VALID))
    assert set(dp.__all__) <= covered, sorted(set(dp.__all__) - covered)


def test_table_covers_every_public_function_of_the_contract():
    contract = {
        "laplace_scale",
        "laplace_mechanism",
        "laplace_interval_probability",
        "laplace_privacy_loss",
        "laplace_variance",
        "sequential_composition",
        "parallel_composition",
        "group_privacy",
        "coin_flip_probabilities",
        "rr_epsilon",
        "rr_keep_probability",
        "randomized_response",
        "estimate_proportion",
        "estimate_count",
        "rr_variance",
        "sample_rr_counts",
        "grr_probabilities",
        "grr_perturb",
        "grr_estimate",
        "grr_variance",
        "sample_grr_counts",
        "ue_encode",
        "ue_perturb",
        "ue_aggregate",
        "ue_epsilon",
        "sue_probabilities",
        "oue_probabilities",
        "ue_variance",
        "sample_ue_counts",
        "project_counts",
        "audit_epsilon",
        "random_subset_queries",
        "subset_sum_attack",
        "clamp",
        "sum_sensitivity",
        "clamping_bias",
        "noisy_sum",
        "noisy_mean",
        "exponential_mechanism_probabilities",
        "exponential_mechanism",
        "report_noisy_max",
        "gaussian_sigma_classic",
        "gaussian_delta",
        "analytic_gaussian_sigma",
        "gaussian_mechanism",
        "gaussian_zcdp_rho",
        "pure_to_zcdp",
        "zcdp_to_approx_dp",
        "zcdp_to_approx_dp_simple",
        "advanced_composition",
    }
    assert contract <= set(VALID) <= set(dp.__all__)


# --- valid edge inputs: an answer, never a numpy warning ----------------------------------------

EDGE_CALLS = [
    pytest.param(lambda: dp.rr_epsilon(1.0, 1.0), math.inf, id="rr_epsilon-1-1"),
    pytest.param(lambda: dp.rr_epsilon(0.0, 0.0), math.inf, id="rr_epsilon-0-0"),
    pytest.param(lambda: dp.rr_epsilon(1.0, 0.0), 0.0, id="rr_epsilon-1-0"),
    pytest.param(lambda: dp.rr_epsilon(0.0, 1.0), 0.0, id="rr_epsilon-0-1"),
    pytest.param(lambda: dp.rr_epsilon(0.5, 0.5), 0.0, id="rr_epsilon-half"),
    pytest.param(lambda: dp.rr_epsilon(1.0, 0.5), math.inf, id="rr_epsilon-1-half"),
    pytest.param(lambda: dp.rr_keep_probability(1e-12), 0.5, id="keep-tiny-eps"),
    pytest.param(lambda: dp.rr_keep_probability(1000.0), 1.0, id="keep-huge-eps"),
    pytest.param(lambda: dp.grr_probabilities(1000.0, 4)[0], 1.0, id="grr-huge-eps"),
    pytest.param(lambda: dp.sue_probabilities(3000.0)[0], 1.0, id="sue-huge-eps"),
    pytest.param(lambda: dp.oue_probabilities(1000.0)[1], 0.0, id="oue-huge-eps"),
    pytest.param(
        lambda: dp.laplace_interval_probability(0.0, INF, loc=0.0, scale=1.0), 0.5, id="half-line"
    ),
    pytest.param(
        lambda: dp.laplace_interval_probability(1e6, INF, loc=0.0, scale=1.0), 0.0, id="far-tail"
    ),
    pytest.param(
        lambda: dp.laplace_privacy_loss(1e9, loc=0.0, loc_neighbour=1.0, scale=1.0),
        -1.0,
        id="loss-far-tail",
    ),
    pytest.param(lambda: dp.estimate_proportion([1, 1, 1], 0.75, 0.75), 1.5, id="all-yes"),
    pytest.param(lambda: dp.estimate_proportion([0], 0.75, 0.75), -0.5, id="single-no"),
    pytest.param(lambda: dp.rr_variance(0.0, 10, 1.0, 1.0), 0.0, id="rr-variance-truthful"),
    pytest.param(lambda: dp.rr_variance(1.0, 10, 0.75, 0.75), 0.075, id="rr-variance-r1"),
    pytest.param(lambda: dp.ue_variance(10, 1.0, 0.0, 0.5), 0.0, id="ue-variance-truthful"),
    pytest.param(lambda: dp.ue_epsilon(1.0, 0.25), math.inf, id="ue-epsilon-p1"),
    pytest.param(lambda: dp.sample_rr_counts(0, 0, 0.75, 0.75, rng=1), 0, id="rr-counts-n0"),
    pytest.param(lambda: dp.sample_rr_counts(5, 5, 1.0, 1.0, rng=1), 5, id="rr-counts-truthful"),
    pytest.param(lambda: float(dp.grr_estimate([2, 2, 2], 3, 1.0)[2]) > 2, True, id="grr-one"),
    pytest.param(lambda: float(dp.project_counts([0.0, 0.0, 0.0], 3).sum()), 3.0, id="proj-0"),
    pytest.param(lambda: float(dp.project_counts([-5.0, -5.0], 2).sum()), 2.0, id="proj-neg"),
    pytest.param(lambda: dp.gaussian_delta(1e-3, 1.0, 1.0), 1.0, id="gauss-delta-tiny-sigma"),
    pytest.param(lambda: dp.gaussian_delta(1e3, 1.0, 50.0), 0.0, id="gauss-delta-huge-eps"),
    pytest.param(lambda: dp.gaussian_loss_tail(1e3, 1.0, 50.0), 0.0, id="gauss-tail-far"),
    pytest.param(
        lambda: dp.analytic_gaussian_sigma(1.0, 1e-9, 0.5) > 0, True, id="analytic-tiny-eps"
    ),
    pytest.param(
        lambda: dp.analytic_gaussian_sigma(1.0, 500.0, 1e-300) > 0, True, id="analytic-huge-eps"
    ),
    pytest.param(lambda: dp.zcdp_to_approx_dp(1e-12, 0.999) >= 0, True, id="cdp-tiny-rho"),
    pytest.param(lambda: dp.zcdp_to_approx_dp(1e6, 1e-300) > 1e6, True, id="cdp-huge-rho"),
    pytest.param(lambda: dp.delta_exposure(1e-300, 10**9)[1], 1e-291, id="exposure-tiny"),
    pytest.param(lambda: dp.advanced_composition(50.0, 0.0, 1, 0.5)[0] > 1e20, True, id="adv-big"),
]


@pytest.mark.parametrize(("call", "expected"), EDGE_CALLS)
def test_valid_edge_input_gives_an_answer_without_numpy_warnings(call, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = call()
    if expected is True:
        assert got is True
    elif math.isinf(expected):
        assert got == expected
    else:
        assert float(got) == pytest.approx(expected, rel=1e-9, abs=1e-12)
