/* Triple Triad match cases: a whole match, its rounds, its winner and the trade. */
#include "runner.h"

#include <stdio.h>
#include <string.h>

/* A field the case may leave out or set to null: then `fallback` (a JSON text) stands for it. */
static cJSON *field_or(const cJSON *c, const char *key, const char *fallback) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(c, key);
    return item && !cJSON_IsNull(item) ? cJSON_Duplicate(item, 1) : cJSON_Parse(fallback);
}

/* The match's JSON (`{config, blue, red, seed}`) from the case's fields, or why it cannot be. */
static Verdict match_json(const cJSON *c, char **out) {
    static const char *const required[] = {"blue", "red", "sudden_death", "round_limit", "trade", "first"};
    Verdict why = NULL;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!input(c, required[i], &why)) return why;
    cJSON *config = cJSON_CreateObject();
    cJSON_AddItemToObject(config, "rules", field_or(c, "rules", "{}"));
    cJSON *elements = cJSON_CreateObject();
    cJSON_AddItemToObject(elements, "given", field_or(c, "elements", "[null,null,null,null,null,null,null,null,null]"));
    cJSON_AddItemToObject(config, "elements", elements);
    cJSON_AddItemToObject(config, "walls", field_or(c, "walls", "[]"));
    static const char *const copied[] = {"sudden_death", "round_limit", "trade", "first"};
    for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++)
        cJSON_AddItemToObject(config, copied[i], cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(c, copied[i]), 1));
    cJSON_AddItemToObject(config, "owned", field_or(c, "owned", "null"));
    cJSON *m = cJSON_CreateObject();
    cJSON_AddItemToObject(m, "config", config);
    cJSON_AddItemToObject(m, "blue", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(c, "blue"), 1));
    cJSON_AddItemToObject(m, "red", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(c, "red"), 1));
    cJSON_AddNumberToObject(m, "seed", 0);
    *out = cJSON_PrintUnformatted(m);
    cJSON_Delete(m);
    return NULL;
}

/* Plays the move naming a card of the mover's hand onto a cell. */
static Verdict play_named(ArbiterTripleTriadMatch *m, const cJSON *mv) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(mv, "card");
    uint64_t cell;
    if (!cJSON_IsString(name)) return failf("a move without a card name");
    if (!whole(cJSON_GetObjectItemCaseSensitive(mv, "cell"), 255, &cell)) return failf("a move without a cell from 0 to 255");
    int32_t mover;
    ArbiterStatus st = arbiter_triple_triad_match_to_move(m, &mover);
    if (st) return api_failure("to_move", st);
    if (mover < 0) return failf("a move after the end of the round");
    cJSON *view;
    ARBITER_JSON(view, st, arbiter_triple_triad_match_observation, m, mover);
    if (st) return api_failure("observation", st);
    static const char *const players[] = {"blue", "red"};
    int card = index_of_name(cJSON_GetObjectItemCaseSensitive(view, "hand"), name->valuestring);
    cJSON_Delete(view);
    if (card < 0) return failf("%s holds no %s", players[mover], name->valuestring);
    char text[48];
    int n = snprintf(text, sizeof text, "%d@%llu", card, (unsigned long long)cell);
    st = arbiter_triple_triad_match_play(m, text, (size_t)n);
    return st ? api_failure("move refused", st) : NULL;
}

/* The winner's picks as indices among the cards the loser brought. */
static Verdict picks_of(const cJSON *c, ArbiterTripleTriadMatch *m, const cJSON *result, uint8_t picks[5], size_t *n) {
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(c, "picks");
    *n = 0;
    if (!list || cJSON_IsNull(list)) return NULL;
    if (!cJSON_IsArray(list)) return failf("picks: not a list");
    const cJSON *winner = cJSON_GetObjectItemCaseSensitive(result, "winner");
    /* Picks name cards the loser brought; a match without a winner has no loser to pick from. */
    cJSON *brought = NULL;
    if (cJSON_IsString(winner)) {
        ArbiterStatus st;
        int32_t loser = strcmp(winner->valuestring, "blue") == 0 ? 1 : 0;
        ARBITER_JSON(brought, st, arbiter_triple_triad_match_brought, m, loser);
        if (st) return api_failure("brought", st);
    }
    Verdict why = NULL;
    const cJSON *pick;
    cJSON_ArrayForEach(pick, list) {
        int i = cJSON_IsString(pick) && brought ? index_of_name(brought, pick->valuestring) : -1;
        if (i < 0 || *n == 5) {
            why = failf("pick %s is not a card the loser brought", cJSON_IsString(pick) ? pick->valuestring : "?");
            break;
        }
        picks[(*n)++] = (uint8_t)i;
    }
    cJSON_Delete(brought);
    return why;
}

/* Plays the case's match and settles its trade: the match, or why it was refused. */
static Verdict play(const cJSON *c, ArbiterTripleTriadMatch **out) {
    char *json = NULL;
    Verdict why = match_json(c, &json);
    if (why) return why;
    ArbiterTripleTriadMatch *m = NULL;
    ArbiterStatus st = arbiter_triple_triad_match_from_json(json, strlen(json), &m);
    free(json);
    if (st) return api_failure("bad match", st);
    const cJSON *rounds = input(c, "rounds", &why);
    if (rounds && !cJSON_IsArray(rounds)) why = failf("rounds is not a list");
    int n = 0;
    const cJSON *round, *played = why ? NULL : rounds;
    cJSON_ArrayForEach(round, played) {
        bool over;
        arbiter_triple_triad_match_is_over(m, &over);
        if (over) why = failf("round %d after the end of the match", n + 1);
        else if (!cJSON_IsArray(round)) why = failf("a round is not a list");
        const cJSON *mv, *moves = why ? NULL : round;
        cJSON_ArrayForEach(mv, moves) {
            if ((why = play_named(m, mv))) break;
        }
        uint32_t number;
        arbiter_triple_triad_match_is_over(m, &over);
        arbiter_triple_triad_match_round_number(m, &number);
        if (!why && !over && number != (uint32_t)n + 2) why = failf("round %d ends before the board is full", n + 1);
        if (why) break;
        n++;
    }
    cJSON *result = NULL;
    if (!why) ARBITER_JSON(result, st, arbiter_triple_triad_match_result, m);
    if (!why && cJSON_IsNull(result)) why = failf("the rounds end before the match does");
    uint8_t picks[5];
    size_t count = 0;
    if (!why) why = picks_of(c, m, result, picks, &count);
    if (!why && (st = arbiter_triple_triad_match_settle_trade(m, picks, count))) why = api_failure("trade", st);
    cJSON_Delete(result);
    if (why) {
        arbiter_triple_triad_match_free(m);
        return why;
    }
    *out = m;
    return NULL;
}

/* A round's or match's winner as the cases write it. */
static cJSON *winner_json(const cJSON *winner) {
    return cJSON_CreateString(cJSON_IsString(winner) ? winner->valuestring : "draw");
}

static cJSON *rounds_json(const ArbiterTripleTriadMatch *m) {
    ArbiterStatus st;
    cJSON *rounds, *out = cJSON_CreateArray();
    ARBITER_JSON(rounds, st, arbiter_triple_triad_match_rounds, m);
    const cJSON *r;
    cJSON_ArrayForEach(r, rounds) {
        const cJSON *scores = cJSON_GetObjectItemCaseSensitive(r, "scores");
        cJSON *score = cJSON_CreateObject();
        cJSON_AddItemToObject(score, "blue", cJSON_Duplicate(cJSON_GetArrayItem(scores, 0), 1));
        cJSON_AddItemToObject(score, "red", cJSON_Duplicate(cJSON_GetArrayItem(scores, 1), 1));
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddItemToObject(entry, "score", score);
        cJSON_AddItemToObject(entry, "winner", winner_json(cJSON_GetObjectItemCaseSensitive(r, "winner")));
        cJSON_AddItemToArray(out, entry);
    }
    cJSON_Delete(rounds);
    return out;
}

static cJSON *transfers_json(const ArbiterTripleTriadMatch *m) {
    ArbiterStatus st;
    cJSON *transfers, *out = cJSON_CreateArray();
    ARBITER_JSON(transfers, st, arbiter_triple_triad_match_transfers, m);
    const cJSON *t;
    cJSON_ArrayForEach(t, transfers) {
        cJSON *entry = cJSON_CreateObject();
        const cJSON *card = cJSON_GetObjectItemCaseSensitive(t, "card");
        cJSON_AddItemToObject(entry, "card", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(card, "name"), 1));
        cJSON_AddItemToObject(entry, "from", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(t, "from"), 1));
        cJSON_AddItemToObject(entry, "to", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(t, "to"), 1));
        cJSON_AddItemToArray(out, entry);
    }
    cJSON_Delete(transfers);
    return out;
}

Verdict run_triple_triad_match(const cJSON *c, const cJSON *expect) {
    ArbiterTripleTriadMatch *m = NULL;
    Verdict why = play(c, &m);
    if (wants_error(expect)) {
        arbiter_triple_triad_match_free(m);
        return refused(why, "the match was played and settled");
    }
    if (why) return why;
    ArbiterStatus st;
    cJSON *result;
    ARBITER_JSON(result, st, arbiter_triple_triad_match_result, m);
    why = check(expect, "rounds", rounds_json(m));
    if (!why) why = check(expect, "winner", winner_json(cJSON_GetObjectItemCaseSensitive(result, "winner")));
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(expect, "transfers");
    if (!why && want) {
        cJSON *got = transfers_json(m);
        if (!same_multiset(want, got)) why = mismatch("transfers", want, got);
        cJSON_Delete(got);
    }
    cJSON_Delete(result);
    arbiter_triple_triad_match_free(m);
    return why;
}
