/* The C conformance runner: conformance cases (conformance/FORMAT.md) run through the C API only. */
#ifndef ARBITER_RUNNER_H
#define ARBITER_RUNNER_H

#include <stdint.h>
#include <stdlib.h>

#include <arbiter.h>
#include <cjson/cJSON.h>

/* A case's verdict: NULL when it passed, else a malloc'd description of the failure. */
typedef char *Verdict;

/* A failure described printf-style. */
Verdict failf(const char *fmt, ...);
/* A failure of a library call: what was being done, the status and the library's message. */
Verdict api_failure(const char *what, ArbiterStatus status);

/* Compares an expected field with what came out, when the case names it; takes `got`. */
Verdict check(const cJSON *expect, const char *key, cJSON *got);
/* Whether the case expects its setup or play to be refused (`"error": true`). */
int wants_error(const cJSON *expect);
/* The verdict on a case that expects a refusal: a pass when `why` says what was refused (it is
 * freed), else a failure that says what was `accepted`. */
Verdict refused(Verdict why, const char *accepted);
/* The failure of a field that differs from what was expected. */
Verdict mismatch(const char *key, const cJSON *want, const cJSON *got);
/* A required field of a case, or NULL with *why set. */
const cJSON *input(const cJSON *c, const char *key, Verdict *why);
/* A whole number in 0..=max, or 0 with nothing written. */
int whole(const cJSON *item, double max, uint64_t *out);
/* A required whole-number field in 0..=max, or 0 with *why set. */
int input_whole(const cJSON *c, const char *key, double max, uint64_t *out, Verdict *why);
/* `names[index]`, "draw" for -2 and JSON null for -1: an outcome as the cases write it. */
cJSON *outcome_json(int32_t outcome, const char *const names[]);
/* The position of the string `name` in a JSON array of strings or of objects with a `name`. */
int index_of_name(const cJSON *array, const char *name);
/* Whether two arrays hold the same items, in any order. */
int same_multiset(const cJSON *a, const cJSON *b);

/* Runs a text-returning library function `fn(args..., buf, cap, &size)` twice: once for the size,
 * once into a buffer of that size. `out` receives the malloc'd text (NULL on failure). */
#define ARBITER_TEXT(out, status, fn, ...)                                                          \
    do {                                                                                            \
        size_t size_ = 0;                                                                           \
        (out) = NULL;                                                                               \
        (status) = fn(__VA_ARGS__, NULL, 0, &size_);                                                \
        if ((status) == ARBITER_BUFFER_TOO_SMALL) {                                                 \
            (out) = malloc(size_);                                                                  \
            (status) = (out) ? fn(__VA_ARGS__, (out), size_, &size_) : ARBITER_INTERNAL_ERROR;      \
        }                                                                                           \
        if ((status) != ARBITER_OK) {                                                               \
            free(out);                                                                              \
            (out) = NULL;                                                                           \
        }                                                                                           \
    } while (0)

/* The same for a function returning JSON: `out` receives the parsed value. */
#define ARBITER_JSON(out, status, fn, ...)                                                          \
    do {                                                                                            \
        char *text_;                                                                                \
        ARBITER_TEXT(text_, status, fn, __VA_ARGS__);                                               \
        (out) = text_ ? cJSON_Parse(text_) : NULL;                                                  \
        if (text_ && !(out)) (status) = ARBITER_INTERNAL_ERROR;                                     \
        free(text_);                                                                                \
    } while (0)

Verdict run_triple_triad(const char *kind, const cJSON *c, const cJSON *expect);
Verdict run_triple_triad_match(const cJSON *c, const cJSON *expect);
Verdict run_trax(const char *kind, const cJSON *c, const cJSON *expect);
Verdict run_nantong(const char *kind, const cJSON *c, const cJSON *expect);

#endif
