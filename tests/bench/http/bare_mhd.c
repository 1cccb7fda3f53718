/* bare_mhd.c - the floor of the HTTP library, for `make bench-http`:
 * libmicrohttpd with sudokud's daemon flags (internal poll thread pool, the
 * same connection buffer and timeout) answering every request with one
 * fixed JSON body of the size of sudokud's answer, from a response built
 * once. No JSON, no solving, no metrics, no per-request allocation of ours.
 * Prints the same "listening" line as sudokud so run.sh starts it alike.
 *   usage: bench_bare_mhd [--port N] [--bind ADDR] [--threads N] [...]
 * (other sudokud options are accepted and ignored). */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(int argc, char **argv)
{
    unsigned port = 8080, threads = 2;
    const char *bind = "127.0.0.1";
    struct sockaddr_in addr;
    struct MHD_Response *resp;
    struct MHD_Daemon *d;
    const union MHD_DaemonInfo *info;
    sigset_t stop;
    int sig;

    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--port") == 0)
            port = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0)
            threads = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--bind") == 0)
            bind = argv[++i];
    }
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, bind, &addr.sin_addr) != 1)
        return 2;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* inherited by the pool */
    resp = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body,
                                           MHD_RESPMEM_PERSISTENT);
    if (resp == NULL ||
        MHD_add_response_header(resp, "Content-Type", "application/json") != MHD_YES)
        return 1;
    d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
                             MHD_USE_ITC | MHD_USE_ERROR_LOG,
                         0, NULL, NULL, handle, resp,
                         MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                         MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 0,
                         MHD_OPTION_CONNECTION_TIMEOUT, 10u,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
                         MHD_OPTION_END);
    if (d == NULL)
        return 1;
    info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    printf("{\"msg\":\"listening\",\"port\":%u}\n", info ? (unsigned)info->port : 0);
    fflush(stdout);
    sigwait(&stop, &sig);
    MHD_stop_daemon(d);
    MHD_destroy_response(resp);
    return 0;
}
