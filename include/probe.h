/* probe.h - a minimal HTTP/1.1 GET over a plain socket, so that a container
 * health check can run `sudokud --probe URL` without curl in the image. */
#ifndef PROBE_H
#define PROBE_H

#include <stddef.h>

/* GETs `url` (http://HOST[:PORT]/PATH, HOST an IPv4 or IPv6 literal in
 * brackets, or "localhost") within timeout_ms. Returns the HTTP status code,
 * or -1 with a message in err when the URL is bad or no answer came. */
int probe_get(const char *url, unsigned timeout_ms, char *err, size_t errlen);

#endif
