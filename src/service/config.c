/* config.c - defaults, environment and flags into a struct config.
 * One table lists every setting once: its flag, its variable, its bounds,
 * its default and its help line; config_init, the parser and --help read
 * it, and a test holds the README's configuration table to it. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum opt_kind {
    OPT_UINT,
    OPT_SIZE,    /* a number with an optional K or M suffix */
    OPT_ADDRESS, /* an IPv4 or IPv6 address */
    OPT_ORIGINS, /* "*" or a comma-separated list of http(s) origins */
    OPT_WORD,    /* one of the words in `words`, stored as its index */
    OPT_LEVEL,   /* a log level, by log_level_parse (log.h's names) */
};

struct opt {
    const char *flag; /* without the leading "--" */
    const char *env;
    enum opt_kind kind;
    size_t offset;     /* into struct config */
    size_t width;      /* sizeof the field */
    uint64_t min, max; /* bounds for numbers; max length for strings */
    const char *arg, *help;
    const char *const *words; /* OPT_WORD only, NULL-terminated */
    const char *def;          /* the default, as it would be written; NULL: see
                                 config_init */
};

static const char *const on_off[] = {"off", "on", NULL};

#define FIELD(f) offsetof(struct config, f), sizeof(((struct config *)0)->f)

static const struct opt opts[] = {
    {"port", "PORT", OPT_UINT, FIELD(port), 0, 65535, "N",
     "TCP port to listen on; 0 picks a free one", NULL, "8080"},
    {"bind", "BIND", OPT_ADDRESS, FIELD(bind), 1, CONFIG_BIND_MAX - 1, "ADDR",
     "IPv4 or IPv6 address to listen on", NULL, "0.0.0.0"},
    {"threads", "THREADS", OPT_UINT, FIELD(threads), 1, 256, "N",
     "worker threads that parse and solve (default: online CPUs)", NULL, NULL},
    {"max-body", "MAX_BODY", OPT_SIZE, FIELD(max_body), 64, 64u << 20, "BYTES",
     "largest request body accepted, K/M suffix allowed", NULL, "16K"},
    {"max-nodes", "MAX_NODES", OPT_UINT, FIELD(max_nodes), 1000, UINT32_MAX,
     "N",
     "search nodes of one puzzle, a bound that gives the same answer on "
     "every run (--max-search-ms bounds the time)",
     NULL, "100000"},
    {"max-killer-nodes", "MAX_KILLER_NODES", OPT_UINT, FIELD(max_killer_nodes),
     1000, UINT32_MAX, "N", "search nodes of one killer puzzle", NULL, "25000"},
    /* With the parse of the costliest body, one request stays under about
     * 0.5 s of CPU (docs/operations.md). */
    {"max-search-ms", "MAX_SEARCH_MS", OPT_UINT, FIELD(max_search_ms), 1,
     600000, "MS", "CPU time of one puzzle's search, any engine or size", NULL,
     "450"},
    {"max-logic-ms", "MAX_LOGIC_MS", OPT_UINT, FIELD(max_logic_ms), 1, 60000,
     "MS", "time budget of one /hint, /grade or /explain", NULL, "1000"},
    {"timeout", "TIMEOUT", OPT_UINT, FIELD(timeout), 1, 3600, "SECONDS",
     "close connections idle this long", NULL, "10"},
    {"header-timeout", "HEADER_TIMEOUT", OPT_UINT, FIELD(header_timeout), 1,
     3600, "SECONDS",
     "a request's headers must be complete this long after the connection "
     "opens or its last answer",
     NULL, "10"},
    {"body-min-rate", "BODY_MIN_RATE", OPT_SIZE, FIELD(body_min_rate), 0,
     64u << 20, "BYTES",
     "after --header-timeout, a body must keep up this many bytes per second; "
     "0 for no floor",
     NULL, "1K"},
    {"max-buffered", "MAX_BUFFERED", OPT_SIZE, FIELD(max_buffered), 64u << 10,
     (size_t)1 << 32, "BYTES",
     "request-body bytes held across all connections; more get 503", NULL,
     "32M"},
    {"drain-timeout", "DRAIN_TIMEOUT", OPT_UINT, FIELD(drain_timeout), 0, 3600,
     "SECONDS", "on SIGTERM, wait this long for requests in flight", NULL,
     "25"},
    {"max-connections", "MAX_CONNECTIONS", OPT_UINT, FIELD(max_connections), 1,
     100000, "N", "connections served at once; more get 503", NULL, "1000"},
    {"max-per-ip", "MAX_PER_IP", OPT_UINT, FIELD(max_per_ip), 0, 100000, "N",
     "connections per client address, 0 for no cap", NULL, "0"},
    {"max-batch", "MAX_BATCH", OPT_UINT, FIELD(max_batch), 1, 1000000, "N",
     "puzzles in one POST /solve/batch", NULL, "10000"},
    {"max-batch-body", "MAX_BATCH_BODY", OPT_SIZE, FIELD(max_batch_body), 1024,
     256u << 20, "BYTES", "largest POST /solve/batch body", NULL, "4M"},
    {"max-batch-ms", "MAX_BATCH_MS", OPT_UINT, FIELD(max_batch_ms), 1, 3600000,
     "MS", "CPU time of one batch: its parse, searches and answer", NULL,
     "5000"},
    /* 200 searches of a full --max-nodes budget: about 2 s of CPU here. */
    {"max-batch-nodes", "MAX_BATCH_NODES", OPT_UINT, FIELD(max_batch_nodes),
     1000, UINT64_C(1000000000000), "N",
     "search nodes of one batch, all its puzzles (a bound that gives the "
     "same answer on every run)",
     NULL, "20000000"},
    {"batch-workers", "BATCH_WORKERS", OPT_UINT, FIELD(batch_workers), 1, 64,
     "N", "threads for batches and /generate", NULL, "1"},
    {"batch-queue", "BATCH_QUEUE", OPT_UINT, FIELD(batch_queue), 1, 10000, "N",
     "long jobs waiting for a worker; more get 503", NULL, "16"},
    {"workers", "WORKERS", OPT_UINT, FIELD(workers), 1, 256, "N",
     "threads for /hint, /grade, /explain and puzzles past an event loop's "
     "slice, at most 2 unless set: 8.5 MiB each at worst "
     "(default: online CPUs)",
     NULL, NULL},
    {"worker-queue", "WORKER_QUEUE", OPT_UINT, FIELD(worker_queue), 1, 10000,
     "N", "requests waiting for one of --workers; more get 503", NULL, "64"},
    {"log-level", "LOG_LEVEL", OPT_LEVEL, FIELD(log_level), 0, 0, "LEVEL",
     "debug, info, warn or error", NULL, "info"},
    {"access-log", "ACCESS_LOG", OPT_WORD, FIELD(access_log), 0, 0, "on|off",
     "one JSON line per request on stdout", on_off, "on"},
    {"cors-origins", "CORS_ORIGINS", OPT_ORIGINS, FIELD(cors_origins), 1,
     CONFIG_CORS_MAX - 1, "LIST",
     "origins allowed by CORS: * or a comma-separated list", NULL, "*"},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static enum config_status apply(struct config *cfg, const struct opt *o,
                                const char *value, const char *source,
                                char *err, size_t errlen);

/* "*", or origins like "https://example.org" or "http://localhost:3000",
 * separated by commas, without paths or spaces. */
static int origins_ok(const char *s)
{
    if (strcmp(s, "*") == 0)
        return 1;
    while (*s) {
        size_t n = strcspn(s, ","), scheme;
        if (strncmp(s, "https://", 8) == 0)
            scheme = 8;
        else if (strncmp(s, "http://", 7) == 0)
            scheme = 7;
        else
            return 0;
        if (n <= scheme)
            return 0;
        for (size_t i = scheme; i < n; i++)
            if (s[i] <= ' ' || s[i] > '~' || s[i] == '/' || s[i] == '*')
                return 0;
        s += n;
        if (*s == ',' && *++s == '\0')
            return 0;
    }
    return 1;
}

/* Parses a decimal number (with a K or M suffix when kind is OPT_SIZE). */
static int parse_number(const char *s, enum opt_kind kind, uint64_t *out)
{
    char *end;
    unsigned long long v;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0)
        return -1;
    if (kind == OPT_SIZE && (*end == 'K' || *end == 'k')) {
        if (v > UINT64_MAX >> 10)
            return -1;
        v <<= 10, end++;
    } else if (kind == OPT_SIZE && (*end == 'M' || *end == 'm')) {
        if (v > UINT64_MAX >> 20)
            return -1;
        v <<= 20, end++;
    }
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

static void store_uint(void *field, size_t width, uint64_t v)
{
    switch (width) {
    case sizeof(uint16_t):
        *(uint16_t *)field = (uint16_t)v;
        break;
    case sizeof(uint32_t):
        *(uint32_t *)field = (uint32_t)v;
        break;
    default:
        *(uint64_t *)field = v;
        break;
    }
}

static enum config_status apply(struct config *cfg, const struct opt *o,
                                const char *value, const char *source,
                                char *err, size_t errlen)
{
    void *field = (char *)cfg + o->offset;
    uint64_t v;

    if (o->kind == OPT_LEVEL) {
        enum log_level level;
        if (log_level_parse(value, &level) == 0) {
            *(enum log_level *)field = level;
            return CONFIG_OK;
        }
        snprintf(err, errlen, "%s: '%s' is not one of %s", source, value,
                 o->arg);
        return CONFIG_ERROR;
    }
    if (o->kind == OPT_WORD) {
        for (uint64_t w = 0; o->words[w] != NULL; w++)
            if (strcmp(value, o->words[w]) == 0) {
                store_uint(field, o->width, w);
                return CONFIG_OK;
            }
        snprintf(err, errlen, "%s: '%s' is not one of %s", source, value,
                 o->arg);
        return CONFIG_ERROR;
    }
    if (o->kind == OPT_ADDRESS || o->kind == OPT_ORIGINS) {
        size_t n = strlen(value);
        unsigned char probe[sizeof(struct in6_addr)];
        if (o->kind == OPT_ADDRESS && inet_pton(AF_INET, value, probe) != 1 &&
            inet_pton(AF_INET6, value, probe) != 1) {
            snprintf(err, errlen, "%s: '%s' is not an IPv4 or IPv6 address",
                     source, value);
            return CONFIG_ERROR;
        }
        if (o->kind == OPT_ORIGINS && !origins_ok(value)) {
            snprintf(err, errlen,
                     "%s: '%s' is not * or a comma-separated "
                     "list of origins such as https://example.org",
                     source, value);
            return CONFIG_ERROR;
        }
        if (n < o->min || n > o->max) {
            snprintf(err, errlen, "%s: '%s' must be %llu to %llu characters",
                     source, value, (unsigned long long)o->min,
                     (unsigned long long)o->max);
            return CONFIG_ERROR;
        }
        memcpy(field, value, n + 1);
        return CONFIG_OK;
    }
    if (parse_number(value, o->kind, &v) != 0 || v < o->min || v > o->max) {
        snprintf(err, errlen, "%s: '%s' is not a number from %llu to %llu",
                 source, value, (unsigned long long)o->min,
                 (unsigned long long)o->max);
        return CONFIG_ERROR;
    }
    store_uint(field, o->width, v);
    return CONFIG_OK;
}

void config_init(struct config *cfg)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char err[160];

    memset(cfg, 0, sizeof(*cfg));
    /* Each default is read as a value written by hand would be: the table
     * holds it once, for --help too, and a bad one would show in the
     * tests (config_defaults_parse). */
    for (size_t i = 0; i < NOPTS; i++)
        if (opts[i].def != NULL)
            apply(cfg, &opts[i], opts[i].def, "default", err, sizeof(err));
    cfg->threads = cpus > 0 ? (unsigned)(cpus > 256 ? 256 : cpus) : 1;
    /* Each may hold the SE rater's 8 MB work area: two fit the unit's and
     * the manifests' 128 MiB with room (docs/operations.md). */
    cfg->workers = cfg->threads < 2 ? cfg->threads : 2;
    cfg->version = SUDOKUD_VERSION;
}

int config_option_info(size_t i, struct config_option *out)
{
    if (i >= NOPTS)
        return -1;
    *out = (struct config_option){opts[i].flag, opts[i].env, opts[i].arg,
                                  opts[i].help, opts[i].def};
    return 0;
}

static const struct opt *find_flag(const char *name, size_t len)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (strlen(opts[i].flag) == len &&
            strncmp(opts[i].flag, name, len) == 0)
            return &opts[i];
    return NULL;
}

enum config_status config_parse(struct config *cfg, int argc, char **argv,
                                char *err, size_t errlen)
{
    char source[64];

    /* --help and --version answer even when a setting is bad. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return CONFIG_HELP;
        if (strcmp(argv[i], "--version") == 0)
            return CONFIG_VERSION;
    }
    if (argc >= 2 && strcmp(argv[1], "--probe") == 0) {
        /* Without a URL, main finds the daemon's own address (probe.h). */
        if (argc > 3 ||
            (argc == 3 && strlen(argv[2]) >= sizeof(cfg->probe_url))) {
            snprintf(err, errlen,
                     "--probe takes at most one URL, such as "
                     "http://127.0.0.1:8080/livez");
            return CONFIG_ERROR;
        }
        strcpy(cfg->probe_url, argc == 3 ? argv[2] : "");
        return CONFIG_PROBE;
    }
    for (size_t i = 0; i < NOPTS; i++) {
        const char *v = getenv(opts[i].env);
        if (v == NULL)
            continue;
        snprintf(source, sizeof(source), "environment %s", opts[i].env);
        if (apply(cfg, &opts[i], v, source, err, errlen) != CONFIG_OK)
            return CONFIG_ERROR;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value, *eq;
        const struct opt *o;

        if (strncmp(arg, "--", 2) != 0) {
            snprintf(err, errlen, "unexpected argument '%s' (see --help)", arg);
            return CONFIG_ERROR;
        }
        arg += 2;
        eq = strchr(arg, '=');
        o = find_flag(arg, eq ? (size_t)(eq - arg) : strlen(arg));
        if (o == NULL) {
            snprintf(err, errlen, "unknown option '%s' (see --help)", argv[i]);
            return CONFIG_ERROR;
        }
        if (eq != NULL) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            snprintf(err, errlen, "option --%s needs a value", o->flag);
            return CONFIG_ERROR;
        }
        snprintf(source, sizeof(source), "--%s", o->flag);
        if (apply(cfg, o, value, source, err, errlen) != CONFIG_OK)
            return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

void config_usage(FILE *out, const char *prog)
{
    fprintf(out,
            "Usage: %s [OPTION...]\n"
            "Sudoku-solving HTTP JSON service: POST /solve a board, get the "
            "solution.\n\nOptions (each also read from the environment "
            "variable shown; flags win):\n",
            prog);
    for (size_t i = 0; i < NOPTS; i++) {
        char left[48];
        snprintf(left, sizeof(left), "--%s %s", opts[i].flag, opts[i].arg);
        fprintf(out, "  %-28s %-16s %s", left, opts[i].env, opts[i].help);
        if (opts[i].def != NULL)
            fprintf(out, " (default %s)", opts[i].def);
        fputc('\n', out);
    }
    fprintf(out, "  %-28s %-16s %s\n  %-28s %-16s %s\n", "--help", "",
            "print this help and exit", "--version", "",
            "print the version and exit");
    fprintf(out,
            "\n  %s --probe [URL]\n      GET URL (e.g. "
            "http://127.0.0.1:8080/livez) "
            "and exit 0 on a 200 answer,\n      1 otherwise: a health check "
            "for images without curl. Without URL:\n      /livez of the "
            "sudokud running as PID 1 (a container's), on the port\n      and "
            "address its flags and this environment give.\n",
            prog);
    fprintf(out, "\nSIGTERM, SIGINT or SIGHUP (all alike; logs go to stdout, "
                 "nothing to reopen):\nstop accepting, finish the requests "
                 "in flight, exit 0.\nA bad setting exits with status 2.\n");
    fprintf(out, "\nUnder systemd (sudokud.service, sudokud.socket): the "
                 "sockets handed over in\nLISTEN_FDS are served instead of "
                 "--bind and --port; READY=1, STOPPING=1,\nSTATUS= and "
                 "WATCHDOG=1 (every WATCHDOG_USEC/2) go to NOTIFY_SOCKET.\n");
}
