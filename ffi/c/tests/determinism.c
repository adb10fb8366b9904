/* The same seeds and moves give the same games as in Rust, JavaScript and Python: the self-play
 * games of wasm/js-tests/fixtures/selfplay.json (computed natively by wasm/tests/selfplay.rs, replayed
 * by the npm package's and the Python package's tests) are played again through the C library,
 * move for move, and the final saves compared, random generators included.
 * Move i is chosen by the level levels[i % count] with the seed `seed + i`. */
#include <arbiter.h>
#include <cjson/cJSON.h>

#include "read_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void fail(const char *game, const char *what) {
    fprintf(stderr, "%s: %s (%s)\n", game, what, arbiter_last_error());
    failures++;
}

/* A text the library writes into a caller's buffer, asked twice: its size, then the text. */
#define TEXT(out, call, ...)                                                            \
    do {                                                                                \
        size_t size_ = 0;                                                               \
        (out) = NULL;                                                                   \
        if (call(__VA_ARGS__, NULL, 0, &size_) == ARBITER_BUFFER_TOO_SMALL) {           \
            (out) = malloc(size_);                                                      \
            if (call(__VA_ARGS__, (out), size_, &size_) != ARBITER_OK) {                \
                free(out);                                                              \
                (out) = NULL;                                                           \
            }                                                                           \
        }                                                                               \
    } while (0)

/* A game's levels (`arbiter_<game>_levels`, the same shape for every game), parsed. */
static cJSON *levels_of(ArbiterStatus (*levels)(char *, size_t, size_t *)) {
    size_t size = 0;
    if (levels(NULL, 0, &size) != ARBITER_BUFFER_TOO_SMALL) return NULL;
    char *text = malloc(size);
    cJSON *parsed = levels(text, size, &size) == ARBITER_OK ? cJSON_Parse(text) : NULL;
    free(text);
    return parsed;
}

/* Whether two JSON texts are the same data. */
static int same_json(const char *a, const char *b) {
    cJSON *x = cJSON_Parse(a), *y = cJSON_Parse(b);
    int same = x && y && cJSON_Compare(x, y, 1);
    cJSON_Delete(x);
    cJSON_Delete(y);
    return same;
}

/* Self-play of one round game through its C functions, checked against the fixture's moves and
 * final save. The functions have one shape in every game: written once, per game by name. */
#define SELFPLAY(prefix, Handle)                                                                   \
    static void prefix##_agrees(const char *name, Handle *g, const cJSON *entry) {                \
        cJSON *levels = levels_of(arbiter_##prefix##_levels);                                      \
        const cJSON *moves = cJSON_GetObjectItemCaseSensitive(                                     \
            cJSON_GetObjectItemCaseSensitive(entry, "game"), "moves");                             \
        const cJSON *final = cJSON_GetObjectItemCaseSensitive(                                     \
            cJSON_GetObjectItemCaseSensitive(entry, "game"), "final");                             \
        uint64_t seed = (uint64_t)cJSON_GetObjectItemCaseSensitive(entry, "seed")->valuedouble;    \
        int count = cJSON_GetArraySize(levels), played = 0;                                        \
        if (!cJSON_IsArray(moves) || !cJSON_IsString(final) || count == 0) {                       \
            fail(name, "malformed fixture");                                                       \
            cJSON_Delete(levels);                                                                  \
            return;                                                                                \
        }                                                                                          \
        for (;; played++) {                                                                        \
            const char *level = cJSON_GetArrayItem(levels, played % count)->valuestring;          \
            uint32_t id;                                                                           \
            ArbiterStatus st = arbiter_##prefix##_choose(g, level, strlen(level), seed + played, &id); \
            if (st == ARBITER_GAME_OVER) break;                                                    \
            char text[64];                                                                         \
            size_t size;                                                                           \
            const cJSON *want = cJSON_GetArrayItem(moves, played);                                 \
            if (st != ARBITER_OK ||                                                                \
                arbiter_##prefix##_action_text(g, id, text, sizeof text, &size) != ARBITER_OK ||   \
                !cJSON_IsString(want) || strcmp(text, want->valuestring) != 0) {                  \
                fprintf(stderr, "%s: move %d is %s, Rust played %s\n", name, played, text,         \
                        cJSON_IsString(want) ? want->valuestring : "nothing");                     \
                failures++;                                                                        \
                break;                                                                             \
            }                                                                                      \
            if (arbiter_##prefix##_play_action(g, id) != ARBITER_OK) fail(name, "play_action");    \
        }                                                                                          \
        if (played != cJSON_GetArraySize(moves)) fail(name, "a game of another length");          \
        Handle *rust = NULL;                                                                       \
        char *ours, *theirs = NULL;                                                                \
        TEXT(ours, arbiter_##prefix##_to_json, g);                                                 \
        if (arbiter_##prefix##_from_json(final->valuestring, strlen(final->valuestring), &rust) == \
            ARBITER_OK)                                                                            \
            TEXT(theirs, arbiter_##prefix##_to_json, rust);                                        \
        if (!ours || !theirs || !same_json(ours, theirs)) fail(name, "another final state");       \
        free(ours);                                                                                \
        free(theirs);                                                                              \
        arbiter_##prefix##_free(rust);                                                             \
        cJSON_Delete(levels);                                                                      \
        printf("%s: %d moves as in Rust\n", name, played);                                         \
    }

SELFPLAY(triple_triad, ArbiterTripleTriad)
SELFPLAY(trax, ArbiterTrax)
SELFPLAY(nantong, ArbiterNantong)

static const cJSON *item(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s wasm/js-tests/fixtures/selfplay.json\n", argv[0]);
        return 2;
    }
    char *text = read_file(argv[1]);
    cJSON *fixture = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!fixture) {
        fprintf(stderr, "%s: cannot read the fixture\n", argv[1]);
        return 2;
    }

    const cJSON *tt = item(fixture, "triple-triad");
    const char *preset = item(item(tt, "start"), "preset")->valuestring;
    ArbiterTripleTriad *round = NULL;
    if (arbiter_triple_triad_from_preset(preset, strlen(preset),
                                         (uint64_t)item(item(tt, "start"), "seed")->valuedouble,
                                         &round) != ARBITER_OK)
        fail("triple-triad", "from_preset");
    else
        triple_triad_agrees("triple-triad", round, tt);
    arbiter_triple_triad_free(round);

    const cJSON *tx = item(fixture, "trax");
    const char *variant = item(item(tx, "start"), "variant")->valuestring;
    ArbiterTrax *trax = NULL;
    if (arbiter_trax_new(variant, strlen(variant), &trax) != ARBITER_OK)
        fail("trax", "new");
    else
        trax_agrees("trax", trax, tx);
    arbiter_trax_free(trax);

    /* Nantong: the deal, then the next deal, whose generator state (beyond 2^53) must agree. */
    const cJSON *nt = item(fixture, "nantong");
    ArbiterNantong *deal = NULL, *next = NULL, *rust = NULL, *rust_next = NULL;
    const char *final = item(item(nt, "game"), "final")->valuestring;
    if (arbiter_nantong_new((uint64_t)item(item(nt, "start"), "seed")->valuedouble, &deal) != ARBITER_OK) {
        fail("nantong", "new");
    } else {
        nantong_agrees("nantong", deal, nt);
        char *ours = NULL, *theirs = NULL;
        if (arbiter_nantong_next_deal(deal, &next) == ARBITER_OK &&
            arbiter_nantong_from_json(final, strlen(final), &rust) == ARBITER_OK &&
            arbiter_nantong_next_deal(rust, &rust_next) == ARBITER_OK) {
            TEXT(ours, arbiter_nantong_to_json, next);
            TEXT(theirs, arbiter_nantong_to_json, rust_next);
        }
        if (!ours || !theirs || !same_json(ours, theirs)) fail("nantong", "another next deal");
        free(ours);
        free(theirs);
    }
    arbiter_nantong_free(deal);
    arbiter_nantong_free(next);
    arbiter_nantong_free(rust);
    arbiter_nantong_free(rust_next);

    /* A Triple Triad match: rounds by the match's own choose, moves named through a copy of
     * the round, then the trade with the picks the fixture made. */
    const cJSON *mt = item(fixture, "triple-triad-match");
    const char *mpreset = item(item(mt, "start"), "preset")->valuestring;
    ArbiterTripleTriadMatch *m = NULL;
    if (arbiter_triple_triad_match_from_preset(mpreset, strlen(mpreset),
                                               (uint64_t)item(item(mt, "start"), "seed")->valuedouble,
                                               &m) != ARBITER_OK) {
        fail("triple-triad-match", "from_preset");
    } else {
        cJSON *levels = levels_of(arbiter_triple_triad_levels);
        const cJSON *moves = item(item(mt, "game"), "moves"), *picks = item(item(mt, "game"), "picks");
        uint64_t seed = (uint64_t)item(mt, "seed")->valuedouble;
        int count = cJSON_GetArraySize(levels), played = 0;
        for (;; played++) {
            const char *level = cJSON_GetArrayItem(levels, played % count)->valuestring;
            uint32_t id;
            if (arbiter_triple_triad_match_choose(m, level, strlen(level), seed + played, &id) != ARBITER_OK) break;
            ArbiterTripleTriad *copy = NULL;
            char text[16] = "";
            size_t size;
            if (arbiter_triple_triad_match_game(m, &copy) == ARBITER_OK)
                arbiter_triple_triad_action_text(copy, id, text, sizeof text, &size);
            arbiter_triple_triad_free(copy);
            const cJSON *want = cJSON_GetArrayItem(moves, played);
            if (!cJSON_IsString(want) || strcmp(text, want->valuestring) != 0) {
                fprintf(stderr, "triple-triad-match: move %d is %s, Rust played %s\n", played, text,
                        cJSON_IsString(want) ? want->valuestring : "nothing");
                failures++;
                break;
            }
            if (arbiter_triple_triad_match_play_action(m, id) != ARBITER_OK) fail("triple-triad-match", "play");
        }
        if (played != cJSON_GetArraySize(moves)) fail("triple-triad-match", "a match of another length");
        ArbiterTradeChoice choice;
        uint8_t chosen[5] = {0, 1, 2, 3, 4};
        size_t n = 0;
        if (arbiter_triple_triad_match_trade_choice(m, &choice) != ARBITER_OK) fail("triple-triad-match", "trade_choice");
        else if (choice.kind == ARBITER_TRADE_PICK) n = choice.count;
        else if (choice.kind == ARBITER_TRADE_SWAP) n = 1;
        if ((int)n != cJSON_GetArraySize(picks)) fail("triple-triad-match", "other picks");
        for (size_t i = 0; i < n && i < 5; i++)
            if (cJSON_GetArrayItem(picks, (int)i)->valueint != chosen[i]) fail("triple-triad-match", "other picks");
        if (arbiter_triple_triad_match_settle_trade(m, chosen, n) != ARBITER_OK) fail("triple-triad-match", "settle_trade");
        const char *mfinal = item(item(mt, "game"), "final")->valuestring;
        ArbiterTripleTriadMatch *rust_match = NULL;
        char *ours = NULL, *theirs = NULL;
        TEXT(ours, arbiter_triple_triad_match_to_json, m);
        if (arbiter_triple_triad_match_from_json(mfinal, strlen(mfinal), &rust_match) == ARBITER_OK)
            TEXT(theirs, arbiter_triple_triad_match_to_json, rust_match);
        if (!ours || !theirs || !same_json(ours, theirs)) fail("triple-triad-match", "another final state");
        else printf("triple-triad-match: %d moves and the trade as in Rust\n", played);
        free(ours);
        free(theirs);
        arbiter_triple_triad_match_free(rust_match);
        cJSON_Delete(levels);
    }
    arbiter_triple_triad_match_free(m);

    cJSON_Delete(fixture);
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
