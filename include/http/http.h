/* http.h - the HTTP server: event loops of ours, each running a
 * libmicrohttpd daemon in epoll mode on a listening socket of its own (the
 * loops share the address, SO_REUSEPORT), feeding requests to the api
 * module. The only module that knows libmicrohttpd; no
 * libmicrohttpd type appears here. */
#ifndef HTTP_H
#define HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

struct http_server;

enum http_status {
    HTTP_OK = 0,
    HTTP_BAD_ADDRESS,  /* cfg->bind is not an IPv4 or IPv6 address */
    HTTP_START_FAILED, /* the daemon did not start (port in use, ...) */
    HTTP_NO_MEMORY,
};

/* Starts serving on cfg->bind:cfg->port with cfg->threads event loops (a
 * thread each; requests are parsed and solved on them).
 * On HTTP_OK *out owns the running server (stop it with http_server_stop);
 * otherwise a message is written to err and nothing is left running. */
enum http_status http_server_start(const struct config *cfg,
                                   struct http_server **out, char *err,
                                   size_t errlen);

/* The port actually bound (useful with port 0). */
uint16_t http_server_port(const struct http_server *srv);

/* Requests that have started and not yet been answered in full. */
long http_server_in_flight(const struct http_server *srv);

/* The watchdog's question: wakes every event loop and waits up to
 * timeout_ms for each to come round. Returns how many did not (0: all are
 * alive). Checks the first 64 loops. */
long http_server_alive(struct http_server *srv, unsigned timeout_ms);

/* Connections open now, busy or idle. */
long http_server_connections(const struct http_server *srv);

/* Begins a graceful shutdown: /readyz answers 503 from now on, the
 * listening sockets refuse new connections (those already waiting in their
 * backlogs are taken in first), idle connections are closed, and every
 * later response closes its connection. Then waits up to timeout_ms for
 * every connection to close; at that deadline running batches are told
 * to stop. Returns the number of requests still in flight when it stopped
 * waiting. */
long http_server_drain(struct http_server *srv, unsigned timeout_ms);

/* Stops and frees srv: long jobs not started yet are answered 503, running
 * ones finish, answers still going out get up to a second more, then every
 * connection is closed. Returns the number of requests cut short (0 when
 * every request got its whole answer). */
long http_server_stop(struct http_server *srv);

#endif
