/* Triple Triad cases: play, perft, solve and match. */
#include "runner.h"

#include <stdio.h>
#include <string.h>

static const char *const PLAYERS[] = {"blue", "red"};

/* A round from the case's state, or why it was refused. */
static Verdict setup(const cJSON *c, ArbiterTripleTriad **g) {
    Verdict why = NULL;
    const cJSON *state = input(c, "state", &why);
    if (!state) return why;
    char *json = cJSON_PrintUnformatted(state);
    ArbiterStatus st = arbiter_triple_triad_from_json(json, strlen(json), g);
    free(json);
    return st ? api_failure("bad state", st) : NULL;
}

/* Plays `card@cell` (0-based card of the mover's hand, a cell number). */
static ArbiterStatus play_card(ArbiterTripleTriad *g, uint64_t card, uint64_t cell) {
    char move[48];
    int n = snprintf(move, sizeof move, "%llu@%llu", (unsigned long long)card, (unsigned long long)cell);
    return arbiter_triple_triad_play(g, move, (size_t)n);
}

/* The case's moves played on its state: the round, or why the state or a move was refused. */
static Verdict play_moves(const cJSON *c, const cJSON *moves, ArbiterTripleTriad **out) {
    ArbiterTripleTriad *g = NULL;
    Verdict why = setup(c, &g);
    int i = 0;
    const cJSON *mv;
    cJSON_ArrayForEach(mv, moves) {
        if (why) break;
        uint64_t card, cell;
        if (!whole(cJSON_GetObjectItemCaseSensitive(mv, "card"), 255, &card) ||
            !whole(cJSON_GetObjectItemCaseSensitive(mv, "cell"), 255, &cell)) {
            why = failf("move %d: not {\"card\": 0 to 255, \"cell\": 0 to 255}", i);
        } else {
            ArbiterStatus st = play_card(g, card, cell);
            if (st) why = api_failure("move refused", st);
        }
        i++;
    }
    if (why) {
        arbiter_triple_triad_free(g);
        return why;
    }
    *out = g;
    return NULL;
}

/* The board as the cases write it: nine entries, null or {"name", "owner"}. */
static cJSON *board_json(const ArbiterTripleTriad *g) {
    ArbiterStatus st;
    cJSON *state;
    ARBITER_JSON(state, st, arbiter_triple_triad_to_json, g);
    cJSON *board = cJSON_CreateArray();
    const cJSON *cell;
    cJSON_ArrayForEach(cell, cJSON_GetObjectItemCaseSensitive(state, "board")) {
        if (cJSON_IsNull(cell)) {
            cJSON_AddItemToArray(board, cJSON_CreateNull());
            continue;
        }
        const cJSON *card = cJSON_GetObjectItemCaseSensitive(cell, "card");
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddItemToObject(entry, "name", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(card, "name"), 1));
        cJSON_AddItemToObject(entry, "owner", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(cell, "owner"), 1));
        cJSON_AddItemToArray(board, entry);
    }
    cJSON_Delete(state);
    return st ? NULL : board;
}

/* The steps of the last move (`null` before any), from the library's account of it. */
static cJSON *last_steps(const ArbiterTripleTriad *g) {
    ArbiterStatus st;
    cJSON *last;
    ARBITER_JSON(last, st, arbiter_triple_triad_last_captures, g);
    if (st) return NULL;
    cJSON *steps = cJSON_IsNull(last) ? cJSON_CreateNull() : cJSON_DetachItemFromObjectCaseSensitive(last, "steps");
    cJSON_Delete(last);
    return steps;
}

static Verdict play(const cJSON *c, const cJSON *expect) {
    Verdict why = NULL;
    const cJSON *moves = input(c, "moves", &why);
    if (!moves) return why;
    if (!cJSON_IsArray(moves)) return failf("malformed case: \"moves\" is not a list");
    ArbiterTripleTriad *g = NULL;
    why = play_moves(c, moves, &g);
    if (wants_error(expect)) {
        arbiter_triple_triad_free(g);
        return refused(why, "the state and every move were accepted");
    }
    if (why) return why;
    uint32_t score[2];
    bool over;
    int32_t outcome;
    arbiter_triple_triad_score(g, 0, &score[0]);
    arbiter_triple_triad_score(g, 1, &score[1]);
    arbiter_triple_triad_is_over(g, &over);
    arbiter_triple_triad_outcome(g, &outcome);
    why = check(expect, "board", board_json(g));
    if (!why) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddNumberToObject(s, "blue", score[0]);
        cJSON_AddNumberToObject(s, "red", score[1]);
        why = check(expect, "score", s);
    }
    if (!why) why = check(expect, "over", cJSON_CreateBool(over));
    if (!why) why = check(expect, "winner", outcome_json(outcome, PLAYERS));
    if (!why && cJSON_GetObjectItemCaseSensitive(expect, "steps")) why = check(expect, "steps", last_steps(g));
    arbiter_triple_triad_free(g);
    return why;
}

static Verdict perft(const cJSON *c, const cJSON *expect) {
    Verdict why = NULL;
    uint64_t depth, nodes;
    if (!input_whole(c, "depth", UINT32_MAX, &depth, &why)) return why;
    ArbiterTripleTriad *g = NULL;
    why = setup(c, &g);
    if (!why) {
        ArbiterStatus st = arbiter_triple_triad_perft(g, (uint32_t)depth, &nodes);
        if (st) why = api_failure("perft", st);
    }
    arbiter_triple_triad_free(g);
    if (wants_error(expect)) return refused(why, "the state was accepted");
    return why ? why : check(expect, "nodes", cJSON_CreateNumber((double)nodes));
}

static Verdict solve(const cJSON *c, const cJSON *expect) {
    ArbiterTripleTriad *g = NULL;
    Verdict why = setup(c, &g);
    int32_t value = 0;
    uint32_t action;
    if (!why) {
        ArbiterStatus st = arbiter_triple_triad_solve(g, &value, &action);
        if (st) why = api_failure("solve", st);
    }
    arbiter_triple_triad_free(g);
    if (wants_error(expect)) return refused(why, "the state was accepted");
    return why ? why : check(expect, "value", cJSON_CreateNumber(value));
}

Verdict run_triple_triad(const char *kind, const cJSON *c, const cJSON *expect) {
    if (strcmp(kind, "play") == 0) return play(c, expect);
    if (strcmp(kind, "perft") == 0) return perft(c, expect);
    if (strcmp(kind, "solve") == 0) return solve(c, expect);
    if (strcmp(kind, "match") == 0) return run_triple_triad_match(c, expect);
    return failf("unknown kind \"%s\" for triple-triad", kind);
}
