/* probe.h - a minimal HTTP/1.1 GET over a plain socket, so that a container
 * health check can run `sudokud --probe URL` without curl in the image. */
#ifndef PROBE_H
#define PROBE_H

#include <stddef.h>

/* GETs `url` (http://HOST[:PORT]/PATH, HOST an IPv4 or IPv6 literal in
 * brackets, or "localhost") within timeout_ms. Returns the HTTP status code,
 * or -1 with a message in err when the URL is bad or no answer came. */
int probe_get(const char *url, unsigned timeout_ms, char *err, size_t errlen);

/* Writes to url (cap bytes) http://ADDRESS:PORT/livez of the daemon that a
 * bare `sudokud --probe` checks: the sudokud process of PROC (normally
 * "/proc") with the lowest pid other than this one's, PID 1 in a container,
 * which is why a health check without arguments follows `docker run sudokud
 * --port 9000`. Its command line is parsed as the daemon parses it, over
 * this process's environment (a container's health check runs with the
 * container's). A wildcard bind is probed on loopback. Returns 0, or -1
 * with a message in err when there is no such process, its flags do not
 * parse, or its port is 0 (chosen at start, unknown here). */
int probe_daemon_url(const char *proc, char *url, size_t cap, char *err,
                     size_t errlen);

#endif
