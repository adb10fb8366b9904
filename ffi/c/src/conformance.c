/* arbiter-c-conformance FILE...: runs conformance cases (JSON Lines, conformance/FORMAT.md) through
 * the C API only. Prints one line per failing case, then `N passed, M failed`; exits non-zero on any
 * failure, malformed line or unknown kind. */
#include "runner.h"

#include <stdio.h>
#include <string.h>

static Verdict run_case(const cJSON *c) {
    const char *fields[] = {"game", "kind", "name"};
    for (size_t i = 0; i < 3; i++) {
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, fields[i])))
            return failf("malformed case: no string field \"%s\"", fields[i]);
    }
    const char *game = cJSON_GetObjectItemCaseSensitive(c, "game")->valuestring;
    const char *kind = cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring;
    const cJSON *expect = cJSON_GetObjectItemCaseSensitive(c, "expect");
    if (!cJSON_IsObject(expect)) return failf("malformed case: no object field \"expect\"");
    if (strcmp(game, "triple-triad") == 0) return run_triple_triad(kind, c, expect);
    if (strcmp(game, "trax") == 0) return run_trax(kind, c, expect);
    if (strcmp(game, "nantong") == 0) return run_nantong(kind, c, expect);
    return failf("unknown game \"%s\"", game);
}

/* Reads a whole file; NULL if it cannot be read. */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *data = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 65536 > cap) {
            cap = 2 * cap + 65536;
            char *more = realloc(data, cap);
            if (!more) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = more;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(data);
        return NULL;
    }
    *len = n;
    return data;
}

/* Whether s[0..n) is UTF-8 (cJSON passes any bytes through). */
static int utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char b = s[i];
        size_t more = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : 4;
        if (more == 4 || more >= n - i) return 0;
        uint32_t cp = more == 0 ? b : b & (0x3F >> more);
        for (size_t k = 1; k <= more; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        /* Overlong forms, surrogates and code points past U+10FFFF are not UTF-8. */
        static const uint32_t least[] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[more] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
        i += more + 1;
    }
    return 1;
}

static int blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\r\n\f\v", s[i])) return 0;
    return 1;
}

int main(int argc, char **argv) {
    long passed = 0, failed = 0;
    for (int a = 1; a < argc; a++) {
        size_t len = 0;
        char *text = slurp(argv[a], &len);
        if (!text) {
            printf("FAIL %s: cannot read\n", argv[a]);
            failed++;
            continue;
        }
        size_t start = 0;
        for (long line = 1; start < len; line++) {
            const char *nl = memchr(text + start, '\n', len - start);
            size_t end = nl ? (size_t)(nl - text) : len;
            if (!blank(text + start, end - start)) {
                /* cJSON parses up to the first NUL: a NUL inside a line makes it malformed. */
                const char *parse_end = NULL;
                cJSON *c = cJSON_ParseWithLengthOpts(text + start, end - start, &parse_end, 0);
                Verdict why;
                if (!utf8((const unsigned char *)text + start, end - start))
                    why = failf("malformed line: not UTF-8");
                else if (!c || !blank(parse_end, (size_t)(text + end - parse_end)))
                    why = failf("malformed line: not one JSON value");
                else
                    why = run_case(c);
                if (why) {
                    const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "name");
                    if (cJSON_IsString(name))
                        printf("FAIL %s: %s\n", name->valuestring, why);
                    else
                        printf("FAIL %s:%ld: %s\n", argv[a], line, why);
                    free(why);
                    failed++;
                } else {
                    passed++;
                }
                cJSON_Delete(c);
            }
            start = end + 1;
        }
        free(text);
    }
    if (passed + failed == 0) {
        /* A run that checked nothing must not look like a success. */
        printf("FAIL no conformance case in the files given\n");
        failed++;
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
