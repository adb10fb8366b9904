/* The C tests' one check: counts it, and on failure says where, what, and the library's last
 * error, then goes on (main reports `checks - failures` passed). */
#ifndef ARBITER_TESTS_CHECK_H
#define ARBITER_TESTS_CHECK_H

#include <arbiter.h>
#include <stdio.h>

static int failures = 0, checks = 0;

#define CHECK(cond)                                                                                 \
    do {                                                                                            \
        checks++;                                                                                   \
        if (!(cond)) {                                                                              \
            failures++;                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
                    arbiter_last_error());                                                          \
        }                                                                                           \
    } while (0)

#endif
