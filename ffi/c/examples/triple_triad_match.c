/* A Triple Triad match against the built-in opponent in the terminal: you are blue.
 *
 *   triple_triad_match [--preset ff8|ttonline|mush|ffforever] [--seed N] [--level random|greedy|perfect]
 *                      [--auto]
 *
 * Type moves as CARD@CELL (the card's position in your hand, 0-4, onto cell 0-8, row by row).
 * With --auto the opponent plays both sides (a demonstration, and the test of this example). */
#include "example.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const NAMES[] = {"blue", "red"};

static void print_card(const cJSON *card, const char *owner) {
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(card, "ranks");
    printf(" %c%X%X%X%X %-14.14s", owner ? toupper((unsigned char)owner[0]) : ' ', cJSON_GetArrayItem(ranks, 0)->valueint,
           cJSON_GetArrayItem(ranks, 1)->valueint, cJSON_GetArrayItem(ranks, 2)->valueint,
           cJSON_GetArrayItem(ranks, 3)->valueint, cJSON_GetObjectItemCaseSensitive(card, "name")->valuestring);
}

/* The board and your hand as blue sees them (ranks top, right, bottom, left; A is 10). */
static void show(const ArbiterTripleTriadMatch *m) {
    cJSON *obs;
    FETCH_JSON(obs, arbiter_triple_triad_match_observation, m, 0);
    const cJSON *board = cJSON_GetObjectItemCaseSensitive(obs, "board");
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++) {
            const cJSON *cell = cJSON_GetArrayItem(board, row * 3 + col);
            if (cJSON_IsNull(cell))
                printf(" [%d]%16s", row * 3 + col, "");
            else
                print_card(cJSON_GetObjectItemCaseSensitive(cell, "card"),
                           cJSON_GetObjectItemCaseSensitive(cell, "owner")->valuestring);
        }
        printf("\n");
    }
    printf("your hand:");
    int i = 0;
    const cJSON *card;
    cJSON_ArrayForEach(card, cJSON_GetObjectItemCaseSensitive(obs, "hand")) {
        printf(" %d:", i++);
        print_card(card, NULL);
    }
    printf("\n");
    cJSON_Delete(obs);
}

/* What the last move flipped, by which rule. */
static void explain(const ArbiterTripleTriadMatch *m) {
    ArbiterTripleTriad *round;
    cJSON *captures;
    must(arbiter_triple_triad_match_game(m, &round), "game");
    FETCH_JSON(captures, arbiter_triple_triad_last_captures, round);
    const cJSON *flip;
    cJSON_ArrayForEach(flip, cJSON_GetObjectItemCaseSensitive(captures, "flips")) {
        printf("  cell %d flips (%s)\n", cJSON_GetObjectItemCaseSensitive(flip, "cell")->valueint,
               cJSON_GetObjectItemCaseSensitive(flip, "rule")->valuestring);
    }
    cJSON_Delete(captures);
    arbiter_triple_triad_free(round);
}

/* Your move, read until the library accepts it; 0 at the end of input. */
static int human_move(ArbiterTripleTriadMatch *m) {
    char line[64];
    for (;;) {
        printf("your move (card@cell): ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) return 0;
        line[strcspn(line, "\r\n")] = 0;
        if (arbiter_triple_triad_match_play(m, line, strlen(line)) == ARBITER_OK) return 1;
        printf("  %s\n", arbiter_last_error());
    }
}

static void computer_move(ArbiterTripleTriadMatch *m, const char *level, uint64_t seed) {
    uint32_t action;
    must(arbiter_triple_triad_match_choose(m, level, strlen(level), seed, &action), "choose");
    must(arbiter_triple_triad_match_play_action(m, action), "play");
    printf("  plays %u@%u\n", action / 9, action % 9); /* ids are card * 9 + cell */
}

/* The trade: the winner picks among the loser's cards (here the first ones). */
static void trade(ArbiterTripleTriadMatch *m) {
    ArbiterTradeChoice choice;
    cJSON *loser, *transfers;
    must(arbiter_triple_triad_match_trade_choice(m, &choice), "trade_choice");
    uint8_t picks[5] = {0, 1, 2, 3, 4};
    if (choice.kind != ARBITER_TRADE_AUTOMATIC) {
        printf("%s takes %u of %s's cards (%s):", NAMES[choice.chooser], choice.count, NAMES[1 - choice.chooser],
               choice.kind == ARBITER_TRADE_PICK ? "picks" : "a swap");
        FETCH_JSON(loser, arbiter_triple_triad_match_brought, m, 1 - choice.chooser);
        const cJSON *card;
        cJSON_ArrayForEach(card, loser) print_card(card, NULL);
        printf("\n");
        cJSON_Delete(loser);
    }
    must(arbiter_triple_triad_match_settle_trade(m, picks, choice.count), "settle_trade");
    FETCH_JSON(transfers, arbiter_triple_triad_match_transfers, m);
    const cJSON *t;
    cJSON_ArrayForEach(t, transfers) {
        printf("  %s goes from %s to %s\n",
               cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "card"), "name")->valuestring,
               cJSON_GetObjectItemCaseSensitive(t, "from")->valuestring,
               cJSON_GetObjectItemCaseSensitive(t, "to")->valuestring);
    }
    cJSON_Delete(transfers);
}

int main(int argc, char **argv) {
    const char *preset = "ff8", *level = "greedy";
    uint64_t seed = 1;
    int automatic = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--auto") == 0) automatic = 1;
        else if (i + 1 < argc && strcmp(argv[i], "--preset") == 0) preset = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--level") == 0) level = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0) seed = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--preset P] [--seed N] [--level L] [--auto]\n", argv[0]);
            return 2;
        }
    }
    ArbiterTripleTriadMatch *m;
    must(arbiter_triple_triad_match_from_preset(preset, strlen(preset), seed, &m), "from_preset");
    bool over = false;
    uint32_t shown = 0, number;
    for (uint64_t turn = 0; !over; turn++) {
        int32_t mover;
        must(arbiter_triple_triad_match_round_number(m, &number), "round_number");
        must(arbiter_triple_triad_match_to_move(m, &mover), "to_move");
        if (number != shown) printf("== round %u ==\n", shown = number);
        show(m);
        printf("%s to move\n", NAMES[mover]);
        if (mover == 0 && !automatic) {
            if (!human_move(m)) break;
        } else {
            computer_move(m, level, seed + turn);
        }
        explain(m);
        must(arbiter_triple_triad_match_is_over(m, &over), "is_over");
    }
    if (over) {
        cJSON *result;
        FETCH_JSON(result, arbiter_triple_triad_match_result, m);
        const cJSON *winner = cJSON_GetObjectItemCaseSensitive(result, "winner");
        const cJSON *scores = cJSON_GetObjectItemCaseSensitive(result, "scores");
        printf("match over after %d round(s): %d-%d, %s\n", cJSON_GetObjectItemCaseSensitive(result, "rounds")->valueint,
               cJSON_GetArrayItem(scores, 0)->valueint, cJSON_GetArrayItem(scores, 1)->valueint,
               cJSON_IsString(winner) ? (strcmp(winner->valuestring, "blue") == 0 ? "blue wins" : "red wins") : "a draw");
        cJSON_Delete(result);
        trade(m);
    }
    arbiter_triple_triad_match_free(m);
    return 0;
}
