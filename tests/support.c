/* support.c - helpers shared by the suites (see support.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "support.h"

const char *const support_example_rows[9] = {
    "9.7.....6", "824.3....", "..1..9..2", ".9...2.18", "...4....5",
    "1325.8...", "...687...", "......8.9", ".4.9...5.",
};
const char *const support_solution_rows[9] = {
    "957214386", "824736591", "361859742", "495372618", "786491235",
    "132568974", "519687423", "273145869", "648923157",
};

void support_join_rows(const char *const *rows, char out[82])
{
    for (int r = 0; r < 9; r++)
        memcpy(out + r * 9, rows[r], 9);
    out[81] = '\0';
}

double support_num(const cJSON *obj, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);

    if (!cJSON_IsNumber(m))
        fail_msg("member '%s' is missing or not a number", name);
    return m->valuedouble;
}

const char *support_str(const cJSON *obj, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);

    if (!cJSON_IsString(m))
        fail_msg("member '%s' is missing or not a string", name);
    return m->valuestring;
}

int support_connect(unsigned port)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

double support_sample(const char *text, const char *series)
{
    const char *p = text;
    size_t n = strlen(series);

    while ((p = strstr(p, series)) != NULL) {
        if ((p == text || p[-1] == '\n') && p[n] == ' ')
            return atof(p + n + 1);
        p += n;
    }
    return -1;
}

void support_check_conflict(const cJSON *item, const char *unit, int index,
                            int digit, const int (*cells)[2], int ncells)
{
    const cJSON *list, *pair;
    int k = 0;

    assert_true(cJSON_IsObject(item));
    assert_string_equal(support_str(item, "unit"), unit);
    assert_true(support_num(item, "index") == index);
    assert_true(support_num(item, "digit") == digit);
    list = cJSON_GetObjectItemCaseSensitive(item, "cells");
    assert_true(cJSON_IsArray(list));
    assert_int_equal(cJSON_GetArraySize(list), ncells);
    cJSON_ArrayForEach(pair, list)
    {
        assert_true(cJSON_IsArray(pair));
        assert_int_equal(cJSON_GetArraySize(pair), 2);
        assert_true(cJSON_IsNumber(cJSON_GetArrayItem(pair, 0)) &&
                    cJSON_IsNumber(cJSON_GetArrayItem(pair, 1)));
        assert_true(cJSON_GetArrayItem(pair, 0)->valuedouble == cells[k][0]);
        assert_true(cJSON_GetArrayItem(pair, 1)->valuedouble == cells[k][1]);
        k++;
    }
}

FILE *support_open_data(const char *name)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "tests/data/%s", name);
    f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s (run from the repository root)", path);
    return f;
}

int support_run_parts(int (*const *parts)(unsigned *), size_t n,
                      unsigned *ntests)
{
    int failed = 0;

    for (size_t i = 0; i < n; i++) {
        unsigned k = 0;
        failed += parts[i](&k);
        *ntests += k;
    }
    return failed;
}

long support_now_ms(void)
{
    return (long)clock_now_ms();
}

int support_wait_until(int (*pred)(void *arg), void *arg, long ms)
{
    const struct timespec pause = {0, SUPPORT_POLL_MS * 1000000L};
    long deadline = support_now_ms() + ms;
    int ok;

    while (!(ok = pred(arg)) && support_now_ms() < deadline)
        nanosleep(&pause, NULL);
    return ok;
}
