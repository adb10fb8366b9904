/* What every game's cases share: failures, field checks and JSON helpers. */
#include "runner.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

Verdict failf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    if (!s) abort();
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static const char *status_name(ArbiterStatus s) {
    static const char *const names[] = {"OK",           "BAD_ARGUMENT",     "NULL_POINTER",
                                        "PARSE_ERROR",  "ILLEGAL_MOVE",     "GAME_OVER",
                                        "BUFFER_TOO_SMALL", "LIMIT_EXCEEDED", "INTERNAL_ERROR"};
    return s >= 0 && (size_t)s < sizeof names / sizeof names[0] ? names[s] : "UNKNOWN_STATUS";
}

Verdict api_failure(const char *what, ArbiterStatus status) {
    return failf("%s: %s: %s", what, status_name(status), arbiter_last_error());
}

Verdict mismatch(const char *key, const cJSON *want, const cJSON *got) {
    char *w = cJSON_PrintUnformatted(want);
    char *g = got ? cJSON_PrintUnformatted(got) : NULL;
    Verdict v = failf("%s: expected %s, got %s", key, w, g ? g : "nothing");
    free(w);
    free(g);
    return v;
}

Verdict check(const cJSON *expect, const char *key, cJSON *got) {
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(expect, key);
    Verdict v = want && !cJSON_Compare(want, got, 1) ? mismatch(key, want, got) : NULL;
    cJSON_Delete(got);
    return v;
}

int wants_error(const cJSON *expect) {
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(expect, "error"));
}

Verdict refused(Verdict why, const char *accepted) {
    if (!why) return failf("expected an error, but %s", accepted);
    free(why);
    return NULL;
}

const cJSON *input(const cJSON *c, const char *key, Verdict *why) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(c, key);
    if (!item) *why = failf("malformed case: no field \"%s\"", key);
    return item;
}

int whole(const cJSON *item, double max, uint64_t *out) {
    if (!cJSON_IsNumber(item)) return 0;
    double d = item->valuedouble;
    if (!(d >= 0 && d <= max) || floor(d) != d) return 0;
    *out = (uint64_t)d;
    return 1;
}

int input_whole(const cJSON *c, const char *key, double max, uint64_t *out, Verdict *why) {
    const cJSON *item = input(c, key, why);
    if (!item) return 0;
    if (!whole(item, max, out)) {
        *why = failf("malformed case: \"%s\" is not a whole number up to %.0f", key, max);
        return 0;
    }
    return 1;
}

cJSON *outcome_json(int32_t outcome, const char *const names[]) {
    if (outcome == -1) return cJSON_CreateNull();
    if (outcome == -2) return cJSON_CreateString("draw");
    return cJSON_CreateString(names[outcome]);
}

int index_of_name(const cJSON *array, const char *name) {
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        const cJSON *n = cJSON_IsObject(item) ? cJSON_GetObjectItemCaseSensitive(item, "name") : item;
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0) return i;
        i++;
    }
    return -1;
}

int same_multiset(const cJSON *a, const cJSON *b) {
    int n = cJSON_GetArraySize(a);
    if (!cJSON_IsArray(a) || !cJSON_IsArray(b) || n != cJSON_GetArraySize(b)) return 0;
    char *used = calloc((size_t)n + 1, 1);
    int all = 1;
    const cJSON *x;
    cJSON_ArrayForEach(x, a) {
        int found = 0;
        for (int j = 0; j < n && !found; j++) {
            if (!used[j] && cJSON_Compare(x, cJSON_GetArrayItem(b, j), 1)) used[j] = found = 1;
        }
        all = all && found;
    }
    free(used);
    return all;
}
