/* tests.h - the suites the one test runner (tests/runner.c) knows.
 * Each suite runs its cmocka group, stores how many tests it holds in *ntests
 * and returns how many of them failed. */
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
/* Part of the logic suite: test_logic runs it. */
int test_logic_patterns(unsigned *ntests);
int test_generate(unsigned *ntests);
int test_api_logic(unsigned *ntests);
int test_cli(unsigned *ntests);
int test_killer(unsigned *ntests);
int test_api_killer(unsigned *ntests);

#endif
