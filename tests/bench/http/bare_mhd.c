/* bare_mhd.c - the floor of the HTTP library, for `make bench-http`:
 * libmicrohttpd run the way sudokud runs it (one daemon per event loop in
 * epoll mode without a thread of the library's, each with a listening
 * socket of its own on the port (SO_REUSEPORT), a thread of ours per loop
 * that waits on the daemon's epoll descriptor, calls MHD_run and yields
 * after four rounds in a row that found more work waiting; the
 * same connection buffer and timeout) answering every request with one
 * fixed JSON body of the size of sudokud's answer, from a response built
 * once. No JSON, no solving, no metrics, no per-request allocation of ours.
 * With --pool: the library's own internal poll thread pool instead (what
 * sudokud used before its own loops), for comparison.
 * Prints the same "listening" line as sudokud so run.sh starts it alike.
 *   usage: bench_bare_mhd [--port N] [--bind ADDR] [--threads N] [--pool]
 * (other sudokud options are accepted and ignored). */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static const char body[] =
    "{\"solution\":[\"957214386\",\"824736591\",\"361859742\",\"495372618\","
    "\"786491235\",\"132568974\",\"519687423\",\"273145869\",\"648923157\"],"
    "\"stats\":{\"guesses\":0,\"nodes\":1,\"solve_us\":5}}";

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
                              const char *url, const char *method,
                              const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls)
{
    (void)url, (void)method, (void)version, (void)upload_data;
    if (*con_cls == NULL) { /* headers: nothing to keep */
        *con_cls = conn;
        return MHD_YES;
    }
    if (*upload_data_size != 0) { /* body: read and dropped */
        *upload_data_size = 0;
        return MHD_YES;
    }
    return MHD_queue_response(conn, MHD_HTTP_OK, cls);
}

struct loop {
    struct MHD_Daemon *daemon;
    int epfd;
};

/* sudokud's loop (src/http/http_request.c, loop_main) without its errands. */
static void *run_loop(void *arg)
{
    struct loop *lp = arg;
    unsigned busy_rounds = 0;

    for (;;) {
        MHD_UNSIGNED_LONG_LONG left;
        struct epoll_event ev[2];
        int ms = -1;

        MHD_run(lp->daemon);
        if (MHD_get_timeout(lp->daemon, &left) == MHD_YES)
            ms = left > 60000 ? 60000 : (int)left;
        if (ms == 0 || epoll_wait(lp->epfd, ev, 2, 0) > 0) {
            if (++busy_rounds == 4) {
                busy_rounds = 0;
                sched_yield();
            }
        } else {
            busy_rounds = 0;
            epoll_wait(lp->epfd, ev, 2, ms);
        }
    }
    return NULL;
}

/* A listening socket of the SO_REUSEPORT group on addr; -1 on failure. */
static int group_socket(const struct sockaddr_in *addr)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int on = 1;

    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on));
    if (bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) != 0 ||
        listen(fd, SOMAXCONN) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int start_loops(struct sockaddr_in *addr, unsigned threads,
                       struct MHD_Response *resp)
{
    int first = -1;

    for (unsigned i = 0; i < (threads ? threads : 1); i++) {
        struct loop *lp = calloc(1, sizeof(*lp));
        struct epoll_event ev = {.events = EPOLLIN};
        const union MHD_DaemonInfo *info;
        socklen_t len = sizeof(*addr);
        pthread_t t;
        int fd = group_socket(addr);

        if (lp == NULL || fd < 0)
            return -1;
        if (first < 0) { /* the others join on the port it got */
            first = fd;
            if (getsockname(fd, (struct sockaddr *)addr, &len) != 0)
                return -1;
        }
        lp->daemon = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0,
                                      NULL, NULL, handle, resp,
                                      MHD_OPTION_LISTEN_SOCKET, fd,
                                      MHD_OPTION_CONNECTION_TIMEOUT, 10u,
                                      MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                                      (size_t)8192, MHD_OPTION_END);
        if (lp->daemon == NULL)
            return -1;
        info = MHD_get_daemon_info(lp->daemon, MHD_DAEMON_INFO_EPOLL_FD);
        lp->epfd = epoll_create1(EPOLL_CLOEXEC);
        if (info == NULL || lp->epfd < 0 ||
            epoll_ctl(lp->epfd, EPOLL_CTL_ADD, info->epoll_fd, &ev) != 0 ||
            pthread_create(&t, NULL, run_loop, lp) != 0)
            return -1;
    }
    return first;
}

int main(int argc, char **argv)
{
    unsigned port = 8080, threads = 2;
    int pool = 0, fd;
    const char *bind_addr = "127.0.0.1";
    struct sockaddr_in addr;
    struct MHD_Response *resp;
    sigset_t stop;
    int sig;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--pool") == 0)
            pool = 1;
        else if (i + 1 < argc && strcmp(argv[i], "--port") == 0)
            port = (unsigned)atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0)
            threads = (unsigned)atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--bind") == 0)
            bind_addr = argv[++i];
    }
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, bind_addr, &addr.sin_addr) != 1)
        return 2;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* inherited by the threads */
    resp = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body,
                                           MHD_RESPMEM_PERSISTENT);
    if (resp == NULL ||
        MHD_add_response_header(resp, "Content-Type", "application/json") != MHD_YES)
        return 1;
    if (pool) {
        struct MHD_Daemon *d = MHD_start_daemon(
            MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC |
                MHD_USE_ERROR_LOG,
            0, NULL, NULL, handle, resp, MHD_OPTION_SOCK_ADDR,
            (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE,
            threads > 1 ? threads : 0, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)8192, MHD_OPTION_END);
        const union MHD_DaemonInfo *info =
            d ? MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
        if (info == NULL)
            return 1;
        port = info->port;
    } else {
        socklen_t len = sizeof(addr);
        if ((fd = start_loops(&addr, threads, resp)) < 0 ||
            getsockname(fd, (struct sockaddr *)&addr, &len) != 0)
            return 1;
        port = ntohs(addr.sin_port);
    }
    printf("{\"msg\":\"listening\",\"port\":%u}\n", port);
    fflush(stdout);
    sigwait(&stop, &sig);
    return 0; /* the loops end with the process */
}
