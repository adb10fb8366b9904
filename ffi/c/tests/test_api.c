/* The C API under bad input: every kind of misuse gets its status and message and leaves the state
 * as it was; round trips, copies and the built-in opponents behave; distinct handles work from two
 * threads at once. */
#include <arbiter.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A call fails with `status` and a message containing `words`. */
#define FAILS(call, status, words)                                                                  \
    do {                                                                                            \
        ArbiterStatus st_ = (call);                                                                 \
        CHECK(st_ == (status));                                                                     \
        CHECK(strstr(arbiter_last_error(), (words)) != NULL);                                       \
    } while (0)

#define OK(call) CHECK((call) == ARBITER_OK)
#define S(text) text, strlen(text) /* a string argument: pointer and length */

/* Texts of the library, fetched in two calls (the size, then the text). */
#define TEXT_OF(out, fn, ...)                                                                       \
    do {                                                                                            \
        size_t size_ = 0;                                                                           \
        CHECK(fn(__VA_ARGS__, NULL, 0, &size_) == ARBITER_BUFFER_TOO_SMALL);                        \
        (out) = malloc(size_);                                                                      \
        OK(fn(__VA_ARGS__, (out), size_, &size_));                                                  \
        CHECK(strlen(out) + 1 == size_);                                                            \
    } while (0)

static char *tt_json(const ArbiterTripleTriad *g) {
    char *s;
    TEXT_OF(s, arbiter_triple_triad_to_json, g);
    return s;
}

static char *nantong_view(const ArbiterNantong *g) {
    char *s;
    TEXT_OF(s, arbiter_nantong_to_json, g);
    return s;
}

static char *trax_view(const ArbiterTrax *g) {
    char *s;
    TEXT_OF(s, arbiter_trax_to_json, g);
    return s;
}

/* The state after `call` is what it was before. */
#define UNCHANGED(view, g, call)                                                                    \
    do {                                                                                            \
        char *before_ = view(g);                                                                    \
        (void)(call);                                                                               \
        char *after_ = view(g);                                                                     \
        CHECK(strcmp(before_, after_) == 0);                                                        \
        free(before_);                                                                              \
        free(after_);                                                                               \
    } while (0)

static void null_pointers(void) {
    ArbiterTripleTriad *g = NULL;
    int32_t player;
    bool over;
    uint32_t id;
    size_t size;
    FAILS(arbiter_triple_triad_to_move(NULL, &player), ARBITER_NULL_POINTER, "handle is NULL");
    FAILS(arbiter_trax_is_over(NULL, &over), ARBITER_NULL_POINTER, "handle is NULL");
    FAILS(arbiter_nantong_play_action(NULL, 0), ARBITER_NULL_POINTER, "handle is NULL");
    FAILS(arbiter_triple_triad_match_settle_trade(NULL, NULL, 0), ARBITER_NULL_POINTER, "handle is NULL");
    FAILS(arbiter_triple_triad_from_preset(S("ff8"), 1, NULL), ARBITER_NULL_POINTER, "out is NULL");
    FAILS(arbiter_triple_triad_from_preset(NULL, 3, 1, &g), ARBITER_NULL_POINTER, "is NULL");
    CHECK(g == NULL);
    OK(arbiter_triple_triad_from_preset(S("ff8"), 1, &g));
    FAILS(arbiter_triple_triad_to_move(g, NULL), ARBITER_NULL_POINTER, "player is NULL");
    FAILS(arbiter_triple_triad_choose(g, S("random"), 1, NULL), ARBITER_NULL_POINTER, "action is NULL");
    FAILS(arbiter_triple_triad_to_json(g, NULL, 10, &size), ARBITER_NULL_POINTER, "buf is NULL");
    FAILS(arbiter_triple_triad_to_json(g, NULL, 0, NULL), ARBITER_NULL_POINTER, "size argument is NULL");
    UNCHANGED(tt_json, g, arbiter_triple_triad_play(g, NULL, 3));
    FAILS(arbiter_triple_triad_play(g, NULL, 3), ARBITER_NULL_POINTER, "the move is NULL");
    /* NULL with length 0 is the empty string. */
    FAILS(arbiter_triple_triad_play(g, NULL, 0), ARBITER_PARSE_ERROR, "bad move \"\"");
    FAILS(arbiter_triple_triad_action_id(g, S("0@0"), NULL), ARBITER_NULL_POINTER, "id is NULL");
    OK(arbiter_triple_triad_action_id(g, S("1@2"), &id));
    CHECK(id == 11);
    /* Frees accept NULL. */
    arbiter_triple_triad_free(NULL);
    arbiter_triple_triad_match_free(NULL);
    arbiter_trax_free(NULL);
    arbiter_nantong_free(NULL);
    arbiter_triple_triad_free(g);
}

static void text_inputs(void) {
    ArbiterTripleTriad *g;
    ArbiterTrax *t = NULL;
    OK(arbiter_triple_triad_from_preset(S("ff8"), 2, &g));
    /* A length shorter than the text: only that much is read. */
    UNCHANGED(tt_json, g, arbiter_triple_triad_play(g, "2@4", 2));
    FAILS(arbiter_triple_triad_play(g, "2@4", 2), ARBITER_PARSE_ERROR, "bad move \"2@\"");
    /* Invalid UTF-8. */
    UNCHANGED(tt_json, g, arbiter_triple_triad_play(g, "\xff@4", 3));
    FAILS(arbiter_triple_triad_play(g, "\xff@4", 3), ARBITER_PARSE_ERROR, "not UTF-8");
    FAILS(arbiter_trax_new("8x\xc0", 4, &t), ARBITER_PARSE_ERROR, "not UTF-8");
    /* Malformed notation, in each game's words. */
    UNCHANGED(tt_json, g, arbiter_triple_triad_play(g, S("9@9")));
    FAILS(arbiter_triple_triad_play(g, S("9@9")), ARBITER_PARSE_ERROR, "expected CARD@CELL");
    FAILS(arbiter_trax_new(S("9x9"), &t), ARBITER_PARSE_ERROR, "unknown Trax variant \"9x9\"");
    CHECK(t == NULL);
    OK(arbiter_trax_new(S("8x8"), &t));
    UNCHANGED(trax_view, t, arbiter_trax_play(t, S("Q")));
    FAILS(arbiter_trax_play(t, S("Q")), ARBITER_PARSE_ERROR, "malformed move \"Q\"");
    FAILS(arbiter_trax_from_record(S("8x8"), S("1. @0+ 2. A0+ 3. Z99/"), &t), ARBITER_ILLEGAL_MOVE, "move 3: ");
    /* Unknown names. */
    uint32_t action;
    FAILS(arbiter_triple_triad_choose(g, S("grandmaster"), 1, &action), ARBITER_BAD_ARGUMENT,
          "unknown level \"grandmaster\" for triple-triad");
    ArbiterTripleTriad *other = NULL;
    FAILS(arbiter_triple_triad_from_preset(S("chess"), 1, &other), ARBITER_BAD_ARGUMENT, "unknown preset \"chess\"");
    CHECK(other == NULL);
    arbiter_trax_free(t);
    arbiter_triple_triad_free(g);
}

static void json_inputs(void) {
    ArbiterTripleTriad *g, *back = NULL;
    OK(arbiter_triple_triad_from_preset(S("ttonline"), 3, &g));
    char *saved = tt_json(g);
    FAILS(arbiter_triple_triad_from_json(S("{"), &back), ARBITER_PARSE_ERROR, "EOF while parsing");
    FAILS(arbiter_triple_triad_from_json(S("[1, 2]"), &back), ARBITER_PARSE_ERROR, "invalid type");
    /* Well-formed JSON of a state the rules do not allow: a sixth card in blue's hand. */
    char *six = malloc(strlen(saved) * 2);
    const char *hand = strstr(saved, "\"blue\":[") + strlen("\"blue\":[");
    const char *first_end = strstr(hand, "},") + 1;
    sprintf(six, "%.*s,%.*s%s", (int)(first_end - saved), saved, (int)(first_end - hand), hand, first_end);
    FAILS(arbiter_triple_triad_from_json(S(six), &back), ARBITER_PARSE_ERROR, "the hands hold 11 cards for 9 empty cells");
    CHECK(back == NULL);
    free(six);
    /* A save reads back to the same state. */
    OK(arbiter_triple_triad_from_json(S(saved), &back));
    char *again = tt_json(back);
    CHECK(strcmp(saved, again) == 0);
    free(again);
    free(saved);
    arbiter_triple_triad_free(back);
    /* Nantong: a deck that is not 120 cards. */
    ArbiterNantong *n = NULL;
    FAILS(arbiter_nantong_deal(S("[\"1m\", \"2m\"]"), 0, &n), ARBITER_BAD_ARGUMENT, "120 cards");
    FAILS(arbiter_nantong_deal(S("[\"1x\"]"), 0, &n), ARBITER_PARSE_ERROR, "1x");
    FAILS(arbiter_nantong_winning(S("{\"hand\": 5}"), NULL, 0, &(size_t){0}), ARBITER_PARSE_ERROR, "invalid type");
    CHECK(n == NULL);
    arbiter_triple_triad_free(g);
}

static void ids_and_buffers(void) {
    ArbiterTripleTriad *g;
    OK(arbiter_triple_triad_from_preset(S("ff8"), 4, &g));
    uint32_t ids[45], few[3] = {7, 7, 7};
    size_t count = 0, size = 0, n;
    /* Out-of-range ids and players. */
    UNCHANGED(tt_json, g, arbiter_triple_triad_play_action(g, 45));
    FAILS(arbiter_triple_triad_play_action(g, 45), ARBITER_BAD_ARGUMENT, "no action id 45 (ids are 0 to 44)");
    FAILS(arbiter_triple_triad_action_text(g, 1000, NULL, 0, &size), ARBITER_BAD_ARGUMENT, "no action id 1000");
    FAILS(arbiter_triple_triad_observation(g, 2, NULL, 0, &size), ARBITER_BAD_ARGUMENT, "no player 2");
    FAILS(arbiter_triple_triad_score(g, -1, &(uint32_t){0}), ARBITER_BAD_ARGUMENT, "no player -1");
    OK(arbiter_triple_triad_num_actions(g, &n));
    CHECK(n == 45);
    /* An id buffer too small reports the count needed and stays untouched. */
    FAILS(arbiter_triple_triad_legal_actions(g, few, 3, &count), ARBITER_BUFFER_TOO_SMALL, "45 needed, 3 given");
    CHECK(count == 45 && few[0] == 7 && few[2] == 7);
    FAILS(arbiter_triple_triad_legal_actions(g, NULL, 0, &count), ARBITER_BUFFER_TOO_SMALL, "45 needed, 0 given");
    OK(arbiter_triple_triad_legal_actions(g, ids, 45, &count));
    CHECK(count == 45 && ids[0] == 0 && ids[44] == 44);
    /* A text buffer: size 0, one byte short, exact. */
    char text[8] = "xxxxxxx";
    FAILS(arbiter_triple_triad_action_text(g, 13, text, 0, &size), ARBITER_BUFFER_TOO_SMALL, "4 needed, 0 given");
    CHECK(size == 4 && text[0] == 'x');
    FAILS(arbiter_triple_triad_action_text(g, 13, text, 3, &size), ARBITER_BUFFER_TOO_SMALL, "4 needed, 3 given");
    CHECK(text[0] == 'x');
    OK(arbiter_triple_triad_action_text(g, 13, text, 4, &size));
    CHECK(strcmp(text, "1@4") == 0 && size == 4);
    char levels[64];
    OK(arbiter_triple_triad_levels(levels, sizeof levels, &size));
    CHECK(strcmp(levels, "[\"random\",\"greedy\",\"perfect\",\"expert\"]") == 0);
    arbiter_triple_triad_free(g);
}

/* Plays a round to its end with the built-in opponent. */
static void play_out(ArbiterTripleTriad *g, const char *level, uint64_t seed) {
    uint32_t action;
    while (arbiter_triple_triad_choose(g, level, strlen(level), seed++, &action) == ARBITER_OK)
        OK(arbiter_triple_triad_play_action(g, action));
}

static void illegal_moves_and_game_over(void) {
    ArbiterTripleTriad *g, *copy;
    OK(arbiter_triple_triad_from_preset(S("ff8"), 5, &g));
    char *captures;
    TEXT_OF(captures, arbiter_triple_triad_last_captures, g);
    CHECK(strcmp(captures, "null") == 0);
    free(captures);
    OK(arbiter_triple_triad_play(g, S("0@4")));
    TEXT_OF(captures, arbiter_triple_triad_last_captures, g);
    CHECK(strstr(captures, "\"cell\":4") != NULL);
    free(captures);
    UNCHANGED(tt_json, g, arbiter_triple_triad_play(g, S("0@4")));
    FAILS(arbiter_triple_triad_play(g, S("0@4")), ARBITER_ILLEGAL_MOVE, "cell 4 is occupied");
    OK(arbiter_triple_triad_play(g, S("0@0")));
    UNCHANGED(tt_json, g, arbiter_triple_triad_play(g, S("4@1")));
    FAILS(arbiter_triple_triad_play(g, S("4@1")), ARBITER_ILLEGAL_MOVE, "blue has no card 4 (hand of 4)");
    /* A copy is independent of its original. */
    OK(arbiter_triple_triad_clone(g, &copy));
    play_out(copy, "greedy", 1);
    bool over;
    OK(arbiter_triple_triad_is_over(g, &over));
    CHECK(!over);
    OK(arbiter_triple_triad_is_over(copy, &over));
    CHECK(over);
    /* After the end. */
    int32_t who, outcome, value;
    uint32_t action, blue, red;
    uint64_t nodes;
    OK(arbiter_triple_triad_to_move(copy, &who));
    CHECK(who == -1);
    /* Nine moves from blue's turn: red would move next. */
    OK(arbiter_triple_triad_next_player(copy, &who));
    CHECK(who == 1);
    OK(arbiter_triple_triad_outcome(copy, &outcome));
    OK(arbiter_triple_triad_score(copy, 0, &blue));
    OK(arbiter_triple_triad_score(copy, 1, &red));
    CHECK(blue + red == 10);
    CHECK(outcome == (blue > red ? 0 : blue < red ? 1 : -2));
    UNCHANGED(tt_json, copy, arbiter_triple_triad_play_action(copy, 0));
    FAILS(arbiter_triple_triad_play_action(copy, 0), ARBITER_GAME_OVER, "game over");
    FAILS(arbiter_triple_triad_choose(copy, S("perfect"), 1, &action), ARBITER_GAME_OVER, "game is over");
    FAILS(arbiter_triple_triad_solve(copy, &value, &action), ARBITER_GAME_OVER, "board is full");
    OK(arbiter_triple_triad_perft(copy, 1, &nodes));
    CHECK(nodes == 0);
    size_t count = 99;
    OK(arbiter_triple_triad_legal_actions(copy, NULL, 0, &count));
    CHECK(count == 0);
    arbiter_triple_triad_free(copy);
    /* The solver's best move keeps the value it promised. */
    for (int i = 0; i < 3; i++) OK(arbiter_triple_triad_play_action(g, 1 + i));
    OK(arbiter_triple_triad_solve(g, &value, &action));
    OK(arbiter_triple_triad_to_move(g, &who));
    int32_t sign = who == 0 ? 1 : -1;
    while (arbiter_triple_triad_solve(g, &(int32_t){0}, &action) == ARBITER_OK)
        OK(arbiter_triple_triad_play_action(g, action));
    OK(arbiter_triple_triad_score(g, 0, &blue));
    OK(arbiter_triple_triad_score(g, 1, &red));
    CHECK(sign * ((int32_t)blue - (int32_t)red) == value);
    arbiter_triple_triad_free(g);
}

static void trax_and_nantong(void) {
    ArbiterTrax *t;
    OK(arbiter_trax_from_record(S("unbounded"), S("1. @0/ 2. B1\\ 3. B2/"), &t));
    int32_t outcome;
    uint32_t tiles;
    uint8_t edges;
    OK(arbiter_trax_outcome(t, &outcome));
    OK(arbiter_trax_tiles(t, &tiles));
    CHECK(outcome == 1 && tiles == 4); /* white closed red's loop */
    UNCHANGED(trax_view, t, arbiter_trax_play(t, S("C1+")));
    FAILS(arbiter_trax_play(t, S("C1+")), ARBITER_GAME_OVER, "the game is over");
    OK(arbiter_trax_tile_at(t, 1, 1, &edges));
    CHECK(edges != 0 && (edges & (edges - 1)) != 0);
    OK(arbiter_trax_tile_at(t, 9, 9, &edges));
    CHECK(edges == 0);
    char *text;
    TEXT_OF(text, arbiter_trax_win, t);
    CHECK(strcmp(text, "{\"winner\":\"red\",\"by_loop\":true,\"by_line\":false,\"tracks\":[[{\"col\":2,\"row\":2},"
                       "{\"col\":1,\"row\":2},{\"col\":1,\"row\":1},{\"col\":2,\"row\":1}]]}") == 0);
    free(text);
    TEXT_OF(text, arbiter_trax_last_turn, t);
    CHECK(strcmp(text, "{\"move\":\"B2/\",\"placed\":{\"col\":2,\"row\":2},\"forced\":[{\"col\":1,\"row\":2}]}") == 0);
    free(text);
    /* A save reads back to the same game; undo takes back whole turns, then refuses. */
    char *saved = trax_view(t);
    CHECK(strcmp(saved, "{\"variant\":\"unbounded\",\"moves\":[\"@0/\",\"B1\\\\\",\"B2/\"]}") == 0);
    ArbiterTrax *back;
    OK(arbiter_trax_from_json(S(saved), &back));
    char *again = trax_view(back);
    CHECK(strcmp(saved, again) == 0);
    free(again);
    free(saved);
    arbiter_trax_free(back);
    OK(arbiter_trax_undo(t));
    bool over;
    OK(arbiter_trax_is_over(t, &over));
    CHECK(!over);
    TEXT_OF(text, arbiter_trax_last_turn, t); /* the turn before, B1\ */
    CHECK(strcmp(text, "{\"move\":\"B1\\\\\",\"placed\":{\"col\":2,\"row\":1},\"forced\":[]}") == 0);
    free(text);
    OK(arbiter_trax_undo(t));
    OK(arbiter_trax_undo(t));
    TEXT_OF(text, arbiter_trax_last_turn, t);
    CHECK(strcmp(text, "null") == 0);
    free(text);
    UNCHANGED(trax_view, t, arbiter_trax_undo(t));
    FAILS(arbiter_trax_undo(t), ARBITER_ILLEGAL_MOVE, "no turn to take back");
    FAILS(arbiter_trax_from_json(S("{\"variant\":\"8x8\",\"moves\":[\"@0\\\\\"]}"), &back), ARBITER_PARSE_ERROR,
          "move 1");
    arbiter_trax_free(t);
    OK(arbiter_trax_new(S("8x8"), &t));
    FAILS(arbiter_trax_play(t, S("B2+")), ARBITER_ILLEGAL_MOVE, "the first move must be @0+ or @0/, not B2+");
    arbiter_trax_free(t);
    /* A host's tile limit: once no turn fits, the game is over, drawn (the engine's convention). */
    FAILS(arbiter_trax_new_limited(S("loop"), 0, &t), ARBITER_BAD_ARGUMENT, "tile limit of 0");
    OK(arbiter_trax_new_limited(S("loop"), 2, &t));
    uint32_t max_tiles;
    OK(arbiter_trax_max_tiles(t, &max_tiles));
    CHECK(max_tiles == 2);
    TEXT_OF(text, arbiter_trax_variant, t);
    CHECK(strcmp(text, "loop") == 0);
    free(text);
    OK(arbiter_trax_play(t, S("@0+")));
    OK(arbiter_trax_play(t, S("A2+")));
    FAILS(arbiter_trax_play(t, S("A3+")), ARBITER_GAME_OVER, "the game is over");
    OK(arbiter_trax_outcome(t, &outcome));
    CHECK(outcome == -2);
    arbiter_trax_free(t);

    ArbiterNantong *n;
    int32_t actor;
    OK(arbiter_nantong_new(9, &n));
    OK(arbiter_nantong_actor(n, &actor));
    CHECK(actor >= 0 && actor < 3);
    UNCHANGED(nantong_view, n, arbiter_nantong_act(n, (actor + 1) % 3, S("finish")));
    FAILS(arbiter_nantong_act(n, (actor + 1) % 3, S("finish")), ARBITER_ILLEGAL_MOVE, "cannot act now");
    FAILS(arbiter_nantong_act(n, 3, S("finish")), ARBITER_BAD_ARGUMENT, "no player 3 in nantong (players are 0, 1 or 2)");
    UNCHANGED(nantong_view, n, arbiter_nantong_play(n, S("fly away")));
    FAILS(arbiter_nantong_play(n, S("fly away")), ARBITER_PARSE_ERROR, "fly away");
    /* Observations hide the other seats' hands: seat 0's view names its own hand only. */
    char *mine, *theirs;
    TEXT_OF(mine, arbiter_nantong_observation, n, 0);
    TEXT_OF(theirs, arbiter_nantong_observation, n, 1);
    const char *hand0 = strstr(mine, "\"hand\":"), *hand1 = strstr(theirs, "\"hand\":");
    CHECK(hand0 && hand1 && strncmp(hand0, hand1, 60) != 0);
    free(mine);
    free(theirs);
    /* A save resumes exactly: the same deal, and the same moves from the built-in opponents. */
    uint32_t action;
    for (uint64_t seed = 0; seed < 40; seed++) {
        OK(arbiter_nantong_choose(n, S("basic"), seed, &action));
        OK(arbiter_nantong_play_action(n, action));
    }
    char *deal_saved = nantong_view(n), *deal_again;
    ArbiterNantong *loaded;
    OK(arbiter_nantong_from_json(S(deal_saved), &loaded));
    deal_again = nantong_view(loaded);
    CHECK(strcmp(deal_saved, deal_again) == 0);
    uint32_t a1, a2;
    OK(arbiter_nantong_choose(n, S("basic"), 99, &a1));
    OK(arbiter_nantong_choose(loaded, S("basic"), 99, &a2));
    CHECK(a1 == a2);
    free(deal_saved);
    free(deal_again);
    arbiter_nantong_free(loaded);
    FAILS(arbiter_nantong_deal(S("[]"), 3, &loaded), ARBITER_BAD_ARGUMENT, "no player 3");
    /* The next deal passes the deal to the next seat; nobody has won a deal just dealt. */
    ArbiterNantong *next;
    int32_t dealer, next_dealer;
    OK(arbiter_nantong_next_deal(n, &next));
    OK(arbiter_nantong_dealer(n, &dealer));
    OK(arbiter_nantong_dealer(next, &next_dealer));
    CHECK(next_dealer == (dealer + 1) % 3);
    TEXT_OF(text, arbiter_nantong_win, next);
    CHECK(strcmp(text, "null") == 0);
    free(text);
    arbiter_nantong_free(next);
    arbiter_nantong_free(n);
}

static void match_layer(void) {
    ArbiterTripleTriadMatch *m;
    OK(arbiter_triple_triad_match_from_preset(S("ff8"), 12, &m));
    size_t size;
    uint8_t picks[1] = {0};
    FAILS(arbiter_triple_triad_match_settle_trade(m, NULL, 1), ARBITER_NULL_POINTER, "picks is NULL");
    FAILS(arbiter_triple_triad_match_settle_trade(m, picks, 1), ARBITER_ILLEGAL_MOVE, "not over");
    ArbiterTradeChoice choice = {ARBITER_TRADE_SWAP, 7, 7};
    FAILS(arbiter_triple_triad_match_trade_choice(m, &choice), ARBITER_ILLEGAL_MOVE, "not over");
    CHECK(choice.kind == ARBITER_TRADE_SWAP && choice.chooser == 7 && choice.count == 7);
    FAILS(arbiter_triple_triad_match_trade_choice(m, NULL), ARBITER_NULL_POINTER, "choice is NULL");
    bool over = false;
    uint32_t action;
    int32_t player, last_player = -1;
    for (uint64_t seed = 0; !over; seed++) {
        /* The match answers a turn's questions itself, as its round would. */
        ArbiterTripleTriad *round;
        OK(arbiter_triple_triad_match_game(m, &round));
        uint32_t ids[45], round_ids[45], round_action;
        size_t n, round_n;
        int32_t round_player;
        OK(arbiter_triple_triad_match_to_move(m, &player));
        OK(arbiter_triple_triad_to_move(round, &round_player));
        CHECK(player == round_player && (player == 0 || player == 1));
        CHECK(player != last_player);
        last_player = player;
        OK(arbiter_triple_triad_match_legal_actions(m, ids, 45, &n));
        OK(arbiter_triple_triad_legal_actions(round, round_ids, 45, &round_n));
        CHECK(n == round_n && n > 0 && memcmp(ids, round_ids, n * sizeof *ids) == 0);
        char *view, *round_view;
        TEXT_OF(view, arbiter_triple_triad_match_observation, m, player);
        TEXT_OF(round_view, arbiter_triple_triad_observation, round, player);
        CHECK(strcmp(view, round_view) == 0);
        free(view);
        free(round_view);
        OK(arbiter_triple_triad_match_choose(m, S("greedy"), seed, &action));
        OK(arbiter_triple_triad_choose(round, S("greedy"), seed, &round_action));
        CHECK(action == round_action);
        arbiter_triple_triad_free(round);
        OK(arbiter_triple_triad_match_play_action(m, action));
        OK(arbiter_triple_triad_match_is_over(m, &over));
    }
    FAILS(arbiter_triple_triad_match_timeout_move(m, &action), ARBITER_GAME_OVER, "over");
    FAILS(arbiter_triple_triad_match_choose(m, S("greedy"), 1, &action), ARBITER_GAME_OVER, "over");
    OK(arbiter_triple_triad_match_to_move(m, &player));
    CHECK(player == -1);
    FAILS(arbiter_triple_triad_match_observation(m, 2, NULL, 0, &size), ARBITER_BAD_ARGUMENT, "no player 2");
    char *result, *brought[2];
    OK(arbiter_triple_triad_match_trade_choice(m, &choice));
    TEXT_OF(result, arbiter_triple_triad_match_result, m);
    TEXT_OF(brought[0], arbiter_triple_triad_match_brought, m, 0);
    TEXT_OF(brought[1], arbiter_triple_triad_match_brought, m, 1);
    FAILS(arbiter_triple_triad_match_brought(m, -1, NULL, 0, &size), ARBITER_BAD_ARGUMENT, "no player -1");
    /* ff8 trades one card: the winner picks one of the five the loser brought; a draw trades none. */
    int picks_one = choice.kind == ARBITER_TRADE_PICK;
    if (picks_one) {
        CHECK(choice.count == 1 && (choice.chooser == 0 || choice.chooser == 1));
        char want[32];
        snprintf(want, sizeof want, "\"winner\":\"%s\"", choice.chooser == 0 ? "blue" : "red");
        CHECK(strstr(result, want) != NULL);
    } else {
        CHECK(choice.kind == ARBITER_TRADE_AUTOMATIC && choice.chooser == -1 && choice.count == 0);
        CHECK(strstr(result, "\"winner\":null") != NULL);
    }
    for (int p = 0; p < 2; p++) {
        CHECK(brought[p][0] == '[' && strstr(brought[p], "\"ranks\":[") != NULL);
        int cards = 0;
        for (const char *c = brought[p]; (c = strstr(c, "\"name\":")) != NULL; c++) cards++;
        CHECK(cards == 5);
    }
    FAILS(arbiter_triple_triad_match_settle_trade(m, (uint8_t[]){9, 9}, 2), ARBITER_ILLEGAL_MOVE, "bad trade picks");
    OK(arbiter_triple_triad_match_settle_trade(m, picks, choice.count));
    FAILS(arbiter_triple_triad_match_settle_trade(m, picks, 1), ARBITER_ILLEGAL_MOVE, "already settled");
    char *transfers;
    TEXT_OF(transfers, arbiter_triple_triad_match_transfers, m);
    CHECK(picks_one == (strstr(transfers, "\"index\":0") != NULL));
    if (picks_one) {
        /* The card taken is the first the loser brought, as `brought` lists it. */
        const char *loser = brought[1 - choice.chooser], *name = strstr(loser, "\"name\":");
        const char *end = strchr(name + 7, ',');
        CHECK(name && end && strstr(transfers, "\"name\":") != NULL);
        CHECK(strncmp(strstr(transfers, "\"name\":"), name, (size_t)(end - name)) == 0);
    }
    /* A save resumes exactly, trade included. */
    char *saved, *again;
    ArbiterTripleTriadMatch *back;
    TEXT_OF(saved, arbiter_triple_triad_match_to_json, m);
    OK(arbiter_triple_triad_match_from_json(S(saved), &back));
    TEXT_OF(again, arbiter_triple_triad_match_to_json, back);
    CHECK(strcmp(saved, again) == 0);
    free(brought[0]);
    free(brought[1]);
    free(result);
    free(transfers);
    free(saved);
    free(again);
    arbiter_triple_triad_match_free(back);
    arbiter_triple_triad_match_free(m);
}

/* One thread's work: a Nantong deal played to its end by the built-in opponent, and an error of
 * its own whose message must stay this thread's. */
struct job {
    uint64_t seed;
    char final_view[16384];
    int scored;
    char message[128];
};

static void *deal_out(void *arg) {
    struct job *job = arg;
    ArbiterNantong *n;
    uint32_t action;
    if (arbiter_nantong_new(job->seed, &n) != ARBITER_OK) return NULL;
    for (uint64_t s = job->seed; arbiter_nantong_choose(n, "basic", 5, s, &action) == ARBITER_OK; s++)
        arbiter_nantong_play_action(n, action);
    char level[16];
    snprintf(level, sizeof level, "level%llu", (unsigned long long)job->seed);
    arbiter_nantong_choose(n, level, strlen(level), 0, &action);
    snprintf(job->message, sizeof job->message, "%s", arbiter_last_error());
    size_t size;
    job->scored = arbiter_nantong_score(n, job->final_view, sizeof job->final_view, &size) == ARBITER_OK;
    arbiter_nantong_free(n);
    return NULL;
}

static void threads(void) {
    struct job together[2] = {{.seed = 21}, {.seed = 22}}, alone[2] = {{.seed = 21}, {.seed = 22}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, deal_out, &together[i]) == 0);
    for (int i = 0; i < 2; i++) CHECK(pthread_join(t[i], NULL) == 0);
    for (int i = 0; i < 2; i++) deal_out(&alone[i]);
    for (int i = 0; i < 2; i++) {
        /* The same seed plays the same deal on any thread, next to another deal or not. */
        CHECK(together[i].scored && alone[i].scored);
        CHECK(strstr(together[i].final_view, "\"totals\"") != NULL);
        CHECK(strcmp(together[i].final_view, alone[i].final_view) == 0);
        char want[64];
        snprintf(want, sizeof want, "unknown level \"level%d\"", 21 + i);
        CHECK(strstr(together[i].message, want) != NULL);
    }
}

/* A Loop Trax column of `tiles` straight tiles: thousands of moves, a long search. */
static ArbiterTrax *trax_column(int tiles) {
    char *record = malloc(8 * (size_t)tiles + 8), *at = record;
    at += sprintf(at, "@0+");
    for (int i = 2; i <= tiles; i++) at += sprintf(at, " A%d+", i);
    ArbiterTrax *t = NULL;
    OK(arbiter_trax_from_record(S("loop"), record, strlen(record), &t));
    free(record);
    return t;
}

/* Whether `action` is one of the legal actions of `t`. */
static int trax_legal(const ArbiterTrax *t, uint32_t action) {
    size_t n = 0;
    arbiter_trax_legal_actions(t, NULL, 0, &n);
    uint32_t *ids = malloc(n * sizeof *ids);
    OK(arbiter_trax_legal_actions(t, ids, n, &n));
    int found = 0;
    for (size_t i = 0; i < n; i++) found |= ids[i] == action;
    free(ids);
    return found;
}

struct cancel_job {
    const ArbiterTrax *t;
    const ArbiterCancel *flag;
    ArbiterStatus status;
    uint32_t action;
};

static void *think_until_cancelled(void *arg) {
    struct cancel_job *job = arg;
    ArbiterBudget budget = {.cancel = job->flag};
    job->status = arbiter_trax_choose_within(job->t, S("expert"), 1, &budget, &job->action);
    return NULL;
}

/* The computer within a budget: a node limit, a time limit, a flag raised from another thread; a
 * search that runs out still plays a legal move. The solver says when it ran out. */
static void budgets(void) {
    ArbiterTrax *t = trax_column(300);
    uint32_t action = 0;
    ArbiterBudget nodes = {.nodes = 50};
    OK(arbiter_trax_choose_within(t, S("expert"), 1, &nodes, &action));
    CHECK(trax_legal(t, action));
    ArbiterBudget clock = {.time_ms = 1};
    OK(arbiter_trax_choose_within(t, S("hard"), 1, &clock, &action));
    CHECK(trax_legal(t, action));
    FAILS(arbiter_trax_choose_within(t, S("expert"), 1, &nodes, NULL), ARBITER_NULL_POINTER, "action is NULL");

    /* Raised before the call: the search stops at its first look. */
    ArbiterCancel *flag;
    OK(arbiter_cancel_new(&flag));
    OK(arbiter_cancel_raise(flag));
    ArbiterBudget cancelled = {.cancel = flag};
    OK(arbiter_trax_choose_within(t, S("expert"), 1, &cancelled, &action));
    CHECK(trax_legal(t, action));
    /* Raised from this thread while another thinks (300,000 nodes: seconds without the flag). */
    OK(arbiter_cancel_reset(flag));
    struct cancel_job job = {.t = t, .flag = flag, .status = ARBITER_INTERNAL_ERROR};
    pthread_t thinker;
    CHECK(pthread_create(&thinker, NULL, think_until_cancelled, &job) == 0);
    OK(arbiter_cancel_raise(flag));
    CHECK(pthread_join(thinker, NULL) == 0);
    CHECK(job.status == ARBITER_OK && trax_legal(t, job.action));
    FAILS(arbiter_cancel_raise(NULL), ARBITER_NULL_POINTER, "the flag is NULL");
    arbiter_cancel_free(flag);
    arbiter_cancel_free(NULL);
    arbiter_trax_free(t);

    ArbiterTripleTriad *g;
    OK(arbiter_triple_triad_from_preset(S("mush"), 4, &g));
    int32_t value = 99;
    action = 77;
    FAILS(arbiter_triple_triad_solve_within(g, &nodes, &value, &action), ARBITER_LIMIT_EXCEEDED, "ran out");
    CHECK(value == 99 && action == 77);
    OK(arbiter_triple_triad_choose_within(g, S("perfect"), 1, &nodes, &action));
    OK(arbiter_triple_triad_choose_within(g, S("expert"), 1, &nodes, &action));
    arbiter_triple_triad_free(g);
    ArbiterNantong *n;
    OK(arbiter_nantong_new(3, &n));
    OK(arbiter_nantong_choose_within(n, S("strong"), 1, &nodes, &action));
    arbiter_nantong_free(n);
}

/* A Trax game at its tile limit is over, drawn: choose, is_over, outcome, to_move and the legal
 * actions agree (at the limit choose said GAME_OVER while is_over said no). */
static void trax_tile_limit(void) {
    ArbiterTrax *t;
    OK(arbiter_trax_new_limited(S("unbounded"), 12, &t));
    uint32_t action;
    for (uint64_t seed = 0; arbiter_trax_choose(t, S("easy"), seed, &action) == ARBITER_OK; seed++)
        OK(arbiter_trax_play_action(t, action));
    CHECK(strstr(arbiter_last_error(), "game is over") != NULL);
    bool over = false;
    int32_t outcome = 0, to_move = 0;
    size_t legal = 9;
    OK(arbiter_trax_is_over(t, &over));
    OK(arbiter_trax_outcome(t, &outcome));
    OK(arbiter_trax_to_move(t, &to_move));
    OK(arbiter_trax_legal_actions(t, NULL, 0, &legal));
    CHECK(over && outcome != -1 && to_move == -1 && legal == 0);
    arbiter_trax_free(t);
}

/* A smaller Nantong deal (rules/nantong-small.md): the sizes dealt, played out by the built-in
 * level, its save loaded back with its size; an explicit deck; sizes that cannot deal refused. */
static void nantong_sized(void) {
    ArbiterNantong *n, *loaded, *full, *sized_full;
    OK(arbiter_nantong_new_sized(4, 1, 5, &n));
    uint32_t groups = 0, kinds = 0;
    OK(arbiter_nantong_groups(n, &groups));
    OK(arbiter_nantong_kinds(n, &kinds));
    CHECK(groups == 1 && kinds == 5);
    char *seen;
    int32_t dealer = -1;
    OK(arbiter_nantong_dealer(n, &dealer));
    TEXT_OF(seen, arbiter_nantong_observation, n, dealer);
    CHECK(strstr(seen, "\"stock\":5,") != NULL);
    const char *dealt[] = {"\"hand_sizes\":[5,4,4]", "\"hand_sizes\":[4,5,4]", "\"hand_sizes\":[4,4,5]"};
    CHECK(dealer >= 0 && dealer < 3 && strstr(seen, dealt[dealer]) != NULL);
    free(seen);
    uint32_t action;
    for (uint64_t seed = 0; arbiter_nantong_choose(n, S("basic"), seed, &action) == ARBITER_OK; seed++)
        OK(arbiter_nantong_play_action(n, action));
    char *saved = nantong_view(n);
    CHECK(strstr(saved, "\"groups\":1") != NULL);
    OK(arbiter_nantong_from_json(S(saved), &loaded));
    OK(arbiter_nantong_kinds(loaded, &kinds));
    CHECK(kinds == 5);
    char *again = nantong_view(loaded);
    CHECK(strcmp(saved, again) == 0);
    free(saved);
    free(again);
    arbiter_nantong_free(loaded);
    arbiter_nantong_free(n);
    /* 7 groups of 30 kinds is the full game, dealt as arbiter_nantong_new deals it. */
    OK(arbiter_nantong_new(4, &full));
    OK(arbiter_nantong_new_sized(4, 7, 30, &sized_full));
    char *a = nantong_view(full), *b = nantong_view(sized_full);
    CHECK(strcmp(a, b) == 0 && strstr(a, "groups") == NULL);
    free(a);
    free(b);
    arbiter_nantong_free(full);
    arbiter_nantong_free(sized_full);
    /* No group: a pair wins; the dealer takes two cards, the others one. */
    OK(arbiter_nantong_deal_sized(S("[\"1m\",\"2m\",\"1m\",\"2m\",\"1m\",\"2m\",\"1m\",\"2m\"]"), 0, 0, &n));
    OK(arbiter_nantong_groups(n, &groups));
    OK(arbiter_nantong_kinds(n, &kinds));
    CHECK(groups == 0 && kinds == 2);
    TEXT_OF(seen, arbiter_nantong_observation, n, 0);
    CHECK(strstr(seen, "\"hand_sizes\":[2,1,1]") != NULL);
    free(seen);
    arbiter_nantong_free(n);
    n = NULL;
    FAILS(arbiter_nantong_new_sized(4, 8, 30, &n), ARBITER_BAD_ARGUMENT, "0 to 7 groups");
    FAILS(arbiter_nantong_new_sized(4, 7, 17, &n), ARBITER_BAD_ARGUMENT, "at least 18 kinds");
    FAILS(arbiter_nantong_new_sized(4, 1, 0, &n), ARBITER_BAD_ARGUMENT, "1 to 30 kinds");
    FAILS(arbiter_nantong_new_sized(4, 1, 5, NULL), ARBITER_NULL_POINTER, "out");
    FAILS(arbiter_nantong_deal_sized(S("[\"1m\",\"1m\",\"1m\",\"1m\"]"), 0, 0, &n), ARBITER_BAD_ARGUMENT, "at least 2 kinds");
    FAILS(arbiter_nantong_groups(NULL, &groups), ARBITER_NULL_POINTER, "handle is NULL");
    CHECK(n == NULL);
}

/* The research interface: tensors of the length the call reports, numbers in 0..=1, and a legal
 * action mask with a 1 exactly at the legal ids. */
static void tensors_and_masks(void) {
    ArbiterTrax *t;
    OK(arbiter_trax_new(S("8x8"), &t));
    OK(arbiter_trax_play(t, S("@0/")));
    size_t len = 0;
    FAILS(arbiter_trax_observation_tensor(t, 0, NULL, 0, &len), ARBITER_BUFFER_TOO_SMALL, "needed");
    CHECK(len == 10 * 10 * 5 + 7);
    float *tensor = malloc(len * sizeof *tensor);
    size_t got;
    OK(arbiter_trax_observation_tensor(t, 1, tensor, len, &got));
    CHECK(got == len);
    float sum = 0;
    for (size_t i = 0; i < len; i++) {
        CHECK(tensor[i] >= 0 && tensor[i] <= 1);
        sum += tensor[i];
    }
    CHECK(sum > 1);
    FAILS(arbiter_trax_observation_tensor(t, 2, tensor, len, &got), ARBITER_BAD_ARGUMENT, "no player 2");
    free(tensor);
    size_t actions, legal;
    OK(arbiter_trax_num_actions(t, &actions));
    uint8_t *mask = malloc(actions);
    OK(arbiter_trax_legal_action_mask(t, mask, actions, &got));
    CHECK(got == actions);
    uint32_t ids[64];
    OK(arbiter_trax_legal_actions(t, ids, 64, &legal));
    size_t ones = 0;
    for (size_t i = 0; i < actions; i++) ones += mask[i];
    CHECK(ones == legal);
    for (size_t i = 0; i < legal; i++) CHECK(mask[ids[i]] == 1);
    free(mask);
    arbiter_trax_free(t);

    ArbiterNantong *n;
    OK(arbiter_nantong_new(4, &n));
    FAILS(arbiter_nantong_observation_tensor(n, 0, NULL, 0, &len), ARBITER_BUFFER_TOO_SMALL, "needed");
    CHECK(len == 733);
    arbiter_nantong_free(n);
    ArbiterTripleTriad *g;
    OK(arbiter_triple_triad_from_preset(S("mush"), 4, &g));
    FAILS(arbiter_triple_triad_observation_tensor(g, 1, NULL, 0, &len), ARBITER_BUFFER_TOO_SMALL, "needed");
    CHECK(len == 463);
    arbiter_triple_triad_free(g);
}

/* A host's pthread key destructor runs after the thread's thread-local storage is destroyed:
 * a failing call there aborted the process (the message slot was gone). Now it returns its
 * status, and arbiter_last_error() a fixed message. */
static pthread_key_t exiting_key;
static ArbiterStatus status_while_exiting = ARBITER_OK;
static char message_while_exiting[256];

static void call_while_exiting(void *value) {
    (void)value;
    status_while_exiting = arbiter_trax_play(NULL, S("@0+"));
    snprintf(message_while_exiting, sizeof message_while_exiting, "%s", arbiter_last_error());
}

static void *fail_then_exit(void *arg) {
    (void)arg;
    /* A first failure makes the thread's message slot, which the thread's exit then destroys. */
    arbiter_trax_play(NULL, S("@0+"));
    pthread_setspecific(exiting_key, &exiting_key);
    return NULL;
}

static void thread_exit(void) {
    pthread_t t;
    CHECK(pthread_key_create(&exiting_key, call_while_exiting) == 0);
    CHECK(pthread_create(&t, NULL, fail_then_exit, NULL) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(status_while_exiting == ARBITER_NULL_POINTER);
    CHECK(strstr(message_while_exiting, "thread-local storage is gone") != NULL);
    pthread_key_delete(exiting_key);
}

/* Lengths no buffer can have, and huge bad texts: refused with a short message. */
static void sizes(void) {
    ArbiterTrax *t;
    OK(arbiter_trax_new(S("8x8"), &t));
    /* Above PTRDIFF_MAX the text was read past its end (a slice larger than any object). */
    UNCHANGED(trax_view, t, arbiter_trax_play(t, "@0+", (size_t)PTRDIFF_MAX + 1));
    FAILS(arbiter_trax_play(t, "@0+", (size_t)PTRDIFF_MAX + 1), ARBITER_BAD_ARGUMENT, "PTRDIFF_MAX");
    FAILS(arbiter_trax_play(t, "@0+", SIZE_MAX), ARBITER_BAD_ARGUMENT, "PTRDIFF_MAX");
    FAILS(arbiter_triple_triad_match_settle_trade(NULL, (uint8_t[]){0}, SIZE_MAX), ARBITER_NULL_POINTER, "handle");
    /* The whole bad text was quoted: a 200 MB move kept a 200 MB message. */
    size_t len = (size_t)16 << 20;
    char *huge = malloc(len);
    memset(huge, 'Q', len);
    FAILS(arbiter_trax_play(t, huge, len), ARBITER_PARSE_ERROR, "malformed move \"QQQ");
    CHECK(strlen(arbiter_last_error()) < 400);
    CHECK(strstr(arbiter_last_error(), "QQQ\xe2\x80\xa6QQQ") != NULL); /* start…end */
    free(huge);
    arbiter_trax_free(t);
}

static void version(void) {
    CHECK(strcmp(arbiter_version(), ARBITER_VERSION_STRING) == 0);
    char made[32];
    snprintf(made, sizeof made, "%d.%d.%d", ARBITER_VERSION_MAJOR, ARBITER_VERSION_MINOR, ARBITER_VERSION_PATCH);
    CHECK(strcmp(made, ARBITER_VERSION_STRING) == 0);
}

int main(void) {
    CHECK(strcmp(arbiter_last_error(), "") == 0);
    CHECK(strlen(arbiter_version()) > 0);
    null_pointers();
    text_inputs();
    json_inputs();
    ids_and_buffers();
    illegal_moves_and_game_over();
    trax_and_nantong();
    match_layer();
    threads();
    tensors_and_masks();
    thread_exit();
    sizes();
    version();
    budgets();
    trax_tile_limit();
    nantong_sized();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
