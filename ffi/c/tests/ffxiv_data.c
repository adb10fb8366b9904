/* Final Fantasy XIV's cards and NPC opponents as the library gives them: whole JSON documents read
 * with cJSON, every card an NPC names among the cards, the deck rule, and the buffer protocol. */
#include <arbiter.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef ArbiterStatus (*Data)(char *buf, size_t cap, size_t *size);

/* The document `fn` gives, parsed; its size asked first as every text out. */
static cJSON *document(Data fn) {
    size_t size = 0;
    CHECK(fn(NULL, 0, &size) == ARBITER_BUFFER_TOO_SMALL);
    CHECK(size > 1);
    char *text = malloc(size);
    char small[8] = "unset";
    size_t small_size = 0;
    CHECK(fn(small, sizeof small, &small_size) == ARBITER_BUFFER_TOO_SMALL);
    CHECK(small_size == size && strcmp(small, "unset") == 0); /* nothing written */
    CHECK(fn(text, size, &size) == ARBITER_OK);
    CHECK(strlen(text) + 1 == size);
    CHECK(fn(text, size, NULL) == ARBITER_NULL_POINTER);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    CHECK(doc != NULL);
    return doc;
}

static const cJSON *card_by_id(const cJSON *cards, int id) {
    const cJSON *c;
    cJSON_ArrayForEach(c, cards) {
        if (cJSON_GetObjectItem(c, "id")->valueint == id) return c;
    }
    return NULL;
}

int main(void) {
    cJSON *cards_doc = document(arbiter_ffxiv_cards);
    cJSON *npcs_doc = document(arbiter_ffxiv_npcs);
    const cJSON *cards = cJSON_GetObjectItem(cards_doc, "cards");
    const cJSON *npcs = cJSON_GetObjectItem(npcs_doc, "npcs");
    CHECK(cJSON_GetArraySize(cards) == 444);
    CHECK(cJSON_GetArraySize(npcs) == 128);
    const cJSON *source = cJSON_GetObjectItem(cards_doc, "source");
    CHECK(strstr(cJSON_GetObjectItem(source, "repository")->valuestring, "FFTriadBuddy") != NULL);

    /* The Chocobo as the game shows it (rules/triple-triad-ffxiv.md, section 1): top 3, right 7. */
    const cJSON *chocobo = card_by_id(cards, 13);
    CHECK(chocobo && strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(chocobo, "name"), "en")->valuestring,
                            "Chocobo") == 0);
    const cJSON *ranks = cJSON_GetObjectItem(chocobo, "ranks");
    int expected[4] = {3, 7, 2, 1};
    for (int i = 0; i < 4; i++) CHECK(cJSON_GetArrayItem(ranks, i)->valueint == expected[i]);
    int typed = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cards) {
        typed += strcmp(cJSON_GetObjectItem(c, "type")->valuestring, "none") != 0;
    }
    CHECK(typed == 444 - 333);

    /* Every NPC's hand is five cards that exist. */
    const cJSON *n;
    cJSON_ArrayForEach(n, npcs) {
        const cJSON *fixed = cJSON_GetObjectItem(n, "fixed"), *variable = cJSON_GetObjectItem(n, "variable");
        CHECK(cJSON_GetArraySize(fixed) <= 5 && cJSON_GetArraySize(fixed) + cJSON_GetArraySize(variable) >= 5);
        const cJSON *id;
        cJSON_ArrayForEach(id, fixed) CHECK(card_by_id(cards, id->valueint) != NULL);
        cJSON_ArrayForEach(id, variable) CHECK(card_by_id(cards, id->valueint) != NULL);
    }
    cJSON_Delete(cards_doc);
    cJSON_Delete(npcs_doc);

    char rule[128];
    size_t size = 0;
    CHECK(arbiter_ffxiv_deck_rule(rule, sizeof rule, &size) == ARBITER_OK);
    CHECK(strcmp(rule, "{\"cards\":5,\"max_five_stars\":1,\"max_four_or_five_stars\":2}") == 0);

    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
