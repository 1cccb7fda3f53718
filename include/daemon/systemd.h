/* systemd.h - the two systemd protocols sudokud speaks, without libsystemd:
 * readiness and status (sd_notify: datagrams to $NOTIFY_SOCKET) and socket
 * activation (sd_listen_fds: sockets handed over from descriptor 3 on). Both
 * are no-ops when the variables are absent, so the daemon runs the same
 * outside systemd. */
#ifndef SYSTEMD_H
#define SYSTEMD_H

#include <stddef.h>
#include <stdint.h>

/* Sends `state` ("READY=1\nSTATUS=...") to $NOTIFY_SOCKET: an AF_UNIX
 * datagram socket, a path or, with a leading '@', an abstract name. Returns
 * 1 when sent, 0 when NOTIFY_SOCKET is unset, -1 (errno set) on failure.
 * Safe from any thread. */
int systemd_notify(const char *state);

/* printf-style systemd_notify; the message is cut at 1 KiB. */
int systemd_notifyf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The watchdog interval systemd asked for ($WATCHDOG_USEC, for this process
 * when $WATCHDOG_PID is set), in microseconds; 0 when none. */
uint64_t systemd_watchdog_usec(void);

/* The sockets handed over by socket activation: when $LISTEN_PID is this
 * process and $LISTEN_FDS is N > 0, descriptors 3 .. 3+N-1 are written to
 * fds (at most cap) and N returned; each must be a listening stream socket
 * (it is made close-on-exec). 0 when nothing was handed over; -1 with a
 * message in err when the variables are malformed, N is over cap, or a
 * descriptor is not a listening TCP socket. The variables are removed from
 * the environment either way. */
int systemd_listen_fds(int *fds, size_t cap, char *err, size_t errlen);

#endif
