/* daemon_support.h - what the parts of the daemon suite (test_main*.c)
 * share: the built daemon ($SUDOKUD_BIN, default build/sudokud) started as
 * a child process with its stdout and stderr on pipes, and raw HTTP/1.1 to
 * it. Every helper fails the running test on error. */
#ifndef DAEMON_SUPPORT_H
#define DAEMON_SUPPORT_H

#include <stddef.h>
#include <sys/types.h>

/* A running daemon: its pid, the read ends of its stdout and stderr (the
 * test closes them), its port, and its stdout as read so far. */
struct daemon {
    pid_t pid;
    int out; /* read end of its stdout */
    int err; /* read end of its stderr */
    unsigned port;
    char log[8192]; /* stdout read so far */
    size_t loglen;
};

/* Called first in a child the runner (pid `runner`) forked: the child
 * gets SIGKILL when the runner ends, so a failed test leaves no daemon. */
void daemon_child_dies_with_runner(pid_t runner);

/* Starts the daemon with extra arguments (NULL-terminated, 14 at most). */
void daemon_spawn(struct daemon *d, const char *const *args);

/* Reads the daemon's stdout into d->log until `word` shows up (1) or
 * timeout_ms passes with nothing to read, or it ends (0). */
int daemon_wait_log(struct daemon *d, const char *word, int timeout_ms);

/* Starts the daemon with args that include "--port 0" and reads the port
 * it picked from its "listening" line into d->port. */
void daemon_spawn_on_free_port(struct daemon *d, const char *const *args);

/* Starts the daemon on a free port of 127.0.0.1 with 2 threads, its access
 * log on or off. With it on, a test that sends many requests without
 * reading d->log fills the pipe, and the daemon then drops access lines.
 * daemon_spawn_listening: with the access log on. */
void daemon_spawn_listening_with(struct daemon *d, int access_log);
void daemon_spawn_listening(struct daemon *d);

/* Waits up to timeout_ms for the daemon to exit; returns its wait status
 * or -1 if it is still running. */
int daemon_wait_exit(struct daemon *d, int timeout_ms);

/* Sends all n bytes of s on fd. */
void daemon_send_all(int fd, const char *s, size_t n);

/* Reads until the peer closes, 5 s pass with nothing, or a full response
 * (by Content-Length) is in; NUL-terminates buf and returns its length. */
size_t daemon_read_response(int fd, char *buf, size_t cap);

/* CLOCK_MONOTONIC in milliseconds. */
long daemon_now_ms(void);

/* Sends the request req on a new connection and reads the answer into
 * resp (NUL-terminated), as daemon_read_response does. */
void daemon_exchange(unsigned port, const char *req, char *resp, size_t cap);

/* GET path on a new connection; the answer in resp (NUL-terminated), and
 * how long it took in *took_ms. */
void daemon_get_on_new_connection(unsigned port, const char *path, char *resp,
                                  size_t cap, long *took_ms);

/* The value of a series of the daemon's GET /metrics, scraped on a new
 * connection (which http_connections_open counts); -1 when absent. */
double daemon_metric(unsigned port, const char *series);

/* Waits (5 s at most) until the daemon's `series` reaches at least min;
 * 1 when it did. */
int daemon_metric_reaches(unsigned port, const char *series, double min);

#endif
