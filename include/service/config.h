/* config.h - the daemon's settings as one value, filled once in main from
 * defaults, then the environment, then the command line (flags win). */
#ifndef CONFIG_H
#define CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"
#include "version.h"

#define CONFIG_BIND_MAX 64
#define CONFIG_CORS_MAX 1024
#define CONFIG_LISTEN_MAX 16 /* sockets handed over by socket activation */

struct config {
    uint16_t port;              /* 0 picks a free port */
    char bind[CONFIG_BIND_MAX]; /* IPv4 or IPv6 address to listen on */
    unsigned threads;           /* worker threads of the HTTP pool */
    size_t max_body;            /* request-body limit in bytes */
    uint64_t max_nodes;         /* node budget of one search */
    uint64_t max_killer_nodes;  /* node budget of one killer search */
    unsigned max_search_ms;     /* CPU ms of one search, any engine */
    unsigned max_logic_ms;      /* time budget of one logic request, ms */
    unsigned timeout;           /* idle connection timeout, seconds */
    unsigned header_timeout;    /* headers complete within, seconds */
    size_t body_min_rate;       /* body bytes per second after that, 0: off */
    size_t max_buffered;        /* body bytes held across connections */
    unsigned drain_timeout;     /* longest wait for requests on SIGTERM, s */
    unsigned max_connections;   /* connections served at once */
    unsigned max_per_ip;        /* connections per client address, 0: off */
    enum log_level log_level;   /* lines below it are not logged */
    unsigned access_log;        /* 1: one line per request */
    char cors_origins[CONFIG_CORS_MAX]; /* "*" or "https://a,https://b" */
    unsigned max_batch;                 /* puzzles in one POST /solve/batch */
    size_t max_batch_body;    /* bytes of one POST /solve/batch body */
    uint64_t max_batch_nodes; /* search nodes of one batch, all puzzles */
    unsigned max_batch_ms;    /* CPU ms of one batch: parse, searches,
                                 answer */
    unsigned batch_workers;   /* threads that solve batches */
    unsigned batch_queue;     /* batches waiting for a worker, at most */
    unsigned workers;         /* threads for requests past a loop's slice */
    unsigned worker_queue;    /* such requests waiting, at most */
    const char *version;      /* of the program, for logs and metrics */
    char probe_url[256];      /* --probe [URL]: check a server, exit;
                               * "" when no URL was given */
    /* Not a setting: the listening sockets systemd handed over (socket
     * activation, filled by main from LISTEN_FDS). When there are any,
     * they are served instead of bind:port. */
    int listen_fds[CONFIG_LISTEN_MAX];
    unsigned nlisten_fds;
};

enum config_status {
    CONFIG_OK = 0,
    CONFIG_HELP,    /* --help was given: print config_usage, exit 0 */
    CONFIG_VERSION, /* --version was given */
    CONFIG_PROBE,   /* --probe [URL] was given: cfg->probe_url holds it */
    CONFIG_ERROR,   /* a bad flag or value: the message is in err */
};

/* Fills *cfg with the defaults (threads = online CPUs). */
void config_init(struct config *cfg);

/* Applies the environment (each setting's variable, listed by
 * config_usage: PORT, BIND, THREADS, MAX_BODY, MAX_NODES, MAX_KILLER_NODES,
 * MAX_SEARCH_MS, TIMEOUT, HEADER_TIMEOUT, BODY_MIN_RATE, MAX_BUFFERED,
 * DRAIN_TIMEOUT, MAX_CONNECTIONS, MAX_PER_IP, MAX_BATCH, MAX_BATCH_BODY,
 * MAX_BATCH_MS, MAX_BATCH_NODES, BATCH_WORKERS, BATCH_QUEUE, WORKERS,
 * WORKER_QUEUE, LOG_LEVEL, ACCESS_LOG, CORS_ORIGINS), then the flags of argv,
 * to *cfg. On CONFIG_ERROR a one-line message naming the setting and the bad
 * value is written to err (errlen bytes) and *cfg may be partly changed. */
enum config_status config_parse(struct config *cfg, int argc, char **argv,
                                char *err, size_t errlen);

/* One setting as --help shows it: its flag (without "--"), its variable,
 * its argument's name, its help line and its default as written (NULL
 * when it is not a constant: --threads, the online CPUs). */
struct config_option {
    const char *flag, *env, *arg, *help, *def;
};

/* Fills *out with setting i: 0, or -1 past the last. */
int config_option_info(size_t i, struct config_option *out);

/* Prints the usage text, with every flag, variable and default. */
void config_usage(FILE *out, const char *prog);

#endif
