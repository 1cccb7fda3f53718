/* cli_internal.h - what the files of the `sudoku` command share: its
 * options, the output buffer a puzzle line is printed into, and the entry
 * points of running a file, of `generate` and of the variant command. Not a
 * contract for anything outside the command. */
#ifndef CLI_INTERNAL_H
#define CLI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

enum cli_mode {
    CLI_SOLVE,
    CLI_COUNT,
    CLI_VALIDATE,
    CLI_HINT,
    CLI_GRADE,
    CLI_EXPLAIN
};

struct cli_options {
    enum cli_mode mode;
    unsigned threads;
    uint64_t max_nodes;
    uint64_t max_logic_ms;
    int se; /* --se: explain lists Sudoku Explainer's steps */
};

/* A growing byte buffer (not NUL-terminated). Once an allocation fails,
 * `failed` is set and appends are dropped; the owner frees `data`. */
struct cli_buf {
    char *data;
    size_t len, cap;
    int failed;
};

/* Judges one puzzle line (text[0..len), trimmed, not empty) of input
 * `name` and prints its answer into out, or its report into err as
 * "NAME:LINE: reason\n". Returns 1 when the line was reported as a
 * failure (exit status 1), else 0. Reentrant. */
int cli_line(const struct cli_options *opt, const char *name, unsigned lineno,
             const char *text, size_t len, struct cli_buf *out,
             struct cli_buf *err);

/* Runs one input ("-": standard input) and writes its answers in input
 * order. Returns 0 when every puzzle was answered, 1 when some was
 * reported, 2 when the input could not be read. */
int cli_run_file(const struct cli_options *opt, const char *path);

/* `sudoku generate`: argv holds the arguments after the word. Returns the
 * exit status. */
int cli_generate(int argc, char **argv);

/* Runs the command when argv holds a variant option (--size, --box,
 * --regions, --diagonals, --anti-knight, --anti-king) and returns its exit
 * status; -1 when it holds none, so the classic command runs unchanged
 * (cli_variant.c). */
int cli_variant_main(int argc, char **argv);

/* The help text, for --help. */
void cli_print_usage(void);

/* A usage error: says the one thing that is wrong on stderr, points to
 * --help, and returns the exit status for it (2). */
int cli_bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reads option `flag`'s value v as a whole number from min to max into
 * *out: returns 0, or the usage error's status (reported). */
int cli_option_number(const char *flag, const char *v, unsigned long long min,
                      unsigned long long max, unsigned long long *out);

#endif
