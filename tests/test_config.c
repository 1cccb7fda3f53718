/* test_config.c - cmocka tests of settings from defaults, environment and
 * flags (src/service/config.c). Every test runs with the variables config reads
 * unset; each one's value from before is put back after it, pass or fail. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tests.h"

#define ERRLEN 256

static const char *const env_names[] = {
    "PORT",
    "BIND",
    "THREADS",
    "MAX_BODY",
    "MAX_NODES",
    "TIMEOUT",
    "DRAIN_TIMEOUT",
    "MAX_CONNECTIONS",
    "MAX_PER_IP",
    "LOG_LEVEL",
    "ACCESS_LOG",
    "CORS_ORIGINS",
    "MAX_BATCH_NODES",
    "MAX_SEARCH_MS",
    "MAX_BATCH_MS",
};
#define NENV (sizeof(env_names) / sizeof(env_names[0]))

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* Saves and unsets every variable; *state holds the saved values. */
static int env_setup(void **state)
{
    char **saved = calloc(NENV, sizeof(*saved));

    if (saved == NULL)
        return -1;
    for (size_t i = 0; i < NENV; i++) {
        const char *v = getenv(env_names[i]);
        if (v != NULL && (saved[i] = strdup(v)) == NULL)
            return -1;
        unsetenv(env_names[i]);
    }
    *state = saved;
    return 0;
}

static int env_teardown(void **state)
{
    char **saved = *state;

    for (size_t i = 0; i < NENV; i++) {
        if (saved[i] != NULL)
            setenv(env_names[i], saved[i], 1);
        else
            unsetenv(env_names[i]);
        free(saved[i]);
    }
    free(saved);
    return 0;
}

/* Parses "sudokud" followed by the NULL-terminated args into a fresh
 * default config. */
static enum config_status parse(struct config *cfg, char *err,
                                const char *const *args)
{
    char *argv[32];
    int argc = 0;

    config_init(cfg);
    argv[argc++] = (char *)"sudokud";
    for (; *args != NULL; args++) {
        assert_true(argc < 31);
        argv[argc++] = (char *)*args;
    }
    argv[argc] = NULL;
    err[0] = '\0';
    return config_parse(cfg, argc, argv, err, ERRLEN);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void parse_ok(struct config *cfg, const char *const *args)
{
    char err[ERRLEN];
    enum config_status st = parse(cfg, err, args);

    if (st != CONFIG_OK)
        fail_msg("'%s ...' gave status %d: %s", args[0], st, err);
}

/* Expects CONFIG_ERROR with a one-line message containing each of the
 * NULL-terminated `parts` (the setting and the bad value). */
static void parse_error(const char *const *args, const char *const *parts)
{
    struct config cfg;
    char err[ERRLEN];
    enum config_status st = parse(&cfg, err, args);

    if (st != CONFIG_ERROR)
        fail_msg("'%s %s' gave status %d, expected an error", args[0],
                 args[1] ? args[1] : "", st);
    assert_true(strlen(err) > 0);
    assert_null(strchr(err, '\n'));
    for (; *parts != NULL; parts++)
        if (strstr(err, *parts) == NULL)
            fail_msg("message '%s' does not name '%s'", err, *parts);
}

static unsigned default_threads(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);

    return cpus < 1 ? 1 : cpus > 256 ? 256 : (unsigned)cpus;
}

/* ------------------------------------------------------------------------
 * Defaults
 * ------------------------------------------------------------------------ */

static void defaults(void **state)
{
    struct config cfg;

    (void)state;
    memset(&cfg, 0x5a, sizeof(cfg));
    config_init(&cfg);
    assert_int_equal(cfg.port, 8080);
    assert_string_equal(cfg.bind, "0.0.0.0");
    assert_int_equal(cfg.threads, default_threads());
    assert_int_equal(cfg.max_body, 16 * 1024);
    assert_int_equal(cfg.max_nodes, 100000);
    assert_int_equal(cfg.timeout, 10);
    assert_int_equal(cfg.drain_timeout, 25);
    assert_int_equal(cfg.max_connections, 1000);
    assert_int_equal(cfg.max_batch_nodes, 20000000);
    assert_int_equal(cfg.max_search_ms, 450);
    assert_int_equal(cfg.max_batch_ms, 5000);
}

/* With no flags and no environment, parsing changes nothing. */
static void no_arguments_keep_defaults(void **state)
{
    struct config cfg, ref;
    char err[ERRLEN];
    char *argv[] = {(char *)"sudokud", NULL};

    (void)state;
    config_init(&cfg);
    config_init(&ref);
    assert_int_equal(config_parse(&cfg, 1, argv, err, sizeof(err)), CONFIG_OK);
    assert_memory_equal(&cfg, &ref, sizeof(cfg));
}

/* ------------------------------------------------------------------------
 * Flags
 * ------------------------------------------------------------------------ */

static void flag_port(void **state)
{
    struct config cfg;

    (void)state;
    parse_ok(&cfg, ARGS("--port", "0"));
    assert_int_equal(cfg.port, 0);
    parse_ok(&cfg, ARGS("--port=9000"));
    assert_int_equal(cfg.port, 9000);
    parse_ok(&cfg, ARGS("--port", "65535"));
    assert_int_equal(cfg.port, 65535);
    parse_ok(&cfg, ARGS("--port=1"));
    assert_int_equal(cfg.port, 1);
    /* Nothing else moved. */
    assert_string_equal(cfg.bind, "0.0.0.0");
    assert_int_equal(cfg.max_body, 16 * 1024);
}

static void flag_bind(void **state)
{
    struct config cfg;

    (void)state;
    parse_ok(&cfg, ARGS("--bind", "127.0.0.1"));
    assert_string_equal(cfg.bind, "127.0.0.1");
    parse_ok(&cfg, ARGS("--bind=::1"));
    assert_string_equal(cfg.bind, "::1");
    parse_ok(&cfg, ARGS("--bind", "::"));
    assert_string_equal(cfg.bind, "::");
    parse_ok(&cfg, ARGS("--bind", "fe80::1:2:3:4"));
    assert_string_equal(cfg.bind, "fe80::1:2:3:4");
}

static void flag_numbers(void **state)
{
    struct config cfg;

    (void)state;
    parse_ok(&cfg, ARGS("--threads", "1"));
    assert_int_equal(cfg.threads, 1);
    parse_ok(&cfg, ARGS("--threads=256"));
    assert_int_equal(cfg.threads, 256);
    parse_ok(&cfg, ARGS("--max-nodes", "1000"));
    assert_int_equal(cfg.max_nodes, 1000);
    parse_ok(&cfg, ARGS("--max-nodes=4294967295"));
    assert_int_equal(cfg.max_nodes, 4294967295u);
    parse_ok(&cfg, ARGS("--timeout", "1"));
    assert_int_equal(cfg.timeout, 1);
    parse_ok(&cfg, ARGS("--timeout", "3600"));
    assert_int_equal(cfg.timeout, 3600);
    parse_ok(&cfg, ARGS("--drain-timeout", "0"));
    assert_int_equal(cfg.drain_timeout, 0);
    parse_ok(&cfg, ARGS("--drain-timeout=3600"));
    assert_int_equal(cfg.drain_timeout, 3600);
    parse_ok(&cfg, ARGS("--max-connections", "1"));
    assert_int_equal(cfg.max_connections, 1);
    parse_ok(&cfg, ARGS("--max-connections", "100000"));
    assert_int_equal(cfg.max_connections, 100000);
    parse_ok(&cfg, ARGS("--max-batch-nodes", "1000"));
    assert_int_equal(cfg.max_batch_nodes, 1000);
    parse_ok(&cfg, ARGS("--max-batch-nodes=1000000000000"));
    assert_true(cfg.max_batch_nodes == UINT64_C(1000000000000));
}

/* The CPU budgets: of one search and of one batch, in ms, from 1 to ten
 * minutes and to an hour; the node bounds keep working beside them. */
static void cpu_budget_flags_take_milliseconds(void **state)
{
    struct config cfg;

    (void)state;
    parse_ok(&cfg, ARGS("--max-search-ms", "1"));
    assert_int_equal(cfg.max_search_ms, 1);
    parse_ok(&cfg, ARGS("--max-search-ms=600000"));
    assert_int_equal(cfg.max_search_ms, 600000);
    parse_ok(&cfg, ARGS("--max-batch-ms", "1", "--max-batch-nodes", "5000"));
    assert_int_equal(cfg.max_batch_ms, 1);
    assert_int_equal(cfg.max_batch_nodes, 5000);
    parse_ok(&cfg, ARGS("--max-batch-ms=3600000", "--max-nodes", "2000"));
    assert_int_equal(cfg.max_batch_ms, 3600000);
    assert_int_equal(cfg.max_nodes, 2000);
    setenv("MAX_SEARCH_MS", "250", 1);
    setenv("MAX_BATCH_MS", "1500", 1);
    parse_ok(&cfg, ARGS("--max-batch-ms", "1600"));
    assert_int_equal(cfg.max_search_ms, 250);
    assert_int_equal(cfg.max_batch_ms, 1600); /* the flag wins */
}

static void flag_max_body_suffixes(void **state)
{
    struct config cfg;

    (void)state;
    parse_ok(&cfg, ARGS("--max-body", "64"));
    assert_int_equal(cfg.max_body, 64);
    parse_ok(&cfg, ARGS("--max-body", "100000"));
    assert_int_equal(cfg.max_body, 100000);
    parse_ok(&cfg, ARGS("--max-body=16K"));
    assert_int_equal(cfg.max_body, 16384);
    parse_ok(&cfg, ARGS("--max-body", "1k"));
    assert_int_equal(cfg.max_body, 1024);
    parse_ok(&cfg, ARGS("--max-body", "1M"));
    assert_int_equal(cfg.max_body, 1048576);
    parse_ok(&cfg, ARGS("--max-body", "64M"));
    assert_int_equal(cfg.max_body, 64u << 20);
    parse_ok(&cfg, ARGS("--max-body", "2m"));
    assert_int_equal(cfg.max_body, 2u << 20);
}

static void flags_together_and_repeated(void **state)
{
    struct config cfg;

    (void)state;
    parse_ok(&cfg, ARGS("--port", "1234", "--bind=::1", "--threads", "3",
                        "--max-body", "32K", "--max-nodes=5000", "--timeout",
                        "7", "--drain-timeout", "9", "--max-connections=11",
                        "--port", "4321"));
    assert_int_equal(cfg.port, 4321); /* the last one wins */
    assert_string_equal(cfg.bind, "::1");
    assert_int_equal(cfg.threads, 3);
    assert_int_equal(cfg.max_body, 32768);
    assert_int_equal(cfg.max_nodes, 5000);
    assert_int_equal(cfg.timeout, 7);
    assert_int_equal(cfg.drain_timeout, 9);
    assert_int_equal(cfg.max_connections, 11);
}

/* ------------------------------------------------------------------------
 * Environment
 * ------------------------------------------------------------------------ */

static void env_every_variable(void **state)
{
    struct config cfg;

    (void)state;
    setenv("PORT", "9001", 1);
    setenv("BIND", "127.0.0.1", 1);
    setenv("THREADS", "5", 1);
    setenv("MAX_BODY", "32K", 1);
    setenv("MAX_NODES", "123456", 1);
    setenv("TIMEOUT", "30", 1);
    setenv("DRAIN_TIMEOUT", "0", 1);
    setenv("MAX_CONNECTIONS", "77", 1);
    setenv("MAX_BATCH_NODES", "5000000", 1);
    parse_ok(&cfg, ARGS("--threads", "6"));
    assert_int_equal(cfg.port, 9001);
    assert_string_equal(cfg.bind, "127.0.0.1");
    assert_int_equal(cfg.threads, 6);
    assert_int_equal(cfg.max_body, 32768);
    assert_int_equal(cfg.max_nodes, 123456);
    assert_int_equal(cfg.timeout, 30);
    assert_int_equal(cfg.drain_timeout, 0);
    assert_int_equal(cfg.max_connections, 77);
    assert_int_equal(cfg.max_batch_nodes, 5000000);

    setenv("MAX_BODY", "2M", 1);
    parse_ok(&cfg, ARGS("--timeout", "31"));
    assert_int_equal(cfg.max_body, 2u << 20);
    assert_int_equal(cfg.threads, 5);
    assert_int_equal(cfg.timeout, 31);
}

static void flags_override_env(void **state)
{
    struct config cfg;

    (void)state;
    setenv("PORT", "9000", 1);
    setenv("BIND", "127.0.0.1", 1);
    setenv("MAX_BODY", "1M", 1);
    parse_ok(&cfg, ARGS("--port", "7000", "--bind=::1", "--max-body", "4K"));
    assert_int_equal(cfg.port, 7000);
    assert_string_equal(cfg.bind, "::1");
    assert_int_equal(cfg.max_body, 4096);
    parse_ok(&cfg, ARGS("--port=0"));
    assert_int_equal(cfg.port, 0);
    assert_string_equal(cfg.bind, "127.0.0.1");
    assert_int_equal(cfg.max_body, 1u << 20);
}

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------ */

#define PARTS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void error_bad_numbers(void **state)
{
    (void)state;
    parse_error(ARGS("--port", "abc"), PARTS("--port", "abc"));
    parse_error(ARGS("--port", "-1"), PARTS("--port", "-1"));
    parse_error(ARGS("--port=-1"), PARTS("--port", "-1"));
    parse_error(ARGS("--port", "65536"), PARTS("--port", "65536"));
    parse_error(ARGS("--port", "80x"), PARTS("--port", "80x"));
    parse_error(ARGS("--port", " 80"), PARTS("--port", " 80"));
    parse_error(ARGS("--port", "+80"), PARTS("--port", "+80"));
    parse_error(ARGS("--port", "1K"), PARTS("--port", "1K"));
    parse_error(ARGS("--port", "0x50"), PARTS("--port", "0x50"));
    parse_error(ARGS("--port="), PARTS("--port", "''"));
    parse_error(ARGS("--threads", "0"), PARTS("--threads", "'0'"));
    parse_error(ARGS("--threads", "257"), PARTS("--threads", "257"));
    parse_error(ARGS("--threads", "-4"), PARTS("--threads", "-4"));
    parse_error(ARGS("--threads", "4294967297"), PARTS("--threads"));
    parse_error(ARGS("--max-nodes", "999"), PARTS("--max-nodes", "999"));
    parse_error(ARGS("--max-nodes", "4294967296"),
                PARTS("--max-nodes", "4294967296"));
    parse_error(ARGS("--max-nodes", "99999999999999999999999"),
                PARTS("--max-nodes"));
    parse_error(ARGS("--timeout", "0"), PARTS("--timeout", "'0'"));
    parse_error(ARGS("--timeout", "3601"), PARTS("--timeout", "3601"));
    parse_error(ARGS("--timeout", "1.5"), PARTS("--timeout", "1.5"));
    parse_error(ARGS("--drain-timeout", "3601"),
                PARTS("--drain-timeout", "3601"));
    parse_error(ARGS("--max-connections", "0"),
                PARTS("--max-connections", "'0'"));
    parse_error(ARGS("--max-connections", "100001"),
                PARTS("--max-connections", "100001"));
    parse_error(ARGS("--max-batch-nodes", "999"),
                PARTS("--max-batch-nodes", "999"));
    parse_error(ARGS("--max-batch-nodes", "1000000000001"),
                PARTS("--max-batch-nodes", "1000000000001"));
}

static void cpu_budget_flags_refuse_bad_values(void **state)
{
    (void)state;
    parse_error(ARGS("--max-search-ms", "0"), PARTS("--max-search-ms", "'0'"));
    parse_error(ARGS("--max-search-ms", "600001"),
                PARTS("--max-search-ms", "600001"));
    parse_error(ARGS("--max-search-ms", "0.5"),
                PARTS("--max-search-ms", "0.5"));
    parse_error(ARGS("--max-search-ms", "1K"), PARTS("--max-search-ms", "1K"));
    parse_error(ARGS("--max-batch-ms", "0"), PARTS("--max-batch-ms", "'0'"));
    parse_error(ARGS("--max-batch-ms", "3600001"),
                PARTS("--max-batch-ms", "3600001"));
    parse_error(ARGS("--max-batch-ms", "-5"), PARTS("--max-batch-ms", "-5"));
    parse_error(ARGS("--max-batch-ms"), PARTS("--max-batch-ms", "value"));
}

static void error_bad_max_body(void **state)
{
    (void)state;
    parse_error(ARGS("--max-body", "63"), PARTS("--max-body", "63"));
    parse_error(ARGS("--max-body", "65M"), PARTS("--max-body", "65M"));
    parse_error(ARGS("--max-body", "1G"), PARTS("--max-body", "1G"));
    parse_error(ARGS("--max-body", "16KB"), PARTS("--max-body", "16KB"));
    parse_error(ARGS("--max-body", "K"), PARTS("--max-body", "'K'"));
    parse_error(ARGS("--max-body", "0K"), PARTS("--max-body", "0K"));
    parse_error(ARGS("--max-body", "-1K"), PARTS("--max-body", "-1K"));
    parse_error(ARGS("--max-body", "18014398509481984K"), PARTS("--max-body"));
}

static void error_bad_bind(void **state)
{
    (void)state;
    parse_error(ARGS("--bind", ""), PARTS("--bind", "''"));
    parse_error(ARGS("--bind", "localhost"), PARTS("--bind", "localhost"));
    parse_error(ARGS("--bind", "1.2.3.256"), PARTS("--bind", "1.2.3.256"));
    parse_error(ARGS("--bind=::1::2"), PARTS("--bind", "::1::2"));
}

static void error_unknown_and_missing(void **state)
{
    (void)state;
    parse_error(ARGS("--nope"), PARTS("--nope"));
    parse_error(ARGS("--nope=1"), PARTS("--nope"));
    parse_error(ARGS("--Port", "80"), PARTS("--Port"));
    parse_error(ARGS("-p", "80"), PARTS("-p"));
    parse_error(ARGS("8080"), PARTS("8080"));
    parse_error(ARGS("--"), PARTS("--"));
    parse_error(ARGS("--port"), PARTS("--port", "value"));
    parse_error(ARGS("--threads", "2", "--max-body"),
                PARTS("--max-body", "value"));
}

/* A bad variable fails the parse and the message names the variable. */
static void error_bad_env(void **state)
{
    static const struct {
        const char *name, *value;
    } cases[] = {
        {"PORT", "abc"},
        {"PORT", "65536"},
        {"PORT", "-1"},
        {"BIND", "nowhere"},
        {"THREADS", "0"},
        {"THREADS", "many"},
        {"MAX_BODY", "1G"},
        {"MAX_BODY", "10"},
        {"MAX_NODES", "-5"},
        {"MAX_NODES", "12e3"},
        {"TIMEOUT", "x"},
        {"DRAIN_TIMEOUT", "3601"},
        {"MAX_CONNECTIONS", "0"},
        {"MAX_SEARCH_MS", "0"},
        {"MAX_SEARCH_MS", "5s"},
        {"MAX_BATCH_MS", "x"},
        {"MAX_BATCH_MS", "3600001"},
    };
    struct config cfg;
    char err[ERRLEN];

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        setenv(cases[i].name, cases[i].value, 1);
        if (parse(&cfg, err, ARGS("--port", "80")) != CONFIG_ERROR)
            fail_msg("%s=%s was accepted", cases[i].name, cases[i].value);
        unsetenv(cases[i].name);
        if (strstr(err, cases[i].name) == NULL ||
            strstr(err, cases[i].value) == NULL)
            fail_msg("message '%s' does not name %s or '%s'", err,
                     cases[i].name, cases[i].value);
        assert_null(strchr(err, '\n'));
    }
}

/* The message is cut to errlen bytes, NUL included, and nothing past them
 * is written. */
static void error_respects_errlen(void **state)
{
    struct config cfg;
    char err[64];
    char *argv[] = {(char *)"sudokud", (char *)"--max-connections",
                    (char *)"123456789012345678901234567890", NULL};

    (void)state;
    memset(err, 'Z', sizeof(err));
    config_init(&cfg);
    assert_int_equal(config_parse(&cfg, 3, argv, err, 16), CONFIG_ERROR);
    assert_int_equal(strlen(err), 15);
    for (size_t i = 16; i < sizeof(err); i++)
        assert_int_equal(err[i], 'Z');
}

/* ------------------------------------------------------------------------
 * --help, --version and the usage text
 * ------------------------------------------------------------------------ */

static void help_and_version(void **state)
{
    struct config cfg;
    char err[ERRLEN];

    (void)state;
    assert_int_equal(parse(&cfg, err, ARGS("--help")), CONFIG_HELP);
    assert_int_equal(parse(&cfg, err, ARGS("-h")), CONFIG_HELP);
    assert_int_equal(parse(&cfg, err, ARGS("--version")), CONFIG_VERSION);
    assert_int_equal(parse(&cfg, err, ARGS("--port", "80", "--help")),
                     CONFIG_HELP);
    assert_int_equal(parse(&cfg, err, ARGS("--help", "--bogus")), CONFIG_HELP);
    assert_int_equal(parse(&cfg, err, ARGS("--version", "--help")),
                     CONFIG_VERSION);
    /* --help anywhere wins over bad settings, so help is always at hand. */
    assert_int_equal(parse(&cfg, err, ARGS("--bogus", "--help")), CONFIG_HELP);
    assert_int_equal(parse(&cfg, err, ARGS("--port", "--help")), CONFIG_HELP);
    setenv("PORT", "abc", 1);
    assert_int_equal(parse(&cfg, err, ARGS("--help")), CONFIG_HELP);
    assert_int_equal(parse(&cfg, err, ARGS("--port", "80")), CONFIG_ERROR);
    unsetenv("PORT");
}

/* --help lists every setting of the table: its flag and argument, its
 * variable and its default; and the two options of its own. */
static void usage_lists_every_option(void **state)
{
    char *text = NULL, want[128];
    size_t size = 0, n = 0;
    FILE *f = open_memstream(&text, &size);
    struct config_option o;

    (void)state;
    assert_non_null(f);
    config_usage(f, "sudokud");
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(text, "Usage: sudokud"));
    for (; config_option_info(n, &o) == 0; n++) {
        const char *line;
        snprintf(want, sizeof(want), "--%s %s ", o.flag, o.arg);
        if ((line = strstr(text, want)) == NULL)
            fail_msg("usage lacks '%s'", want);
        snprintf(want, sizeof(want), "(default%s%s)", o.def ? " " : ": ",
                 o.def ? o.def : "online CPUs");
        const char *end = strchr(line, '\n'), *env = strstr(line, o.env),
                   *def = strstr(line, want);
        if (env == NULL || env > end || def == NULL || def > end)
            fail_msg("--%s: its line lacks %s or '%s'", o.flag, o.env, want);
    }
    assert_true(n >= 21); /* the settings the README lists, at least */
    assert_non_null(strstr(text, "--help"));
    assert_non_null(strstr(text, "--version"));
    free(text);
}

/* Every default reads back as itself: config_init's settings are those of
 * --flag DEFAULT for every flag. */
static void defaults_parse(void **state)
{
    struct config a, b;
    struct config_option o;
    char *argv[2 * 64 + 1], err[256];
    int argc = 1;

    (void)state;
    argv[0] = "sudokud";
    for (size_t i = 0; config_option_info(i, &o) == 0; i++) {
        static char flags[64][48];
        if (o.def == NULL)
            continue;
        assert_true(argc + 2 < (int)(sizeof(argv) / sizeof(argv[0])));
        snprintf(flags[i], sizeof(flags[i]), "--%s", o.flag);
        argv[argc++] = flags[i];
        argv[argc++] = (char *)o.def;
    }
    config_init(&a);
    config_init(&b);
    assert_int_equal(config_parse(&b, argc, argv, err, sizeof(err)), CONFIG_OK);
    assert_memory_equal(&a, &b, sizeof(a));
}

/* The README's configuration table has a row per setting, in the table's
 * words: `--flag ARG`, `VARIABLE`, and the default first in its column;
 * and no row for a flag the daemon does not have. */
static void readme_table_matches(void **state)
{
    FILE *f = fopen("README.md", "r");
    char line[1024], want[160];
    struct config_option o;
    size_t rows = 0, n = 0;
    char *text = calloc(1, 1 << 20);

    (void)state;
    assert_non_null(f);
    assert_non_null(text);
    while (fgets(line, sizeof(line), f) != NULL)
        if (strncmp(line, "| `--", 5) == 0) {
            rows++;
            strcat(text, line);
        }
    fclose(f);
    for (; config_option_info(n, &o) == 0; n++) {
        char arg[32]; /* a | in a Markdown table cell is written \| */
        size_t k = 0;
        for (const char *c = o.arg; *c && k + 2 < sizeof(arg); c++) {
            if (*c == '|')
                arg[k++] = '\\';
            arg[k++] = *c;
        }
        arg[k] = '\0';
        char quoted[160]; /* the default may be written as code */
        snprintf(want, sizeof(want), "| `--%s %s` | `%s` | %s", o.flag, arg,
                 o.env, o.def ? o.def : "online CPUs");
        snprintf(quoted, sizeof(quoted), "| `--%s %s` | `%s` | `%s`", o.flag,
                 arg, o.env, o.def ? o.def : "online CPUs");
        if (strstr(text, want) == NULL && strstr(text, quoted) == NULL)
            fail_msg("README lacks the row '%s'", want);
    }
    assert_int_equal(rows, n);
    free(text);
}

int test_config(unsigned *ntests)
{
#define T(f) cmocka_unit_test_setup_teardown(f, env_setup, env_teardown)
    const struct CMUnitTest tests[] = {
        T(defaults),
        T(no_arguments_keep_defaults),
        T(flag_port),
        T(flag_bind),
        T(flag_numbers),
        T(flag_max_body_suffixes),
        T(flags_together_and_repeated),
        T(env_every_variable),
        T(flags_override_env),
        T(error_bad_numbers),
        T(cpu_budget_flags_take_milliseconds),
        T(cpu_budget_flags_refuse_bad_values),
        T(error_bad_max_body),
        T(error_bad_bind),
        T(error_unknown_and_missing),
        T(error_bad_env),
        T(error_respects_errlen),
        T(help_and_version),
        T(usage_lists_every_option),
        T(defaults_parse),
        T(readme_table_matches),
    };
#undef T

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
