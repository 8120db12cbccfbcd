"""The test tiers: which tests are ``slow`` (left out of the fast tier, ``pytest -m "not slow"``)
and which need a heavy extra or program (``ray``, ``openspiel``, ``browser``, ``compiled``,
``sandbox``, ``node``). tests/conftest.py marks them at collection from the tables below: one
place, rather than decorators spread over sixty files (a test's own ``@pytest.mark.slow`` counts
too, as on the ``STANDOFF_LONG`` runs).

``slow`` means seconds per test: whole matches or games played out, servers and command lines run
in subprocesses, clusters, builds. The fast tier keeps every module's quick tests (the rules, the
referee, views and hidden information, configs, records...), so it still fails on most mistakes;
the full suite (the README's command, what CI runs) runs everything. tests/test_tiers.py checks
that every name below is a test or fixture of its module and that each module keeps a test in the
fast tier (but the two in ``SLOW_MODULES``).

The names in ``SLOW`` are the tests measured at over 2 seconds (``--durations=0 -n 2`` on the
2-core development machine under load): a new test that plays games or runs commands belongs here.
"""

from __future__ import annotations

#: Markers of every test of a module (or of a folder, ending in "/"): what the tests need.
NEEDS = {
    "tests/tournaments/test_ray.py": ("ray",),
    "tests/tournaments/test_ray_cluster.py": ("ray",),
    "tests/tournaments/test_ray_hosts.py": ("ray",),
    "tests/test_rl_openspiel.py": ("openspiel",),
    "tests/test_node_bot.py": ("node",),
    "tests/sandbox/": ("sandbox",),
}

#: Modules whose every test needs a heavy set-up (a Node.js build, a Ray cluster with worker
#: nodes): wholly slow. Their areas keep quick tests elsewhere (test_ray.py, test_ray_cluster.py).
SLOW_MODULES = (
    "tests/test_node_bot.py",
    "tests/tournaments/test_ray_hosts.py",
    "tests/web/test_web_browser.py",  # a live page in Chromium; tests/web/ keeps its quick tests elsewhere
)

#: Fixtures that are heavy set-ups, by module: a test using one gets these markers.
FIXTURES = {
    "tests/test_accelerate.py": {"compiled": ("compiled", "slow"), "compiled_copy": ("compiled", "slow")},
    "tests/tournaments/test_ray.py": {"cluster": ("slow",)},
    "tests/tournaments/test_ray_cluster.py": {"nodes": ("slow",), "token_head": ("slow",)},
    "tests/tournaments/test_html.py": {"ts_report": ("slow",), "ts_full": ("slow",)},
    "tests/tournaments/test_viewer_frame.py": {"frame_pages": ("slow",)},
    "tests/test_gen_history.py": {"server_folder": ("slow",), "ladder_folder": ("slow",)},
    "tests/tournaments/test_worker_death_record.py": {"run_dir": ("slow",)},
}

#: Single tests (every parametrization) with markers other than ``slow`` alone.
MARKS = {
    "tests/tournaments/test_html.py::test_pages_load_in_headless_chromium": ("browser", "slow"),
    "tests/tournaments/test_html.py::test_ts_pages_in_headless_chromium": ("browser", "slow"),
    "tests/test_rl_plugin.py::test_openspiel_random_sim_test_on_a_plugin_game": ("openspiel",),
    "tests/tournaments/test_html.py::test_a_plugin_games_html_board_draws_its_pages": ("browser", "slow"),
    "tests/tournaments/test_viewer_frame.py::test_the_frame_fits_navigates_and_nothing_overflows": ("browser", "slow"),
    "tests/schotten_totten/test_panels.py::test_the_page_names_formations_where_the_cards_lie_and_proves_claims_on_hover": (
        "browser", "slow"),
    "tests/twilight_struggle/test_ts_panels.py::test_the_panel_and_card_text_in_headless_chromium": ("browser", "slow"),
    "tests/web/test_web_browser.py::test_the_live_page_advances_and_the_standings_change_when_the_match_ends": (
        "browser", "slow"),
}

#: Slow tests by module (every parametrization of each).
SLOW = {
    "tests/web/test_web_run.py": [
        "test_a_running_tournament_shows_its_matches_live_and_its_standings_change",
        "test_a_paired_leg_is_withheld_while_its_twin_plays",
        "test_tournament_with_a_port_in_use_exits_2_before_playing",
        "test_a_multi_game_match_has_a_page_per_game",
    ],
    "tests/web/test_web_server.py": ["test_serve_with_a_port_in_use_exits_2_with_one_line"],
    "tests/web/test_web_leaks.py": ["test_twilight_struggle_in_play_leaks_nothing_over_http"],
    "tests/bots/test_bot_strength_bench.py": [
        "test_against_plays_the_same_games_on_both_trees",
        "test_twilight_struggle_pairings_and_bad_input",
        "test_a_plugin_bot_is_measured_and_unknown_without_its_variable",
    ],
    "tests/bots/test_fallbacks.py": [
        "test_a_tournament_without_fallbacks_writes_the_lines_it_wrote_before",
        "test_a_tournament_reports_fallbacks_per_bot",
    ],
    "tests/bots/test_greedy.py": [
        "test_answers_are_legal_in_random_positions",
        "test_beats_random",
        "test_greedy_reads_wire_views_like_engine_views",
    ],
    "tests/bots/test_ismcts.py": [
        "test_answers_from_wire_views_are_legal_in_random_positions",
        "test_belief_weights_deals_by_the_opponents_last_play",
        "test_deterministic_given_seed_and_time_budget",
        "test_the_anchor_at_a_target_step_is_probabilitys_answer_for_our_card",
        "test_same_view_same_choice",
        "test_paired_search_keeps_the_probability_answer_within_the_margin",
        "test_same_seed_same_search",
    ],
    "tests/bots/test_probability.py": [
        "test_planned_answers_as_choose_does_when_the_plan_decides",
        "test_legal_answers_in_random_positions",
        "test_flag_weights_are_the_difference_of_two_game_values_to_the_last_bit",
    ],
    "tests/bots/test_simulate_ts.py": [
        "test_engine_determinize_and_belief_share_one_redeal_with_the_same_knowledge",
        "test_beliefs_and_samples_show_the_same_view",
    ],
    "tests/bots/test_ts_heuristic.py": [
        "test_never_suicides_against_itself",
        "test_beats_random",
        "test_answers_are_legal_deep_into_the_game",
        "test_answers_are_legal_in_random_positions",
        "test_deterministic_given_seed",
    ],
    "tests/bots/test_ts_search.py": [
        "test_legal_answers_and_same_view_same_answer",
        "test_a_match_is_deterministic_given_seed",
    ],
    "tests/reliability/test_chaos.py": [
        "test_chaos_bots_get_their_outcome_and_healthy_matches_play_on",
    ],
    "tests/reliability/test_crash_safety.py": [
        "test_tournament_killed_at_random_points_resumes_exactly",
        "test_server_killed_during_matches_keeps_finished_records",
        "test_workers_die_with_their_coordinator",
        "test_a_worker_outlives_the_thread_that_started_it",
    ],
    "tests/reliability/test_security_limits.py": [
        "test_sessions_per_token_are_limited_and_reconnecting_still_works",
        "test_rate_limit_ends_a_fast_session_and_spares_a_slow_one",
    ],
    "tests/reliability/test_soak.py": [
        "test_soak_bounded",
    ],
    "tests/reliability/test_wire_fuzz.py": [
        "test_wire_fuzz_server_survives_and_others_play",
        "test_every_answer_is_what_the_protocol_says",
    ],
    "tests/sandbox/test_hostile_bots.py": [
        "test_a_limit_stops_the_attack_and_hurts_only_the_attacker",
        "test_sleeping_forever_is_the_sleepers_timeout",
        "test_control_unsandboxed_the_attack_succeeds",
        "test_attack_fails_and_the_attacker_plays_on",
        "test_a_process_started_to_outlive_the_match_does_not",
    ],
    "tests/schotten_totten/test_panels.py": [
        "test_report_frames_carry_the_panels_of_their_view",
    ],
    "tests/schotten_totten/test_st_story.py": [
        "test_every_viewer_reads_sentences_without_raw_keys",
        "test_the_corpus_plays_every_step_the_game_can_log",
        "test_the_end_is_told_as_the_outcome_says",
    ],
    "tests/schotten_totten/test_three_player.py": [
        "test_greedy_beats_two_random_bots_clearly",
    ],
    "tests/schotten_totten/test_views.py": [
        "test_views_never_show_the_opponents_hand_and_count_it_right",
    ],
    "tests/server/test_auth_and_serve.py": [
        "test_serve_token_match_commands_end_to_end",
        "test_serve_refuses_plaintext_public_address_via_cli",
    ],
    "tests/server/test_bridge.py": [
        "test_a_mistyped_guest_mode_is_one_line_and_nothing_starts",
    ],
    "tests/server/test_one_bot_per_match.py": [
        "test_two_runs_with_one_master_seed_give_the_same_records_a_remote_entrant_included",
        "test_a_single_bot_object_plays_one_match_at_a_time",
        "test_a_factory_gives_every_seat_a_bot_of_its_own_and_may_play_matches_at_once",
    ],
    "tests/server/test_referee.py": [
        "test_disconnect_beyond_the_grace_window_forfeits",
        "test_wire_bytes_depend_only_on_what_the_seat_may_see",
        "test_disconnect_and_reconnect_within_the_grace_window",
        "test_illegal_index_under_each_policy",
        "test_sdk_bots_see_the_whole_history_though_the_wire_sends_only_what_is_new",
        "test_the_example_bot_plays",
        "test_two_sdk_bots_play_complete_matches",
        "test_timeout_under_each_policy",
        "test_malformed_and_unknown_messages",
        "test_revoked_token_and_non_admin_start",
        "test_time_bank_and_increment_are_measured_by_the_referee",
        "test_plugin_vs_remote_match_and_record_over_the_wire",
        "test_missing_or_wrong_token_is_refused",
        "test_a_bot_cannot_answer_for_another_seat_or_match",
        "test_an_sdk_bot_that_reads_no_view_gets_none_and_one_that_does_gets_it",
        "test_sdk_reconnects_after_the_server_comes_back",
        "test_twilight_struggle_over_the_wire",
        "test_protocol_error_during_a_match_is_a_fault",
        "test_start_match_rejects_bad_requests",
        "test_a_bot_answering_ahead_is_refused_on_a_server",
    ],
    "tests/server/test_shutdown.py": [
        "test_sigterm_lets_running_matches_finish_then_ends_the_rest_as_shutdown",
        "test_an_edited_ledger_is_caught_by_verify_and_by_a_start_that_reads_the_line",
    ],
    "tests/server/test_shutdown_mid_decision.py": [
        "test_plain_grpc_aio_clients_mid_decision_get_match_ended_at_shutdown",
        "test_sdk_bots_mid_decision_get_match_ended_at_shutdown",
        "test_sigterm_with_bots_mid_decision_tells_every_one",
        "test_sdk_bots_thinking_past_the_servers_wait_still_get_match_ended",
    ],
    "tests/server/test_split_referee.py": [
        "test_same_records_and_wire_bytes_as_a_single_process_referee",
        "test_a_worker_that_dies_ends_its_match_as_error_and_the_server_goes_on",
        "test_a_worker_answers_every_request_even_right_after_a_match_is_over",
        "test_the_match_work_is_not_done_in_the_front",
    ],
    "tests/server/test_start_position.py": [
        "test_start_match_from_a_position_replays_from_it",
        "test_a_bad_start_position_is_invalid_argument",
        "test_start_match_from_a_twilight_struggle_position",
        "test_standoff_match_position_flag",
    ],
    "tests/server/test_tokens_and_ports.py": [
        "test_token_list_shows_admin_and_revoked",
        "test_restart_on_the_same_port_after_a_stop_or_a_kill",
        "test_add_of_an_existing_name_is_refused_unless_replace",
        "test_tournament_on_a_port_in_use_exits_2_with_one_line",
        "test_serve_on_a_port_in_use_exits_2_with_one_line",
        "test_a_broken_token_file_keeps_the_last_good_tokens_and_logs_once",
        "test_revoke_ends_the_open_session_and_refuses_new_calls_at_once",
        "test_replace_ends_the_old_tokens_sessions_and_accepts_the_new_token",
        "test_a_second_server_on_a_port_in_use_is_refused",
        "test_a_deleted_token_file_leaves_only_ephemeral_tokens",
    ],
    "tests/server/test_wire_identity.py": [
        "test_decoded_decisions_and_views_are_those_of_the_plain_decoder",
    ],
    "tests/test_accelerate.py": [
        "test_the_command_line_refuses_a_stale_engine_module_in_one_line_and_can_remove_it",
    ],
    "tests/test_bot_failures.py": [
        "test_a_plugin_bot_that_raises_in_a_tournament_is_named",
        "test_a_plugin_bot_killed_on_a_server_is_a_crash_at_once",
    ],
    "tests/test_cli_and_records.py": [
        "test_console_script_runs",
    ],
    "tests/test_conformance.py": [
        "test_twilight_struggle_games_reach_the_end",
        "test_random_games_terminate_and_replay",
        "test_views_are_leak_free",
        "test_every_option_applies_and_copies_are_independent",
    ],
    "tests/test_errors_are_not_results.py": [
        "test_a_tournament_with_erroring_matches_finishes_the_rest_and_exits_non_zero",
    ],
    "tests/test_first_hour.py": [
        "test_resume_ignores_what_does_not_change_results_and_names_what_does",
        "test_a_ladder_plays_n_more_rounds_with_a_summary_after_each",
        "test_report_says_which_records_do_not_replay",
        "test_a_tournament_with_a_remote_entrant_keeps_logs_off_stdout",
        "test_numbers_out_of_range_are_refused_before_any_call",
        "test_play_draws_a_seed_prints_it_and_replays_it_with_seed",
        "test_paths_that_are_directories_missing_or_not_writable",
        "test_output_files_share_one_permission_policy",
        "test_an_edited_outcome_names_the_record_file",
        "test_ctrl_c_is_one_line_and_exit_130",
    ],
    "tests/test_game_plugin.py": [
        "test_conformance_views_are_leak_free",
        "test_a_tournament_of_the_plugin_game_completes_with_ratings",
        "test_standoff_replay_shows_the_games_own_boards",
        "test_conformance_terminates_and_replays",
        "test_the_distribution_registers_its_game_and_bot",
        "test_conformance_every_option_applies_and_copies_are_independent",
        "test_standoff_games_and_bots_list_the_plugin",
        "test_an_sdk_bot_plays_the_plugin_bot_over_grpc",
        "test_standoff_report_shows_the_games_own_boards",
        "test_a_bot_without_the_plugin_gets_a_dict",
    ],
    "tests/test_import_cycles.py": [
        "test_the_graph_sees_lazy_and_relative_imports",
    ],
    "tests/test_oracles.py": [
        "test_schotten_totten_random_matches_are_clean",
        "test_twilight_struggle_random_matches_are_clean",
        "test_the_rules_reveal_what_they_reveal",
    ],
    "tests/test_plugins.py": [
        "test_third_party_plugin_is_discovered",
        "test_third_party_bot_plays_on_the_server_in_a_subprocess",
    ],
    "tests/test_positions.py": [
        "test_round_trip_at_every_state_of_random_games",
        "test_round_trip_at_every_state_of_twilight_struggle_to_the_late_war",
        "test_written_positions_satisfy_the_schema",
        "test_the_rare_events_reach_their_steps",
        "test_a_tournament_plays_each_position_with_the_seats_swapped",
    ],
    "tests/test_private_files.py": [
        "test_an_older_run_folder_and_data_folder_are_tightened_when_used_again",
        "test_another_account_reads_no_record_result_or_seed",
        "test_a_tournament_run_folder_is_private_but_for_its_report",
        "test_a_servers_data_folder_is_private_after_a_match",
        "test_play_record_is_private_and_an_existing_folder_keeps_its_mode",
    ],
    "tests/test_proto.py": [
        "test_the_wheel_contains_the_proto_files",
    ],
    "tests/test_readme.py": [
        "test_the_readme_command_blocks_run_in_order",
        "test_every_benchmark_command_takes_its_arguments",
    ],
    "tests/test_replay_endings.py": [
        "test_step_on_a_terminal_ends_cleanly",
    ],
    "tests/test_review.py": [
        "test_a_seat_never_sees_the_other_seats_hidden_cards",
        "test_three_player_records_render_and_hide_both_other_hands",
        "test_every_step_of_every_record_renders",
    ],
    "tests/test_rl.py": [
        "test_training_example_runs_and_enters_a_tournament",
        "test_observation_unchanged_when_hidden_cards_are_redealt",
        "test_policy_bot_plays_matches_like_a_bot",
        "test_seat_memory_is_the_engines_knowledge_of_the_other_hand",
        "test_pettingzoo_api_test",
        "test_rl_benchmark_runs",
    ],
    "tests/test_rl_plugin.py": [
        "test_the_generic_observation_is_unchanged_when_hidden_bids_are_redealt",
    ],
    "tests/test_rl_openspiel.py": [
        "test_openspiel_random_sim_test",
        "test_openspiel_mcts_and_ismcts_bots_play_it",
    ],
    "tests/test_submissions.py": [
        "test_the_commands",
        "test_no_sandbox_no_check_unless_unsandboxed",
        "test_a_project_folder_and_an_sdist_are_built",
        "test_the_check_runs_in_the_sandbox",
        "test_two_submissions_keep_conflicting_versions_of_a_dependency",
        "test_a_wheel_is_built_into_a_venv_of_its_own_and_registered",
        "test_a_broken_submission_is_rejected_with_one_line_its_log_kept_the_registry_unchanged",
        "test_retire_and_resolve",
    ],
    "tests/tournaments/test_html.py": [
        "test_every_page_parses_links_resolve_and_nothing_is_external",
        "test_series_matches_get_a_page_per_game",
        "test_a_match_started_from_a_position_is_drawn_from_it",
        "test_three_player_tracks_hold_only_their_own_seats_cards",
        "test_unplayed_matches_stale_pages_determinism_and_errors",
    ],
    "tests/tournaments/test_moved_run.py": [
        "test_a_folder_of_an_absolute_output_dir_resumes_from_a_relative_one_and_reads_where_it_is",
        "test_a_run_folder_moved_alone_or_copied_resumes",
    ],
    "tests/tournaments/test_paired_race.py": [
        "test_pairings_with_a_remote_entrant_are_unpaired_and_the_others_keep_their_pairs",
        "test_a_racing_entrant_learns_nothing_of_the_other_leg",
    ],
    "tests/tournaments/test_paired_secrecy.py": [
        "test_without_master_seed_a_run_draws_a_secret_one_and_keeps_it",
        "test_a_cheating_entrant_reproduces_no_deal_of_a_tournament",
    ],
    "tests/tournaments/test_ray_cluster.py": [
        "test_the_coordinators_raylet_killed_stops_the_run_and_the_same_command_resumes",
        "test_one_ctrl_c_while_connecting_to_a_silent_address",
    ],
    "tests/tournaments/test_runner.py": [
        "test_kill_and_resume_gives_identical_outputs",
        "test_same_config_same_results",
        "test_a_run_folder_of_another_config_is_refused",
        "test_an_endless_ladder_stops_cleanly_on_ctrl_c",
    ],
    "tests/tournaments/test_split_tournament.py": [
        "test_split_referee_tournament_same_outputs_as_the_single_process_one",
    ],
    "tests/tournaments/test_submission_ladder.py": [
        "test_conflicting_submissions_play_each_other_then_the_ladder_follows_the_registry",
    ],
    "tests/tournaments/test_three_player_tournament.py": [
        "test_three_player_round_robin_in_workers",
    ],
    "tests/tournaments/test_run_index.py": [
        "test_a_ladder_killed_at_20_points_keeps_its_index_and_files_agreeing",
    ],
    "tests/tournaments/test_verify.py": [
        "test_an_edited_result_line_is_refused_by_verify_ratings_report_and_resume",
    ],
    "tests/twilight_struggle/test_ts_story.py": [
        "test_many_matches_told_for_every_viewer_cover_every_card",
    ],
    "tests/twilight_struggle/test_card_audit.py": [
        "test_every_card_has_an_event_and_a_proving_test_and_the_table_is_current",
    ],
    "tests/twilight_struggle/test_long_run.py": [
        "test_the_soak_script_runs_the_oracle",
    ],
}


def markers(path: str, name: str, fixtures: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """The markers of test ``name`` (without parameters) of module ``path`` (relative to the
    repository, with "/"), which uses ``fixtures``."""
    found = {marker for prefix, marks in NEEDS.items() if path == prefix or (prefix.endswith("/")
             and path.startswith(prefix)) for marker in marks}
    if path in SLOW_MODULES or name in SLOW.get(path, ()):
        found.add("slow")
    for fixture, marks in FIXTURES.get(path, {}).items():
        if fixture in fixtures:
            found.update(marks)
    found.update(MARKS.get(f"{path}::{name}", ()))
    return found
