/* Random playouts through the C API: the speed of the library per action.
 *
 *   arbiter-c-bench triple-triad|trax|nantong PLAYOUTS
 *
 * Playout i starts from seed i (Triple Triad: the ff8 preset's hands; Trax: an empty 8x8 board;
 * Nantong: the deal of seed i) and plays uniformly random legal actions drawn from SplitMix64
 * seeded with i, the engine's own generator, so that `cargo run --release -p arbiter-benches
 * --example playouts -- GAME PLAYOUTS` plays exactly the same games in Rust: both print the same
 * action count. */
/* clock_gettime is POSIX, outside strict C99. */
#define _POSIX_C_SOURCE 199309L
#include "example.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* arbiter_core::Rng, bit for bit. */
static uint64_t next_u64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *state, uint64_t n) {
    uint64_t threshold = -n % n;
    for (;;) {
        unsigned __int128 m = (unsigned __int128)next_u64(state) * n;
        if ((uint64_t)m >= threshold) return (uint64_t)(m >> 64);
    }
}

/* One game's calls, so that the playout loop is written once. */
#define PLAYOUT(Game, prefix, create)                                                               \
    static uint64_t playout_##prefix(uint64_t seed, uint32_t *ids, size_t cap) {                    \
        Game *g;                                                                                    \
        uint64_t rng = seed, actions = 0;                                                           \
        size_t n;                                                                                   \
        must(create, #prefix " create");                                                            \
        while (must(arbiter_##prefix##_legal_actions(g, ids, cap, &n), "legal_actions"), n > 0) {   \
            must(arbiter_##prefix##_play_action(g, ids[below(&rng, n)]), "play_action");            \
            actions++;                                                                              \
        }                                                                                           \
        arbiter_##prefix##_free(g);                                                                 \
        return actions;                                                                             \
    }

PLAYOUT(ArbiterTripleTriad, triple_triad, arbiter_triple_triad_from_preset("ff8", 3, seed, &g))
PLAYOUT(ArbiterTrax, trax, arbiter_trax_new("8x8", 3, &g))
PLAYOUT(ArbiterNantong, nantong, arbiter_nantong_new(seed, &g))

int main(int argc, char **argv) {
    uint64_t (*playout)(uint64_t, uint32_t *, size_t) = NULL;
    if (argc == 3 && strcmp(argv[1], "triple-triad") == 0) playout = playout_triple_triad;
    if (argc == 3 && strcmp(argv[1], "trax") == 0) playout = playout_trax;
    if (argc == 3 && strcmp(argv[1], "nantong") == 0) playout = playout_nantong;
    if (!playout) {
        fprintf(stderr, "usage: %s triple-triad|trax|nantong PLAYOUTS\n", argv[0]);
        return 2;
    }
    uint64_t playouts = strtoull(argv[2], NULL, 10), actions = 0;
    /* More than any position of the three games offers (Trax 8x8 has fewer than 300 ids). */
    static uint32_t ids[4096];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t i = 0; i < playouts; i++) actions += playout(i, ids, sizeof ids / sizeof ids[0]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%s: %llu playouts, %llu actions in %.3f s (%.0f ns per action)\n", argv[1],
           (unsigned long long)playouts, (unsigned long long)actions, s, s * 1e9 / (double)(actions ? actions : 1));
    return 0;
}
