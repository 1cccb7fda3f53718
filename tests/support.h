/* support.h - small helpers several suites share: reading members of a
 * JSON answer (failing the test when one is missing), connecting to the
 * server under test, and reading one sample of a Prometheus scrape. */
#ifndef SUPPORT_H
#define SUPPORT_H

#include <cjson/cJSON.h>

/* The number / string member `name` of obj; fails the test if absent or of
 * another type. */
double support_num(const cJSON *obj, const char *name);
const char *support_str(const cJSON *obj, const char *name);

/* A TCP connection to 127.0.0.1:port, or -1. */
int support_connect(unsigned port);

/* The value of the sample line "series value" in a Prometheus scrape (the
 * series written out whole, labels included), or -1 when absent. */
double support_sample(const char *text, const char *series);

#endif
