/* What the examples share: stop with the library's message when a call fails, and fetch a JSON
 * result (its size first, then the text) parsed with cJSON. Copy it along with an example. */
#ifndef ARBITER_EXAMPLE_H
#define ARBITER_EXAMPLE_H

#include <arbiter.h>
#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>

static inline void must(ArbiterStatus status, const char *what) {
    if (status != ARBITER_OK) {
        fprintf(stderr, "%s failed (status %d): %s\n", what, (int)status, arbiter_last_error());
        exit(1);
    }
}

/* `out` = the JSON that `fn(args..., buf, cap, &size)` writes, parsed. */
#define FETCH_JSON(out, fn, ...)                                                                    \
    do {                                                                                            \
        size_t size_ = 0;                                                                           \
        fn(__VA_ARGS__, NULL, 0, &size_);                                                           \
        char *text_ = malloc(size_);                                                                \
        must(fn(__VA_ARGS__, text_, size_, &size_), #fn);                                           \
        (out) = cJSON_Parse(text_);                                                                 \
        free(text_);                                                                                \
    } while (0)

#endif
