/* tests.h - the suites the one test runner (tests/runner.c) knows.
 * Each suite runs its cmocka group, stores how many tests it holds in *ntests
 * and returns how many of them failed. A suite is named after its file
 * (tests/test_<suite>.c, entry point test_<suite>); its test cases carry
 * no test_ prefix and are named as the fact they check
 * (budget_one_node_short_is_refused), one scenario each. Code the tests
 * share but that holds no test is named *_support.c or *_check.c. */
#ifndef TESTS_H
#define TESTS_H

#define TESTS_COUNT(array) ((unsigned)(sizeof(array) / sizeof((array)[0])))

int test_sudoku(unsigned *ntests);
int test_codec(unsigned *ntests);
int test_config(unsigned *ntests);
int test_log(unsigned *ntests);
int test_metrics(unsigned *ntests);
int test_api(unsigned *ntests);
int test_api_batch(unsigned *ntests);
int test_http(unsigned *ntests);
int test_main(unsigned *ntests);
int test_logic(unsigned *ntests);
int test_logic_ladder(unsigned *ntests);
/* Part of the logic_ladder suite: test_logic_ladder runs it. */
int test_logic_rare(unsigned *ntests);
/* Part of the logic suite: test_logic runs it. */
int test_logic_patterns(unsigned *ntests);
int test_generate(unsigned *ntests);
int test_api_logic(unsigned *ntests);
int test_api_grade(unsigned *ntests);
int test_cli(unsigned *ntests);
int test_killer(unsigned *ntests);
int test_api_killer(unsigned *ntests);
int test_codec_variant(unsigned *ntests);
int test_api_variant(unsigned *ntests);
int test_cli_variant(unsigned *ntests);
int test_cover(unsigned *ntests);
int test_layers(unsigned *ntests);
int test_serate(unsigned *ntests);
int test_teach(unsigned *ntests);
int test_api_teach(unsigned *ntests);
int test_teach_generate(unsigned *ntests);
int test_budget(unsigned *ntests);

/* Parts of a suite, each a cmocka group of its own with the same contract
 * as a suite; the runner knows only the suite, whose function runs them
 * (test_http() runs the test_http_* parts, and so on). */
int test_http_headers(unsigned *ntests);
int test_http_timeout(unsigned *ntests);
int test_http_conn(unsigned *ntests);
int test_http_batch(unsigned *ntests);
int test_main_log(unsigned *ntests);
int test_main_probe(unsigned *ntests);
int test_main_batch(unsigned *ntests);
int test_main_systemd(unsigned *ntests);
int test_codec_errors(unsigned *ntests);
int test_codec_encode(unsigned *ntests);
int test_api_board(unsigned *ntests);
int test_api_routes(unsigned *ntests);
int test_api_intake(unsigned *ntests);
int test_api_slice(unsigned *ntests);
int test_killer_solve(unsigned *ntests);

#endif
