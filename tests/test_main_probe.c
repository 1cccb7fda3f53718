/* test_main_probe.c - part of the daemon suite (test_main.c): --probe, the
 * health check of the container image, against a running daemon, and the
 * URL a bare --probe finds from the daemon's flags in a fake /proc. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon_support.h"
#include "probe.h"
#include "support.h"
#include "tests.h"

/* --probe: the health check of the container image. */
static int probe(const char *url)
{
    const char *args[] = {"--probe", url, NULL};
    struct daemon d;
    int status;

    daemon_spawn(&d, args);
    status = daemon_wait_exit(&d, 5000);
    close(d.out), close(d.err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void probe_exits_0_for_a_live_daemon_and_1_otherwise(void **state)
{
    struct daemon d;
    char url[96];

    (void)state;
    daemon_spawn_listening(&d);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/livez", d.port);
    assert_int_equal(probe(url), 0);
    snprintf(url, sizeof(url), "http://localhost:%u/readyz", d.port);
    assert_int_equal(probe(url), 0);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/no-such-path", d.port);
    assert_int_equal(probe(url), 1);
    kill(d.pid, SIGTERM);
    assert_int_equal(WEXITSTATUS(daemon_wait_exit(&d, 5000)), 0);
    close(d.out), close(d.err);
    /* The port is closed now. */
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/livez", d.port);
    assert_int_equal(probe(url), 1);
    assert_int_equal(probe("http://example.org/livez"), 1); /* no DNS */
    assert_int_equal(probe("ftp://127.0.0.1/"), 1);
}

/* A fake /proc for probe_daemon_url: fake_proc(dir, pid, args, len) writes
 * DIR/PID/cmdline (NUL-separated args, len bytes). */
static void fake_proc(const char *dir, int pid, const char *args, size_t len)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%d", dir, pid);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/%d/cmdline", dir, pid);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(args, 1, len, f), len);
    fclose(f);
}

#define FAKE(dir, pid, lit) fake_proc(dir, pid, lit, sizeof(lit))

static void rm_fake_proc(const char *dir)
{
    char cmd[300];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A bare --probe (the image's HEALTHCHECK) follows the daemon's own flags
 * and environment: `docker run sudokud --port 9000` stays healthy. */
static void probe_finds_the_daemon_url_by_its_flags(void **state)
{
    char dir[] = "/tmp/sudokud-fakeproc.XXXXXX", url[256], err[256];
    char args[128];
    struct daemon d;
    int n;

    (void)state;
    assert_non_null(mkdtemp(dir));
    /* Nothing that is a daemon: an init, a shell, another probe. */
    FAKE(dir, 1, "/sbin/docker-init\0--\0sudokud");
    FAKE(dir, 3, "sh\0-c\0sudokud --port 1");
    FAKE(dir, 4, "/usr/local/bin/sudokud\0--probe");
    assert_int_equal(probe_daemon_url(dir, url, sizeof(url), err, sizeof(err)),
                     -1);
    assert_non_null(strstr(err, "no sudokud daemon"));
    /* The lowest-numbered daemon wins; flags as the daemon reads them. */
    FAKE(dir, 12, "/usr/local/bin/sudokud\0--port\0009002");
    FAKE(dir, 7, "/usr/local/bin/sudokud\0--threads\0002\0--port=9001");
    assert_int_equal(probe_daemon_url(dir, url, sizeof(url), err, sizeof(err)),
                     0);
    assert_string_equal(url, "http://127.0.0.1:9001/livez");
    rm_fake_proc(dir);

    /* One daemon each: the URL its flags and environment give, or the
     * reason there is none. */
    static const struct {
        const char *args;
        size_t len;
        const char *port_env; /* PORT, or NULL */
        const char *want;     /* the URL, or a part of the error */
        int rc;
    } one[] = {
#define ONE(lit, env, want, rc) {lit, sizeof(lit), env, want, rc}
        /* No flag: PORT from the environment, else 8080. */
        ONE("sudokud", NULL, "http://127.0.0.1:8080/livez", 0),
        ONE("sudokud", "9100", "http://127.0.0.1:9100/livez", 0),
        /* IPv6 wildcard, a fixed address, port 0 and a bad flag. */
        ONE("sudokud\0--bind\0::\0--port\0009000", NULL,
            "http://[::1]:9000/livez", 0),
        ONE("sudokud\0--bind\00010.1.2.3\0--port\0009000", NULL,
            "http://10.1.2.3:9000/livez", 0),
        ONE("sudokud\0--port\0000", NULL, "port 0", -1),
        ONE("sudokud\0--no-such-flag", NULL, "", -1),
#undef ONE
    };
    for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
        int rc;
        assert_non_null(mkdtemp(strcpy(dir, "/tmp/sudokud-fakeproc.XXXXXX")));
        fake_proc(dir, 1, one[i].args, one[i].len);
        if (one[i].port_env != NULL)
            setenv("PORT", one[i].port_env, 1);
        rc = probe_daemon_url(dir, url, sizeof(url), err, sizeof(err));
        unsetenv("PORT");
        rm_fake_proc(dir);
        assert_int_equal(rc, one[i].rc);
        assert_non_null(strstr(rc == 0 ? url : err, one[i].want));
        if (rc == 0)
            assert_string_equal(url, one[i].want);
    }

    /* The whole chain against a real daemon: its flags give a URL that
     * answers 200. */
    daemon_spawn_listening(&d);
    assert_non_null(mkdtemp(strcpy(dir, "/tmp/sudokud-fakeproc.XXXXXX")));
    n = snprintf(args, sizeof(args), "sudokud%c--bind%c127.0.0.1%c--port%c%u",
                 0, 0, 0, 0, d.port);
    fake_proc(dir, 1, args, (size_t)n + 1);
    assert_int_equal(probe_daemon_url(dir, url, sizeof(url), err, sizeof(err)),
                     0);
    assert_int_equal(probe_get(url, 2000, err, sizeof(err)), 200);
    rm_fake_proc(dir);
    kill(d.pid, SIGTERM);
    assert_int_equal(WEXITSTATUS(daemon_wait_exit(&d, 5000)), 0);
    close(d.out), close(d.err);
}

int test_main_probe(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(probe_exits_0_for_a_live_daemon_and_1_otherwise),
        cmocka_unit_test(probe_finds_the_daemon_url_by_its_flags),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("main_probe", tests, NULL, NULL);
}
