/* http_internal.h - what the files of the http module share (they alone may
 * include libmicrohttpd): the server, a request's state, and the job pool
 * that runs batches off the event loops (http_jobs.c). */
#ifndef HTTP_INTERNAL_H
#define HTTP_INTERNAL_H

#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "config.h"
#include "log.h"

#define HTTP_REQUEST_ID_MAX 128
#define HTTP_DRAIN_MAX                                                         \
    (1u << 20) /* bytes of an oversized body read and dropped */
/* Bodies up to this size (a usual /solve body has 100-200 bytes) stay in
 * the request itself; a larger one moves to the heap. */
#define HTTP_BODY_INLINE 224

struct http_request;

/* What a connection is waiting for, for the slow-client deadlines. */
enum http_conn_phase {
    HTTP_CONN_WAITING =
        0,             /* for a request: since it opened or its last answer */
    HTTP_CONN_HEADERS, /* a request's line is in, not all its headers yet
                     (the deadline still counts from the wait's start) */
    HTTP_CONN_BODY,    /* the rest of a request's body */
    HTTP_CONN_BUSY,    /* its request is being judged: no deadline */
    HTTP_CONN_SENDING, /* a small answer is queued: all of it must be gone
                          within --timeout (a larger one is the library's
                          timer's, see respond in http_request.c) */
};

/* One open connection of a loop (libmicrohttpd's socket context). Only the
 * loop's thread reads or writes it. It fills one cache line (the sweep
 * walks them all four times a second, and each request touches its own
 * three times), and the loop's list is in no order: a phase change then
 * writes this line only, not its neighbours'; the rare search for the
 * oldest (an eviction) walks the list. */
struct http_conn {
    struct http_conn *prev, *next;
    uint64_t since_us;  /* when the phase began (CLOCK_MONOTONIC) */
    uint64_t active_us; /* when its last bytes came (HTTP_CONN_BODY) */
    size_t body_bytes;  /* HTTP_CONN_BODY: bytes of the body so far */
    /* the client's address as text, made once the access log needs it
     * (heap, freed with the connection) */
    char *remote;
    int fd;
    unsigned char phase;         /* an enum http_conn_phase */
    unsigned char over_capacity; /* opened with max_connections open, none
                                    evictable */
    unsigned char closing;       /* shut down by us, libmicrohttpd not told */
    unsigned char timed;         /* libmicrohttpd's timer is on for it */
} __attribute__((aligned(64)));

/* The two pools of workers: one for requests that need more than an event
 * loop should give (up to about a second: /hint, /grade, /explain, and
 * what a loop's slice deferred), one for long jobs (batches and
 * generation, seconds), so that a long job never makes a short one wait. */
enum http_pool_kind { HTTP_POOL_REQUESTS = 0, HTTP_POOL_LONG, HTTP_NPOOLS };

/* A pool: its requests wait here for a worker; `reserved` counts queued
 * and promised slots, so a full queue is known before a connection is
 * suspended. */
struct http_jobs {
    struct http_server *srv;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct http_request *head, *tail;
    unsigned reserved, cap;
    unsigned running; /* jobs a worker has taken and not finished */
    int stop;
    int initialised; /* lock and ready exist */
    pthread_t *threads;
    unsigned nthreads;
};

/* A connection accepted by another thread (the drain), for a loop to take
 * in: libmicrohttpd without a thread of its own is not thread-safe. */
struct http_handoff {
    int fd;
    socklen_t len;
    struct sockaddr_storage addr;
    struct http_handoff *next;
};

/* One event loop: a libmicrohttpd daemon of its own (epoll, no thread of
 * the library's) and the thread that runs it. Other threads never call
 * into its daemon except MHD_resume_connection; what they need done
 * (stop accepting, take a connection in) they leave here and wake it. */
struct http_loop {
    struct http_server *srv;
    struct MHD_Daemon *daemon;
    int listen_fd; /* its own listening socket (SO_REUSEPORT) */
    int epfd;      /* the daemon's epoll descriptor and wake_fd */
    int wake_fd;   /* eventfd: something for the loop to look at */
    pthread_t thread;
    int running;          /* the thread was started */
    unsigned long closed; /* connections closed so far (the loop's thread) */
    unsigned
        busy_rounds; /* rounds in a row with more work waiting (its thread) */
    atomic_ulong rounds;     /* its rounds so far: the watchdog's heartbeat */
    atomic_long open;        /* its connections */
    atomic_long pending;     /* handed to it, not taken in yet */
    struct http_conn *conns; /* its connections, in no order */
    struct http_request *spare; /* finished requests, for reuse */
    unsigned nspare;
    uint32_t next_seq;      /* its requests without an id of their own */
    uint64_t next_sweep_us; /* when to look for slow clients next */
    /* When its round began (CLOCK_MONOTONIC): the time of the deadlines'
     * bookkeeping in the callbacks of that round, which need no more
     * precision than a round and so read no clock of their own. */
    uint64_t round_us;
    pthread_mutex_t lock; /* guards the three below */
    pthread_cond_t changed;
    int quiesce;                  /* asked to stop accepting */
    int quiesced;                 /* it has */
    struct http_handoff *handoff; /* connections to take in */
};

/* Open connections per client address, for --max-per-ip across the loops
 * (libmicrohttpd's own cap counts per daemon). Open addressing; a slot
 * with count 0 is free. */
struct http_ip_slot {
    unsigned char addr[16]; /* IPv6, or IPv4-mapped */
    unsigned count;
};

struct http_ip_table {
    pthread_mutex_t lock;
    struct http_ip_slot *slots;
    size_t size;  /* a power of two, over twice the connection cap */
    unsigned cap; /* 0: no cap, no table */
};

struct http_server {
    struct http_loop *loops;
    unsigned nloops;
    uint16_t port;
    atomic_int stopping; /* the loops must end */
    struct http_ip_table per_ip;
    struct api_context api;
    struct metrics *metrics;
    struct log_sink log;
    int access_log;
    char cors_origins[CONFIG_CORS_MAX]; /* the api context points here */
    unsigned max_connections;
    unsigned conn_limit; /* accepted at most, all loops together */
    uint64_t header_timeout_us;
    uint64_t idle_timeout_us; /* --timeout */
    unsigned timeout_s;       /* --timeout, for libmicrohttpd's send timer */
    size_t body_min_rate;     /* bytes per second, 0: no floor */
    size_t max_buffered;      /* body bytes held across connections */
    atomic_size_t buffered;   /* body bytes held now (heap buffers) */
    atomic_int draining;
    atomic_long connections; /* open connections */
    uint32_t boot_id;        /* random, so ids differ between runs */
    int draining_started;    /* the loops no longer accept */
    int activated; /* the sockets are systemd's (socket activation): the
                      drain leaves them and their backlog alone */
    struct http_jobs pools[HTTP_NPOOLS];
    atomic_int halt; /* running jobs must stop: srv->api.stop points here */
    /* The context of the event loops' calls: srv->api with its slice set
     * (see api_context.slice). */
    struct api_context api_loop;
};

/* Where a request is. A batch goes READING -> QUEUED (connection suspended,
 * owned by the job pool) -> DONE (resumed, job.resp holds the answer). */
enum http_request_state {
    HTTP_REQUEST_READING = 0,
    HTTP_REQUEST_QUEUED,
    HTTP_REQUEST_DONE
};

/* A batch's answer on its way from the worker to the connection: the
 * worker appends pieces, libmicrohttpd's content reader sends them, and
 * whichever of the two waits for the other is woken through suspend and
 * resume. Shared by both, so freed by whichever lets go last. */
struct http_stream {
    pthread_mutex_t lock;
    pthread_cond_t drained; /* the reader took some: the worker may go on */
    char *data;
    size_t pos, len, cap; /* data[pos..len) is not sent yet */
    int done;             /* the worker has appended everything */
    int failed;           /* ...but memory ran out: the answer is cut */
    int waiting;          /* the reader suspended the connection for more */
    int gone;             /* libmicrohttpd let go of the response */
    int refs;
    struct MHD_Connection *conn;
    int fd;                 /* its socket, to see a hang-up */
    struct http_loop *loop; /* the connection's */
    size_t *sent;           /* the request's byte count, for the log */
};

/* What a batch needs on the worker: copies of everything it reads. */
struct http_request_job {
    struct api_request api;
    struct api_response resp;
    struct MHD_Connection *conn;
    int fd;                     /* the connection's socket */
    struct http_stream *stream; /* set when the answer is streamed */
    char *content_type;         /* copies of the headers, or NULL */
    char *origin;
    struct http_request *next;
};

/* The request headers the server reads, found in one pass over them on
 * the first call (NULL when absent; the first of repeated ones). They point
 * into libmicrohttpd's memory for the connection, which holds them until
 * the request is completed. The same pass checks the framing (see
 * read_headers in http.c): the counts and `bad` are what it found. */
struct http_request_headers {
    const char *id; /* X-Request-Id */
    const char *content_length;
    const char *content_type;
    const char *origin;
    const char *cors_method; /* Access-Control-Request-Method */
    const char *transfer_encoding;
    const char *host;
    const char *traceparent; /* W3C trace context */
    unsigned n_content_length, n_transfer_encoding, n_host;
    int lengths_differ; /* two Content-Length values are not equal */
    int bad;            /* a line is not NAME ":" OWS VALUE CRLF */
    const char *next;   /* where the next header line must start */
};

/* Why a request is refused before routing (http.c's refusals[] holds the
 * problem of each); HTTP_REFUSE_NONE is 0. */
enum http_refusal {
    HTTP_REFUSE_NONE = 0,
    HTTP_REFUSE_URI_TOO_LONG,       /* 414 uri_too_long */
    HTTP_REFUSE_BAD_TARGET,         /* 400 bad_request_line */
    HTTP_REFUSE_BAD_HEADER,         /* 400 bad_header */
    HTTP_REFUSE_MISSING_HOST,       /* 400 missing_host */
    HTTP_REFUSE_BAD_FRAMING,        /* 400 bad_framing */
    HTTP_REFUSE_UNSUPPORTED_CODING, /* 501 unsupported_transfer_coding */
    HTTP_REFUSE_N
};

/* One request between its request line (the URI log callback takes it)
 * and its completed callback (which gives it back). Its loop keeps a few
 * finished ones for the next requests (http_request_take): no allocation
 * per request, and only the members before the buffers at its end are
 * cleared. */
struct http_request {
    char *body; /* NULL, inline_body, or a heap buffer */
    size_t len, cap;
    size_t limit; /* body limit of its route */
    int too_large;
    size_t dropped;       /* bytes past the limit, read and thrown away */
    int no_room;          /* --max-buffered was reached: answer 503 busy */
    size_t held;          /* bytes of srv->buffered it holds: its heap body's */
    size_t expect;        /* declared Content-Length, 0 when unknown */
    struct http_conn *cs; /* the connection's, NULL if it could not be made */
    int status;           /* 0 until answered */
    size_t bytes;         /* body bytes of the answer */
    size_t route;
    uint64_t start_us;
    enum http_request_state state;
    int begun; /* the access handler has seen it (first call) */
    int close; /* close the connection after the answer */
    enum http_refusal refused;
    const char *raw_uri; /* the target as received (libmicrohttpd's buffer) */
    size_t raw_uri_len;  /* ...and its length up to its first NUL */
    char method[16];
    char path[256]; /* for the log; longer paths are cut */
    char id[HTTP_REQUEST_ID_MAX + 1];
    /* From a valid traceparent header (W3C trace context), else "". */
    char trace_id[33];
    char parent_id[17];
    struct http_request_headers hdr;
    struct http_request_job *job; /* batches only (most requests need none) */
    struct http_loop *loop;       /* the connection's */
    struct http_request *spare;   /* next in the loop's spares */
    char inline_body[HTTP_BODY_INLINE]; /* the buffers: not cleared */
    /* A solution answer is written here and sent from here: the request
     * outlives the response (the completed callback, which frees it,
     * comes after the last byte was sent, or the connection dropped). */
    char answer[API_ANSWER_MAX];
};

/* Starts n workers of pool `kind` for a queue of `cap` jobs, their
 * priority below the loops' (nice +HTTP_WORKER_NICE) so that the loops'
 * short requests keep their latency while the workers' wait. 0 or -1. */
int http_jobs_start(struct http_server *srv, enum http_pool_kind kind,
                    unsigned n, unsigned cap);

/* How much lower the workers' priority is than the event loops'. */
#define HTTP_WORKER_NICE 10

/* Takes a queue slot of pool `kind`; -1 when its queue is full. */
int http_jobs_reserve(struct http_server *srv, enum http_pool_kind kind);

/* Queues rq on pool `kind` (its slot reserved, its connection suspended).
 * A worker runs api_handle on rq->job->api, stores rq->job->resp, sets
 * HTTP_REQUEST_DONE and resumes the connection; after that it never
 * touches rq again. A job whose client has hung up while it waited is not
 * run: it gets an empty answer nobody will read. */
void http_jobs_push(struct http_server *srv, enum http_pool_kind kind,
                    struct http_request *rq);

/* Stops taking jobs (reserve fails from now on), answers the queued ones
 * that have not started 503 busy, lets the running ones finish (each
 * connection is resumed) and joins the workers, of every pool. Call before
 * MHD_stop_daemon: libmicrohttpd aborts on a suspended connection there. */
void http_jobs_stop(struct http_server *srv);

/* Tells the running jobs to stop (the drain deadline has passed): a batch
 * judges no more puzzles, answers the rest shutting_down and ends its
 * answer, so that http_jobs_stop does not wait for it. Any thread. */
void http_jobs_halt(struct http_server *srv);

/* Frees the pools' locks and conditions; after MHD_stop_daemon, when no
 * event loop can call http_jobs_reserve any more. */
void http_jobs_free(struct http_server *srv);

/* Has the peer of socket fd hung up (the end of its stream, or an error,
 * and no byte waiting)? Never blocks; a byte of a next request waiting
 * means it is still there. */
int http_peer_gone(int fd);

/* Lets go of a stream on the response's side (libmicrohttpd's free
 * callback, or a request that ended before its answer started). */
void http_stream_drop(void *stream);

/* The response that sends rq->job->stream; NULL when out of memory. */
struct MHD_Response *http_stream_response(struct http_request *rq);

/* Slow clients and the body budget (http_conn.c). All but the buffer
 * functions run on the loop's thread. */

/* A request line has come in on cs (NULL is fine): from waiting to
 * reading headers, the deadline unchanged. */
void http_conn_request_line(struct http_conn *cs);

/* n more bytes of cs's body came at `now` (NULL is fine). */
void http_conn_body(struct http_conn *cs, size_t n, uint64_t now);

/* cs enters `phase` now (NULL is fine). */
void http_conn_enter(struct http_loop *lp, struct http_conn *cs,
                     enum http_conn_phase phase, uint64_t now);

/* Closes the connections past their deadline (at most every quarter of a
 * second; at once after http_conn_sweep_soon), and while the server
 * drains, the idle ones (waiting for a request, 0.1 s or more, nothing
 * unread). Returns how many milliseconds the loop may wait before the
 * next look, or -1 when it has no connections to watch. */
int http_conn_sweep(struct http_loop *lp, uint64_t now);

/* Makes the next http_conn_sweep of lp look at once. */
void http_conn_sweep_soon(struct http_loop *lp);

/* Takes n bytes of --max-buffered: 0, or -1 (nothing taken) when that
 * would pass it. Any thread. */
int http_buffer_take(struct http_server *srv, size_t n);
void http_buffer_give(struct http_server *srv, size_t n);

/* Bytes of --max-buffered not taken now. */
size_t http_buffer_room(const struct http_server *srv);

/* ------------------------------------------------------------------------
 * What the files of the module call of each other. The libmicrohttpd
 * callbacks are named for the file that holds them; each is given to the
 * daemons in http_make_loop.
 * ------------------------------------------------------------------------ */

/* http.c: a request's life. The access handler and the completed
 * callback (cls: the loop; the server). */
enum MHD_Result http_on_request(void *cls, struct MHD_Connection *conn,
                                const char *url, const char *method,
                                const char *version, const char *upload_data,
                                size_t *upload_data_size, void **con_cls);
void http_on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                       enum MHD_RequestTerminationCode toe);
/* http_request.c: a request's state for loop lp, members up to its
 * buffers cleared (NULL when out of memory); gives a finished one back to
 * its loop (kept for reuse, or freed); frees the loop's spares (after
 * its daemon stopped). The loop's thread only. */
struct http_request *http_request_take(struct http_loop *lp);
void http_request_give(struct http_loop *lp, struct http_request *rq);
void http_request_spares_free(struct http_loop *lp);

/* http_framing.c: copies src into dst (cap bytes), cutting it if needed. */
void http_copy_cut(char *dst, const char *src, size_t cap);

/* http_framing.c: the URI log callback, which makes a request's state
 * (its return value is the handler's first *con_cls; NULL when out of
 * memory) and refuses a URL too long; the headers read in one pass; the
 * first call's verdict on the framing; the refusal's problem (NULL for
 * HTTP_REFUSE_NONE); the unescape callback (%00 left as is). */
void *http_on_uri(void *cls, const char *uri, struct MHD_Connection *conn);
void http_read_headers(struct MHD_Connection *conn, const char *method,
                       const char *version, struct http_request_headers *h);
enum http_refusal http_judge(const struct http_request *rq, const char *url,
                             const char *method, const char *version);
const struct api_refusal *http_refusal(enum http_refusal r);
size_t http_unescape(void *cls, struct MHD_Connection *conn, char *s);

/* http_conn.c: the accept policy and the connection notification (cls:
 * the loop), counting connections in all and per address; whether a
 * request gets 503 overloaded (a waiting connection makes room if it
 * can); the per-address table. */
enum MHD_Result http_on_accept(void *cls, const struct sockaddr *addr,
                               socklen_t addrlen);
void http_on_connection(void *cls, struct MHD_Connection *conn,
                        void **socket_context,
                        enum MHD_ConnectionNotificationCode code);
int http_over_capacity(struct http_server *srv, struct http_request *rq);
int http_ip_table_init(struct http_ip_table *t, unsigned cap, size_t max_open);
void http_ip_table_free(struct http_ip_table *t);

/* http_loop.c: wakes a loop (its errands: quiesce, take connections in);
 * opens a listening socket per loop on addr (a port in use is an error,
 * port 0 picks one for all), 0 or -1 with errno; the port a socket is
 * bound to; makes loop i's daemon (limit: connections at most), 0 or -1;
 * starts its thread, 0 or -1. */
void http_loop_wake(struct http_loop *lp);
int http_open_listeners(struct http_server *srv, const struct sockaddr *addr,
                        socklen_t len);
uint16_t http_bound_port(int fd);
int http_make_loop(struct http_server *srv, unsigned i, unsigned limit);
int http_run_loop(struct http_loop *lp);

/* Resumes a suspended connection from any thread and wakes its loop. */
void http_resume(struct http_loop *lp, struct MHD_Connection *conn);

#endif
