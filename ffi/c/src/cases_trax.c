/* Trax cases: play and perft. */
#include "runner.h"

#include <string.h>

static const char *const PLAYERS[] = {"white", "red"};

/* Replays the case's moves from the empty board of its variant. `g` receives the game, and
 * `refused` the index of the first move refused (or -1); a malformed case is a failure. */
static Verdict replay(const cJSON *c, ArbiterTrax **g, int *refused) {
    Verdict why = NULL;
    const cJSON *variant = input(c, "variant", &why), *moves = variant ? input(c, "moves", &why) : NULL;
    if (why) return why;
    if (!cJSON_IsString(variant)) return failf("malformed case: \"variant\" is not a string");
    if (!cJSON_IsArray(moves)) return failf("malformed case: \"moves\" is not a list");
    const cJSON *mv;
    cJSON_ArrayForEach(mv, moves) {
        if (!cJSON_IsString(mv)) return failf("malformed case: a move is not a string");
    }
    ArbiterStatus st = arbiter_trax_new(variant->valuestring, strlen(variant->valuestring), g);
    if (st) return api_failure("malformed case", st);
    *refused = -1;
    int i = 0;
    cJSON_ArrayForEach(mv, moves) {
        if (arbiter_trax_play(*g, mv->valuestring, strlen(mv->valuestring)) != ARBITER_OK) {
            *refused = i;
            break;
        }
        i++;
    }
    return NULL;
}

static Verdict play(const cJSON *expect, ArbiterTrax *g, int refused) {
    if (refused >= 0) {
        Verdict why = check(expect, "legal", cJSON_CreateFalse());
        return why ? why : check(expect, "illegal_at", cJSON_CreateNumber(refused));
    }
    bool over;
    int32_t outcome, next;
    uint32_t tiles;
    size_t legal = 0;
    arbiter_trax_is_over(g, &over);
    arbiter_trax_outcome(g, &outcome);
    arbiter_trax_next_player(g, &next);
    arbiter_trax_tiles(g, &tiles);
    Verdict why = check(expect, "legal", cJSON_CreateTrue());
    if (!why) why = check(expect, "over", cJSON_CreateBool(over));
    if (!why) why = check(expect, "winner", outcome_json(outcome, PLAYERS));
    if (!why) why = check(expect, "tiles", cJSON_CreateNumber(tiles));
    if (!why) why = check(expect, "to_move", cJSON_CreateString(PLAYERS[next]));
    if (!why && cJSON_GetObjectItemCaseSensitive(expect, "legal_moves")) {
        /* A buffer of size 0 asks for the count. */
        ArbiterStatus st = arbiter_trax_legal_actions(g, NULL, 0, &legal);
        if (st != ARBITER_OK && st != ARBITER_BUFFER_TOO_SMALL) return api_failure("legal_actions", st);
        why = check(expect, "legal_moves", cJSON_CreateNumber((double)legal));
    }
    return why;
}

static Verdict perft(const cJSON *c, const cJSON *expect, ArbiterTrax *g, int refused) {
    Verdict why = NULL;
    uint64_t depth, nodes;
    if (!input_whole(c, "depth", UINT32_MAX, &depth, &why)) return why;
    if (refused >= 0) return failf("move %d of the case is refused", refused);
    ArbiterStatus st = arbiter_trax_perft(g, (uint32_t)depth, &nodes);
    return st ? api_failure("perft", st) : check(expect, "nodes", cJSON_CreateNumber((double)nodes));
}

Verdict run_trax(const char *kind, const cJSON *c, const cJSON *expect) {
    int is_play = strcmp(kind, "play") == 0;
    if (!is_play && strcmp(kind, "perft") != 0) return failf("unknown kind \"%s\" for trax", kind);
    ArbiterTrax *g = NULL;
    int refused = -1;
    Verdict why = replay(c, &g, &refused);
    if (!why) why = is_play ? play(expect, g, refused) : perft(c, expect, g, refused);
    arbiter_trax_free(g);
    return why;
}
