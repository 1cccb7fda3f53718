/* support.h - small helpers several suites share: the example puzzle,
 * its rows, reading members of a JSON answer (failing the test when one is
 * missing) and checking a conflict in it, connecting to the server under test,
 * reading one sample of a Prometheus scrape, opening a tests/data
 * file, and waiting on the monotonic clock until something holds. */
#ifndef SUPPORT_H
#define SUPPORT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* The example of the puzzle's write-up: its 81-character line and solution,
 * a /solve body with it in rows, and the rows of the answer's solution. */
#define SUPPORT_EXAMPLE                                                        \
    "9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687.........8.9" \
    ".4.9...5."
#define SUPPORT_EXAMPLE_SOLUTION                                               \
    "957214386824736591361859742495372618786491235132568974519687423273145869" \
    "648923157"
#define SUPPORT_EXAMPLE_BODY                                                   \
    "{\"board\": [\"9.7.....6\", \"824.3....\", \"..1..9..2\", "               \
    "\".9...2.18\", "                                                          \
    "\"...4....5\", \"1325.8...\", \"...687...\", \"......8.9\", "             \
    "\".4.9...5.\"]}"
#define SUPPORT_EXAMPLE_SOLUTION_ROWS                                          \
    "[\"957214386\",\"824736591\",\"361859742\",\"495372618\",\"786491235\","  \
    "\"132568974\",\"519687423\",\"273145869\",\"648923157\"]"

/* The example's rows and its solution's, and the 81-character line of 9
 * rows (a row per 9 characters) in out. */
extern const char *const support_example_rows[9];
extern const char *const support_solution_rows[9];
void support_join_rows(const char *const *rows, char out[82]);

/* The number / string member `name` of obj; fails the test if absent or of
 * another type. */
double support_num(const cJSON *obj, const char *name);
const char *support_str(const cJSON *obj, const char *name);

/* tests/data/<name>, open for reading; fails the test when it cannot be
 * opened (the tests run from the repository root). */
FILE *support_open_data(const char *name);

/* A TCP connection to 127.0.0.1:port, or -1. */
int support_connect(unsigned port);

/* The value of the sample line "series value" in a Prometheus scrape (the
 * series written out whole, labels included), or -1 when absent. */
double support_sample(const char *text, const char *series);

/* Asserts that item is a conflict object of the answers: that unit, index
 * and digit, and exactly the ncells [row, column] pairs of cells, in order. */
void support_check_conflict(const cJSON *item, const char *unit, int index,
                            int digit, const int (*cells)[2], int ncells);

/* CLOCK_MONOTONIC in milliseconds. */
long support_now_ms(void);

/* Calls pred(arg) every SUPPORT_POLL_MS until it answers nonzero or ms
 * milliseconds have passed on the monotonic clock (the time pred takes
 * counts too), and returns its last answer: nonzero when it came to that.
 * pred is called at least once, and once more at the deadline. */
#define SUPPORT_POLL_MS 5
int support_wait_until(int (*pred)(void *arg), void *arg, long ms);

/* Runs the n parts of a suite (see tests.h) after its own group: adds
 * their tests to *ntests and returns how many of them failed. */
int support_run_parts(int (*const *parts)(unsigned *), size_t n,
                      unsigned *ntests);

#endif
