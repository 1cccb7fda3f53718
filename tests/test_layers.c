/* test_layers.c - the layer rule holds in the build: `make` on a copy of
 * the tree where a file includes across a layer fails before it compiles
 * anything, naming the file and the rule (tools/check-layers.sh). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests.h"

struct tree {
    char dir[64];
};

/* A scratch copy of what `make` builds from, in a fresh temporary folder. */
static int tree_setup(void **state)
{
    struct tree *t = calloc(1, sizeof(*t));
    char cmd[256];

    if (t == NULL)
        return -1;
    snprintf(t->dir, sizeof(t->dir), "/tmp/sudokud-layers-XXXXXX");
    if (mkdtemp(t->dir) == NULL)
        return free(t), -1;
    snprintf(cmd, sizeof(cmd),
             "cp -r Makefile openapi.yaml src include tools %s/", t->dir);
    if (system(cmd) != 0)
        return free(t), -1;
    *state = t;
    return 0;
}

static int tree_teardown(void **state)
{
    struct tree *t = *state;
    char cmd[128];

    snprintf(cmd, sizeof(cmd), "rm -rf %s", t->dir);
    int rc = system(cmd);
    free(t);
    return rc == 0 ? 0 : -1;
}

/* Runs `make` in the copy with `line` put at the top of `file` (a path in
 * the tree), then puts the file back. Returns make's exit status; *out gets
 * what it printed (at most size-1 bytes). */
static int make_with_line(struct tree *t, const char *file, const char *line,
                          char *out, size_t size)
{
    char path[512], saved[520], cmd[4096];

    snprintf(path, sizeof(path), "%s/%s", t->dir, file);
    snprintf(saved, sizeof(saved), "%s.orig", path);
    snprintf(cmd, sizeof(cmd),
             "cp %s %s && { printf '%%s\\n' '%s'; cat %s; } > %s", path, saved,
             line, saved, path);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "make -C %s --no-print-directory 2>&1", t->dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    snprintf(cmd, sizeof(cmd), "mv %s %s", saved, path);
    assert_int_equal(system(cmd), 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* make failed at the check, not at a compiler, and said why. */
static void check_refused(struct tree *t, const char *file, const char *line)
{
    char out[8192];

    assert_int_not_equal(make_with_line(t, file, line, out, sizeof(out)), 0);
    assert_non_null(strstr(out, file));
    assert_non_null(strstr(out, "the layer rule"));
    /* Refused before anything was compiled. */
    assert_null(strstr(out, "-c -o"));
}

static void engine_including_cjson_fails_the_build(void **state)
{
    check_refused(*state, "src/engine/sudoku.c", "#include <cjson/cJSON.h>");
}

static void engine_including_microhttpd_fails_the_build(void **state)
{
    check_refused(*state, "src/engine/logic/logic.c",
                  "#include <microhttpd.h>");
}

static void engine_including_the_codec_header_fails_the_build(void **state)
{
    check_refused(*state, "src/engine/cover/cover.c", "#include \"codec.h\"");
}

static void engine_header_including_the_api_header_fails_the_build(void **state)
{
    check_refused(*state, "include/engine/killer.h", "#include \"api.h\"");
}

static void api_including_microhttpd_fails_the_build(void **state)
{
    check_refused(*state, "src/api/api.c", "#include <microhttpd.h>");
}

static void codec_including_microhttpd_fails_the_build(void **state)
{
    check_refused(*state, "src/codec/codec.c", "#include <microhttpd.h>");
}

static void api_including_an_http_header_fails_the_build(void **state)
{
    check_refused(*state, "src/api/api_solve.c", "#include \"http.h\"");
}

static void the_tree_as_it_is_keeps_the_rule(void **state)
{
    struct tree *t = *state;
    char cmd[256];

    snprintf(cmd, sizeof(cmd), "%s/tools/check-layers.sh %s", t->dir, t->dir);
    assert_int_equal(system(cmd), 0);
}

int test_layers(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_tree_as_it_is_keeps_the_rule),
        cmocka_unit_test(engine_including_cjson_fails_the_build),
        cmocka_unit_test(engine_including_microhttpd_fails_the_build),
        cmocka_unit_test(engine_including_the_codec_header_fails_the_build),
        cmocka_unit_test(
            engine_header_including_the_api_header_fails_the_build),
        cmocka_unit_test(api_including_microhttpd_fails_the_build),
        cmocka_unit_test(codec_including_microhttpd_fails_the_build),
        cmocka_unit_test(api_including_an_http_header_fails_the_build),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("layers", tests, tree_setup,
                                       tree_teardown);
}
