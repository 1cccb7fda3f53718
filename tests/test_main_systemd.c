/* test_main_systemd.c - part of the daemon suite (test_main.c): the daemon
 * under systemd's protocols, with this test playing systemd. Readiness on a
 * datagram socket of the test's ($NOTIFY_SOCKET, abstract), the watchdog,
 * socket activation through systemd-socket-activate and through a socket
 * the test holds across a restart under load, and W3C trace context in the
 * access log and problem bodies. Every wait is on state (a datagram, a log
 * line, an exit) with a deadline. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon_support.h"
#include "support.h"
#include "tests.h"

extern char **environ;

#define TRACEPARENT "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
#define TRACE_ID "4bf92f3577b34da6a3ce929d0e0e4736"

/* ------------------------------------------------------------------------
 * systemd's side: the notification socket and the handed-over socket
 * ------------------------------------------------------------------------ */

/* A datagram socket on an abstract name (written to name, "@..." as
 * NOTIFY_SOCKET spells it), for the daemon's notifications. */
static int notify_socket(char *name, size_t cap)
{
    static int serial;
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    size_t n;

    assert_true(fd >= 0);
    snprintf(name, cap, "@sudokud-test-%ld-%d", (long)getpid(), serial++);
    n = strlen(name);
    memcpy(sun.sun_path, name, n);
    sun.sun_path[0] = '\0';
    assert_int_equal(
        bind(fd, (struct sockaddr *)&sun,
             (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)),
        0);
    return fd;
}

/* Reads datagrams until one holds `word` (1) or timeout_ms pass (0). The
 * last datagram is left in msg. */
static int wait_datagram(int fd, const char *word, int timeout_ms, char *msg,
                         size_t cap)
{
    long end = daemon_now_ms() + timeout_ms;

    msg[0] = '\0';
    for (long left; (left = end - daemon_now_ms()) > 0;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        ssize_t n;
        if (poll(&p, 1, (int)left) != 1)
            return 0;
        if ((n = recv(fd, msg, cap - 1, 0)) < 0)
            return 0;
        msg[n] = '\0';
        if (strstr(msg, word) != NULL)
            return 1;
    }
    return 0;
}

/* Reads fd until `word` shows up (1) or timeout_ms pass (0). */
static int wait_text(int fd, const char *word, int timeout_ms)
{
    long end = daemon_now_ms() + timeout_ms;
    char buf[2048];
    size_t len = 0;

    buf[0] = '\0';
    for (long left; (left = end - daemon_now_ms()) > 0;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        ssize_t n;
        if (strstr(buf, word) != NULL)
            return 1;
        if (len == sizeof(buf) - 1 || poll(&p, 1, (int)left) != 1 ||
            (n = read(fd, buf + len, sizeof(buf) - 1 - len)) <= 0)
            return 0;
        len += (size_t)n;
        buf[len] = '\0';
    }
    return strstr(buf, word) != NULL;
}

/* A listening TCP socket on 127.0.0.1 and a free port, as systemd would
 * make for ListenStream=127.0.0.1:PORT; its port in *port. */
static int listening_socket(unsigned *port)
{
    struct sockaddr_in in = {.sin_family = AF_INET};
    socklen_t len = sizeof(in);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), on = 1;

    assert_true(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&in, sizeof(in)), 0);
    assert_int_equal(listen(fd, SOMAXCONN), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&in, &len), 0);
    *port = ntohs(in.sin_port);
    return fd;
}

/* A free port of 127.0.0.1 (bound, read and let go). */
static unsigned free_port(void)
{
    unsigned port;
    int fd = listening_socket(&port);

    close(fd);
    return port;
}

static const char *binary(void)
{
    const char *b = getenv("SUDOKUD_BIN");
    return b ? b : "build/sudokud";
}

/* Writes "NAME=<v>" to out (async-signal-safe: used between fork and
 * exec, where the test may have threads running). */
static void env_number(char *out, const char *name, long v)
{
    char digits[24];
    int n = 0;

    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    while (*name)
        *out++ = *name++;
    while (n > 0)
        *out++ = digits[--n];
    *out = '\0';
}

/* Starts argv[0] as systemd starts a socket-activated service: listen_fd
 * as descriptor 3, LISTEN_FDS=1 and LISTEN_PID (the child's; none of the
 * three when listen_fd is -1), and notify
 * (NULL: none) as NOTIFY_SOCKET; stdout and stderr on pipes. */
static void spawn_activated(struct daemon *d, const char *const *argv,
                            int listen_fd, const char *notify)
{
    static char listen_fds[] = "LISTEN_FDS=1";
    char notify_env[128], pid_env[32];
    char *envp[256];
    int out[2], err[2], n = 0;
    pid_t runner;

    for (char **e = environ; *e && n < 250; e++)
        if (strncmp(*e, "LISTEN_", 7) != 0 && strncmp(*e, "NOTIFY_", 7) != 0)
            envp[n++] = *e;
    if (listen_fd >= 0) {
        envp[n++] = listen_fds;
        envp[n++] = pid_env;
    }
    if (notify != NULL) {
        snprintf(notify_env, sizeof(notify_env), "NOTIFY_SOCKET=%s", notify);
        envp[n++] = notify_env;
    }
    envp[n] = NULL;
    memset(d, 0, sizeof(*d));
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    runner = getpid();
    d->pid = fork();
    assert_true(d->pid >= 0);
    if (d->pid == 0) {
        daemon_child_dies_with_runner(runner);
        env_number(pid_env, "LISTEN_PID=", (long)getpid());
        dup2(out[1], 1);
        dup2(err[1], 2);
        if (listen_fd == 3)
            fcntl(3, F_SETFD, 0);
        else if (listen_fd >= 0)
            dup2(listen_fd, 3); /* dup2 clears FD_CLOEXEC */
        execve(argv[0], (char *const *)argv, envp);
        _exit(127);
    }
    close(out[1]), close(err[1]);
    d->out = out[0];
    d->err = err[0];
}

/* GET path on a new connection: the status, or 0 when no answer came. */
static int get_status(unsigned port, const char *path)
{
    char req[128], resp[2048];
    int status = 0;

    snprintf(req, sizeof(req),
             "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path);
    daemon_exchange(port, req, resp, sizeof(resp));
    sscanf(resp, "HTTP/1.1 %d", &status);
    return status;
}

static void stop_daemon(struct daemon *d)
{
    kill(d->pid, SIGTERM);
    assert_int_equal(WEXITSTATUS(daemon_wait_exit(d, 10000)), 0);
    close(d->out), close(d->err);
}

/* ------------------------------------------------------------------------
 * The tests
 * ------------------------------------------------------------------------ */

/* READY=1 comes once the port listens: connecting right after it never
 * fails; STOPPING=1 comes on SIGTERM, before the exit. */
static void
notify_says_ready_once_listening_and_stopping_on_sigterm(void **state)
{
    const char *args[] = {"--bind",    "127.0.0.1", "--port", "0",
                          "--threads", "2",         NULL};
    char name[64], msg[1024];
    struct daemon d;
    unsigned port = 0;
    const char *p;
    int fd;

    (void)state;
    fd = notify_socket(name, sizeof(name));
    setenv("NOTIFY_SOCKET", name, 1);
    daemon_spawn(&d, args);
    unsetenv("NOTIFY_SOCKET");
    assert_true(wait_datagram(fd, "READY=1", 5000, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "STATUS=serving on 127.0.0.1 port "));
    assert_non_null(p = strstr(msg, " port "));
    assert_int_equal(sscanf(p, " port %u", &port), 1);
    assert_true(port > 0);
    /* No retry: the listener was bound before READY=1 was sent. */
    assert_int_equal(get_status(port, "/livez"), 200);
    {
        char mainpid[32];
        snprintf(mainpid, sizeof(mainpid), "MAINPID=%ld", (long)d.pid);
        assert_non_null(strstr(msg, mainpid));
    }
    kill(d.pid, SIGTERM);
    assert_true(wait_datagram(fd, "STOPPING=1", 5000, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "STATUS=draining (SIGTERM)"));
    assert_int_equal(WEXITSTATUS(daemon_wait_exit(&d, 10000)), 0);
    close(d.out), close(d.err);
    close(fd);
}

/* WATCHDOG_USEC set: WATCHDOG=1 comes again and again; set for another
 * process (WATCHDOG_PID), none. */
static void notify_pings_the_watchdog_within_its_interval(void **state)
{
    const char *args[] = {"--bind", "127.0.0.1", "--port", "0", NULL};
    char name[64], msg[1024];
    struct daemon d;
    int fd;

    (void)state;
    fd = notify_socket(name, sizeof(name));
    setenv("NOTIFY_SOCKET", name, 1);
    setenv("WATCHDOG_USEC", "200000", 1);
    daemon_spawn(&d, args);
    assert_true(wait_datagram(fd, "READY=1", 5000, msg, sizeof(msg)));
    for (int i = 0; i < 3; i++) /* at 0.1 s: three within a second */
        assert_true(wait_datagram(fd, "WATCHDOG=1", 1000, msg, sizeof(msg)));
    stop_daemon(&d);

    setenv("WATCHDOG_PID", "1", 1); /* not the daemon's */
    daemon_spawn(&d, args);
    unsetenv("NOTIFY_SOCKET"), unsetenv("WATCHDOG_USEC"),
        unsetenv("WATCHDOG_PID");
    assert_true(wait_datagram(fd, "READY=1", 5000, msg, sizeof(msg)));
    assert_false(wait_datagram(fd, "WATCHDOG=1", 500, msg, sizeof(msg)));
    stop_daemon(&d);
    close(fd);
}

/* systemd-socket-activate -l 127.0.0.1:PORT build/sudokud: the daemon
 * serves the socket it was handed (no --port given: 8080 would be its
 * own), says so in its log, and notifies through -E NOTIFY_SOCKET. The
 * tool execs the daemon in its own process, so d.pid is the daemon's. */
static void
socket_activated_daemon_serves_livez_on_the_handed_socket(void **state)
{
    char name[64], msg[1024], listen_arg[64];
    unsigned port = free_port();
    struct daemon d;
    int fd;

    (void)state;
    if (access("/usr/bin/systemd-socket-activate", X_OK) != 0) {
        fprintf(stderr, "(systemd-socket-activate missing: apt-get install "
                        "systemd)\n");
        skip();
    }
    snprintf(listen_arg, sizeof(listen_arg), "127.0.0.1:%u", port);
    {
        const char *argv[] = {"/usr/bin/systemd-socket-activate",
                              "-l",
                              listen_arg,
                              "-E",
                              "NOTIFY_SOCKET",
                              binary(),
                              "--threads",
                              "2",
                              NULL};
        fd = notify_socket(name, sizeof(name));
        spawn_activated(&d, argv, -1, name); /* -E passes it on */
    }
    /* systemd-socket-activate listens, and starts the daemon only when the
     * first client connects: that client waits in the backlog meanwhile and
     * is served by the daemon it started. */
    assert_true(wait_text(d.err, "Listening on", 5000));
    assert_int_equal(get_status(port, "/livez"), 200);
    assert_true(wait_datagram(fd, "READY=1", 5000, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "socket activation"));
    assert_true(daemon_wait_log(&d, "\"socket_activated\":1", 5000));
    kill(d.pid, SIGTERM);
    assert_true(wait_datagram(fd, "STOPPING=1", 5000, msg, sizeof(msg)));
    assert_int_equal(WEXITSTATUS(daemon_wait_exit(&d, 10000)), 0);
    close(d.out), close(d.err);
    close(fd);
}

/* A handed-over descriptor that is not a listening socket: exit 2 with a
 * message, as for a bad setting. */
static void
socket_activation_refuses_a_descriptor_not_a_tcp_listener(void **state)
{
    const char *argv[] = {binary(), NULL};
    struct daemon d;
    char err[512] = "";
    int pipefd[2];
    ssize_t n;

    (void)state;
    assert_int_equal(pipe(pipefd), 0);
    spawn_activated(&d, argv, pipefd[0], NULL);
    assert_int_equal(WEXITSTATUS(daemon_wait_exit(&d, 5000)), 2);
    n = read(d.err, err, sizeof(err) - 1);
    err[n > 0 ? n : 0] = '\0';
    assert_non_null(strstr(err, "not a listening TCP socket"));
    close(d.out), close(d.err), close(pipefd[0]), close(pipefd[1]);
}

/* Clients that each send requests, one per new connection, and count the
 * answers and the failures (no answer, or not 200). */
struct load {
    unsigned port;
    atomic_int stop;
    atomic_long ok, failed;
    atomic_long slowest_ms; /* the longest wait for an answer */
};

static void *load_client(void *arg)
{
    struct load *ld = arg;

    while (!atomic_load(&ld->stop)) {
        char resp[1024] = "";
        size_t n = 0;
        int fd = support_connect(ld->port), status = 0;
        static const char req[] =
            "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        struct timeval tv = {10, 0};
        long start = daemon_now_ms(), took;

        if (fd >= 0) {
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
            if (send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) ==
                (ssize_t)sizeof(req) - 1)
                n = daemon_read_response(fd, resp, sizeof(resp));
            close(fd);
        }
        took = daemon_now_ms() - start;
        for (long was = atomic_load(&ld->slowest_ms);
             took > was &&
             !atomic_compare_exchange_weak(&ld->slowest_ms, &was, took);)
            ;
        if (n > 0 && sscanf(resp, "HTTP/1.1 %d", &status) == 1 && status == 200)
            atomic_fetch_add(&ld->ok, 1);
        else
            atomic_fetch_add(&ld->failed, 1);
    }
    return NULL;
}

/* Waits (10 s at most) until the clients have had `n` answers. */
static int answers_reach(struct load *ld, long n)
{
    for (long end = daemon_now_ms() + 10000; daemon_now_ms() < end;) {
        struct pollfd none = {.fd = -1};
        if (atomic_load(&ld->ok) >= n)
            return 1;
        poll(&none, 0, 5); /* the clients' progress is the state */
    }
    return 0;
}

/* Connections waiting in a listening socket's backlog (for a listener,
 * Linux reports its accept queue as tcpi_unacked). */
static unsigned backlog_length(int fd)
{
    struct tcp_info ti;
    socklen_t len = sizeof(ti);

    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
        return 0;
    return ti.tcpi_unacked;
}

/* Waits (5 s at most) until n connections wait in fd's backlog. */
static int backlog_reaches(int fd, unsigned n)
{
    for (long end = daemon_now_ms() + 5000; daemon_now_ms() < end;) {
        struct pollfd none = {.fd = -1};
        if (backlog_length(fd) >= n)
            return 1;
        poll(&none, 0, 5);
    }
    return 0;
}

/* The restart of a socket-activated service: the socket (the test's,
 * as systemd's) stays open while sudokud A drains and exits and B
 * starts, so the connections that come meanwhile wait in its backlog and
 * B answers them. Four clients keep connecting all along; B starts only
 * once all four wait in the backlog: not one request fails. */
static void restart_through_the_socket_loses_no_connection(void **state)
{
    const char *argv[] = {binary(),       "--threads", "2",
                          "--access-log", "off",       NULL};
    enum { NCLIENTS = 4 };
    pthread_t clients[NCLIENTS];
    struct load ld = {0};
    char name[64], msg[1024];
    struct daemon a, b;
    int nfd, lfd;
    long before;

    (void)state;
    lfd = listening_socket(&ld.port);
    nfd = notify_socket(name, sizeof(name));
    spawn_activated(&a, argv, lfd, name);
    assert_true(wait_datagram(nfd, "READY=1", 5000, msg, sizeof(msg)));
    for (int i = 0; i < NCLIENTS; i++)
        assert_int_equal(pthread_create(&clients[i], NULL, load_client, &ld),
                         0);
    assert_true(answers_reach(&ld, 200));

    kill(a.pid, SIGTERM);
    assert_true(wait_datagram(nfd, "STOPPING=1", 5000, msg, sizeof(msg)));
    assert_true(WIFEXITED(daemon_wait_exit(&a, 10000)));
    before = atomic_load(&ld.ok);
    /* No sudokud runs now: every client's next connection queues in the
     * backlog (its request sent), and B, started only then, answers them. */
    assert_true(backlog_reaches(lfd, NCLIENTS));
    spawn_activated(&b, argv, lfd, name);
    assert_true(wait_datagram(nfd, "READY=1", 5000, msg, sizeof(msg)));
    assert_true(answers_reach(&ld, before + 200));

    atomic_store(&ld.stop, 1);
    for (int i = 0; i < NCLIENTS; i++)
        pthread_join(clients[i], NULL);
    print_message("restart under load: %ld answered, %ld failed, the "
                  "longest in %ld ms (waiting in the backlog)\n",
                  atomic_load(&ld.ok), atomic_load(&ld.failed),
                  atomic_load(&ld.slowest_ms));
    assert_int_equal(atomic_load(&ld.failed), 0);
    stop_daemon(&b);
    close(a.out), close(a.err);
    close(lfd), close(nfd);
}

/* A valid traceparent: its trace id and parent id in the access line, the
 * trace id in a problem body beside request_id. Invalid ones (all-zero
 * ids, upper case, version ff, 00 with a tail, a short one): ignored. */
static void
valid_traceparent_reaches_the_access_log_and_invalid_is_ignored(void **state)
{
    static const char *const bad[] = {
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
        "00-4bf92f3577b34da6a3ce929d0e0e4736x00f067aa0ba902b7-01",
    };
    struct daemon d;
    char req[512], resp[4096];

    (void)state;
    daemon_spawn_listening(&d);
    snprintf(req, sizeof(req),
             "GET /livez HTTP/1.1\r\nHost: x\r\nX-Request-Id: tp-1\r\n"
             "traceparent: %s\r\nConnection: close\r\n\r\n",
             TRACEPARENT);
    daemon_exchange(d.port, req, resp, sizeof(resp));
    assert_non_null(strstr(resp, "200 OK"));
    assert_true(
        daemon_wait_log(&d,
                        "\"request_id\":\"tp-1\",\"trace_id\":\"" TRACE_ID
                        "\",\"parent_id\":\"00f067aa0ba902b7\"",
                        5000));

    /* A later version may carry more after a '-'; its ids are kept. */
    snprintf(req, sizeof(req),
             "GET /nope HTTP/1.1\r\nHost: x\r\nX-Request-Id: tp-2\r\n"
             "traceparent: %s\r\nConnection: close\r\n\r\n",
             "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later");
    daemon_exchange(d.port, req, resp, sizeof(resp));
    assert_non_null(strstr(resp, "404 Not Found"));
    assert_non_null(
        strstr(resp, "\"request_id\":\"tp-2\",\"trace_id\":\"" TRACE_ID "\""));

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char want[64];
        snprintf(req, sizeof(req),
                 "GET /nope HTTP/1.1\r\nHost: x\r\nX-Request-Id: bad-%zu\r\n"
                 "traceparent: %s\r\nConnection: close\r\n\r\n",
                 i, bad[i]);
        daemon_exchange(d.port, req, resp, sizeof(resp));
        assert_non_null(strstr(resp, "404 Not Found"));
        assert_null(strstr(resp, "trace_id"));
        snprintf(want, sizeof(want), "\"request_id\":\"bad-%zu\",\"method\"",
                 i);
        assert_true(daemon_wait_log(&d, want, 5000));
    }
    stop_daemon(&d);
}

int test_main_systemd(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            notify_says_ready_once_listening_and_stopping_on_sigterm),
        cmocka_unit_test(notify_pings_the_watchdog_within_its_interval),
        cmocka_unit_test(
            socket_activated_daemon_serves_livez_on_the_handed_socket),
        cmocka_unit_test(
            socket_activation_refuses_a_descriptor_not_a_tcp_listener),
        cmocka_unit_test(restart_through_the_socket_loses_no_connection),
        cmocka_unit_test(
            valid_traceparent_reaches_the_access_log_and_invalid_is_ignored),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("main_systemd", tests, NULL, NULL);
}
