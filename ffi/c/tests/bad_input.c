/* The bad-input files (conformance/bad-input/GAME.jsonl, named on the command line) through the
 * C library: every case is refused with the status and the message, word for word, that the file
 * gives, which are also what Rust and the npm package say. Exits non-zero on any difference. */
#include <arbiter.h>
#include <cjson/cJSON.h>

#include "read_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *status_name(ArbiterStatus s) {
    switch (s) {
    case ARBITER_OK: return "accepted";
    case ARBITER_BAD_ARGUMENT: return "BAD_ARGUMENT";
    case ARBITER_NULL_POINTER: return "NULL_POINTER";
    case ARBITER_PARSE_ERROR: return "PARSE_ERROR";
    case ARBITER_ILLEGAL_MOVE: return "ILLEGAL_MOVE";
    case ARBITER_GAME_OVER: return "GAME_OVER";
    case ARBITER_BUFFER_TOO_SMALL: return "BUFFER_TOO_SMALL";
    case ARBITER_LIMIT_EXCEEDED: return "LIMIT_EXCEEDED";
    case ARBITER_INTERNAL_ERROR: return "INTERNAL_ERROR";
    }
    return "an unknown status";
}

/* Runs the reader `load` over `input`; frees whatever it made, should it accept. */
static ArbiterStatus refuse(const char *load, const char *input, const char *variant) {
    size_t len = strlen(input), size = 0;
    ArbiterStatus st;
    if (strcmp(load, "triple-triad") == 0) {
        ArbiterTripleTriad *g = NULL;
        st = arbiter_triple_triad_from_json(input, len, &g);
        arbiter_triple_triad_free(g);
    } else if (strcmp(load, "triple-triad-match") == 0) {
        ArbiterTripleTriadMatch *m = NULL;
        st = arbiter_triple_triad_match_from_json(input, len, &m);
        arbiter_triple_triad_match_free(m);
    } else if (strcmp(load, "trax") == 0) {
        ArbiterTrax *t = NULL;
        st = arbiter_trax_from_json(input, len, &t);
        arbiter_trax_free(t);
    } else if (strcmp(load, "trax-record") == 0) {
        ArbiterTrax *t = NULL;
        st = arbiter_trax_from_record(variant, strlen(variant), input, len, &t);
        arbiter_trax_free(t);
    } else if (strcmp(load, "nantong") == 0) {
        ArbiterNantong *n = NULL;
        st = arbiter_nantong_from_json(input, len, &n);
        arbiter_nantong_free(n);
    } else if (strcmp(load, "nantong-finished-deal") == 0) {
        /* A score that fits no buffer: a deal it could read would say BUFFER_TOO_SMALL. */
        st = arbiter_nantong_score_hand(input, len, NULL, 0, &size);
    } else {
        fprintf(stderr, "unknown reader %s\n", load);
        exit(2);
    }
    return st;
}

int main(int argc, char **argv) {
    int cases = 0, wrong = 0;
    for (int i = 1; i < argc; i++) {
        char *text = read_file(argv[i]);
        if (!text) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 2;
        }
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            cJSON *c = cJSON_Parse(line);
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(c, "name"));
            const char *load = cJSON_GetStringValue(cJSON_GetObjectItem(c, "load"));
            const char *input = cJSON_GetStringValue(cJSON_GetObjectItem(c, "input"));
            const char *variant = cJSON_GetStringValue(cJSON_GetObjectItem(c, "variant"));
            const char *code = cJSON_GetStringValue(cJSON_GetObjectItem(c, "code"));
            const char *message = cJSON_GetStringValue(cJSON_GetObjectItem(c, "message"));
            if (!name || !load || !input || !code || !message) {
                fprintf(stderr, "%s: a case without name, load, input, code or message: %s\n", argv[i], line);
                return 2;
            }
            cases++;
            const char *got = status_name(refuse(load, input, variant ? variant : ""));
            const char *said = arbiter_last_error();
            if (strcmp(got, code) != 0 || strcmp(said, message) != 0) {
                wrong++;
                fprintf(stderr, "%s: %s\n  want %s %s\n  got  %s %s\n", argv[i], name, code, message, got, said);
            }
            cJSON_Delete(c);
        }
        free(text);
    }
    printf("%d bad inputs, %d refused otherwise than their file says\n", cases, wrong);
    return wrong || cases == 0 ? 1 : 0;
}
