/* A Nantong deal played by three computer players, then the itemised score.
 *
 *   nantong_deal [SEED]
 */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints one seat's breakdown: groups with their base hu and doublings, bonuses, multipliers. */
static void print_seat(int seat, const cJSON *p) {
    printf("seat %d: total %d (raw %d, base %d)\n", seat, cJSON_GetObjectItemCaseSensitive(p, "total")->valueint,
           cJSON_GetObjectItemCaseSensitive(p, "raw")->valueint, cJSON_GetObjectItemCaseSensitive(p, "base")->valueint);
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(p, "groups")) {
        char *doublings = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(item, "doublings"));
        printf("  %-3s %-16s base %3d, doublings %s: %d\n", cJSON_GetObjectItemCaseSensitive(item, "card")->valuestring,
               cJSON_GetObjectItemCaseSensitive(item, "source")->valuestring,
               cJSON_GetObjectItemCaseSensitive(item, "base")->valueint, doublings,
               cJSON_GetObjectItemCaseSensitive(item, "value")->valueint);
        free(doublings);
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(p, "bonuses")) {
        printf("  bonus %s +%d\n", cJSON_GetObjectItemCaseSensitive(item, "name")->valuestring,
               cJSON_GetObjectItemCaseSensitive(item, "value")->valueint);
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(p, "multipliers")) {
        printf("  doubled: %s\n", item->valuestring);
    }
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    ArbiterNantong *deal;
    must(arbiter_nantong_new(seed, &deal), "new");
    uint32_t action;
    int32_t seat;
    char text[64];
    size_t size, actions = 0;
    /* Each seat's built-in opponent sees only that seat's observation. */
    for (uint64_t s = seed; arbiter_nantong_choose(deal, "basic", 5, s, &action) == ARBITER_OK; s++) {
        must(arbiter_nantong_actor(deal, &seat), "actor");
        must(arbiter_nantong_action_text(deal, action, text, sizeof text, &size), "action_text");
        if (strcmp(text, "pass") != 0) printf("seat %d: %s\n", seat, text);
        must(arbiter_nantong_play_action(deal, action), "play_action");
        actions++;
    }
    int32_t outcome;
    must(arbiter_nantong_outcome(deal, &outcome), "outcome");
    printf("after %zu actions: %s\n", actions, outcome >= 0 ? "a win" : "the stock ran out");
    if (outcome >= 0) printf("winner: seat %d\n", outcome);
    cJSON *score;
    FETCH_JSON(score, arbiter_nantong_score, deal);
    int i = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(score, "players")) print_seat(i++, p);
    char *totals = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(score, "totals"));
    char *settlement = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(score, "settlement"));
    printf("totals %s, settlement %s\n", totals, settlement);
    free(totals);
    free(settlement);
    cJSON_Delete(score);
    arbiter_nantong_free(deal);
    return 0;
}
