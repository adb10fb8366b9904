/* Nantong cases: winning, score and replay. */
#include "runner.h"

#include <string.h>

/* Asks a library function that reads a case's input fields from the whole case (ignoring the
 * others) and answers in JSON. */
static Verdict ask(ArbiterStatus (*fn)(const char *, size_t, char *, size_t, size_t *), const cJSON *c,
                   const char *refusal, cJSON **answer) {
    char *json = cJSON_PrintUnformatted(c);
    ArbiterStatus st;
    ARBITER_JSON(*answer, st, fn, json, strlen(json));
    free(json);
    return st ? api_failure(refusal, st) : NULL;
}

static Verdict winning(const cJSON *c, const cJSON *expect) {
    cJSON *got;
    Verdict why = ask(arbiter_nantong_winning, c, "malformed case", &got);
    if (why) return why;
    why = check(expect, "winning", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(got, "winning"), 1));
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(expect, "waits");
    const cJSON *waits = cJSON_GetObjectItemCaseSensitive(got, "waits");
    if (!why && want && !same_multiset(want, waits)) why = mismatch("waits", want, waits);
    cJSON_Delete(got);
    return why;
}

/* Compares the totals and settlement of a score with what `want` names. */
static Verdict check_score(const cJSON *want, const cJSON *score) {
    Verdict why = check(want, "totals", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(score, "totals"), 1));
    return why ? why : check(want, "settlement", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(score, "settlement"), 1));
}

static Verdict score(const cJSON *c, const cJSON *expect) {
    cJSON *got;
    Verdict why = ask(arbiter_nantong_score_hand, c, "bad deal", &got);
    if (why) return why;
    why = check_score(expect, got);
    cJSON_Delete(got);
    return why;
}

/* Plays the case's actions: NULL, or why the case failed; `refused` receives the index of the
 * first action refused (or -1). */
static Verdict act_all(ArbiterNantong *g, const cJSON *actions, int *refused) {
    int n = 0;
    size_t passed;
    const cJSON *a;
    *refused = -1;
    /* The cases list only the claim questions a seat could act on: the others are passed. */
    cJSON_ArrayForEach(a, actions) {
        uint64_t seat;
        arbiter_nantong_pass_forced(g, &passed);
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(a, "action");
        if (!whole(cJSON_GetObjectItemCaseSensitive(a, "seat"), 1e300, &seat))
            return failf("malformed case: action %d has no seat", n);
        if (!cJSON_IsString(text)) return failf("malformed case: action %d has no action", n);
        ArbiterStatus st = seat > 2 ? ARBITER_BAD_ARGUMENT
                                    : arbiter_nantong_act(g, (int32_t)seat, text->valuestring, strlen(text->valuestring));
        if (st) {
            *refused = n;
            return NULL;
        }
        n++;
    }
    arbiter_nantong_pass_forced(g, &passed);
    return NULL;
}

static Verdict replay(const cJSON *c, const cJSON *expect) {
    Verdict why = NULL;
    uint64_t dealer;
    const cJSON *deck = input(c, "deck", &why);
    if (!deck || !input_whole(c, "dealer", 255, &dealer, &why)) return why;
    const cJSON *actions = input(c, "actions", &why);
    if (!actions) return why;
    if (!cJSON_IsArray(actions)) return failf("malformed case: actions is not a list");
    char *json = cJSON_PrintUnformatted(deck);
    ArbiterNantong *g = NULL;
    ArbiterStatus st = arbiter_nantong_deal(json, strlen(json), (int32_t)dealer, &g);
    free(json);
    if (st) return api_failure("bad deal", st);
    int refused;
    why = act_all(g, actions, &refused);
    if (!why && refused >= 0) {
        why = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(expect, "legal"))
                  ? check(expect, "illegal_at", cJSON_CreateNumber(refused))
                  : failf("action %d refused: %s", refused, arbiter_last_error());
    } else if (!why) {
        bool over;
        arbiter_nantong_is_over(g, &over);
        why = check(expect, "legal", cJSON_CreateTrue());
        if (!why) why = check(expect, "over", cJSON_CreateBool(over));
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(expect, "scores");
        if (!why && want) {
            cJSON *s;
            ARBITER_JSON(s, st, arbiter_nantong_score, g);
            why = st ? api_failure("score", st)
                     : cJSON_IsNull(s) ? failf("scores: expected a score, but the deal is not over")
                                       : check_score(want, s);
            cJSON_Delete(s);
        }
    }
    arbiter_nantong_free(g);
    return why;
}

Verdict run_nantong(const char *kind, const cJSON *c, const cJSON *expect) {
    if (strcmp(kind, "winning") == 0) return winning(c, expect);
    if (strcmp(kind, "score") == 0) return score(c, expect);
    if (strcmp(kind, "replay") == 0) return replay(c, expect);
    return failf("unknown kind \"%s\" for nantong", kind);
}
