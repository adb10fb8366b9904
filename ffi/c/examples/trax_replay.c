/* Replays a Trax game record turn by turn: each move, the tiles it forced, and how the game ended.
 *
 *   trax_replay [--variant 8x8|unbounded|loop] RECORD-FILE
 *
 * The record reader takes move numbers, `;` comments and header lines (`[...]`, `#...`). */
#include "example.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints a cell given as {"col", "row"} in Trax notation: columns A..Z, then AA, AB, ... */
static void print_cell(const cJSON *cell) {
    unsigned col = (unsigned)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(cell, "col"));
    unsigned row = (unsigned)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(cell, "row"));
    char letters[8];
    int n = 0;
    while (col > 0 && n < (int)sizeof letters) {
        col -= 1;
        letters[n++] = (char)('A' + col % 26);
        col /= 26;
    }
    putchar(' ');
    while (n > 0) putchar(letters[--n]);
    printf("%u", row);
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    *len = text ? fread(text, 1, (size_t)n, f) : 0;
    fclose(f);
    return text;
}

int main(int argc, char **argv) {
    const char *variant = "unbounded", *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--variant") == 0) variant = argv[++i];
        else path = argv[i];
    }
    size_t len;
    char *record = path ? read_file(path, &len) : NULL;
    if (!record) {
        fprintf(stderr, "usage: %s [--variant V] RECORD-FILE (a readable file)\n", argv[0]);
        return 2;
    }
    /* The whole record at once: an unreadable token or an illegal move is refused with where. */
    ArbiterTrax *game;
    must(arbiter_trax_from_record(variant, strlen(variant), record, len, &game), "from_record");
    free(record);
    cJSON *saved;
    FETCH_JSON(saved, arbiter_trax_to_json, game);
    arbiter_trax_free(game);

    /* Then turn by turn, from the moves the save lists. */
    must(arbiter_trax_new(variant, strlen(variant), &game), "new");
    int turn = 1;
    const cJSON *mv;
    cJSON_ArrayForEach(mv, cJSON_GetObjectItemCaseSensitive(saved, "moves")) {
        must(arbiter_trax_play(game, mv->valuestring, strlen(mv->valuestring)), "play");
        cJSON *report;
        FETCH_JSON(report, arbiter_trax_last_turn, game);
        printf("%3d. %-6s", turn++, mv->valuestring);
        const cJSON *forced = cJSON_GetObjectItemCaseSensitive(report, "forced"), *cell;
        if (cJSON_GetArraySize(forced) > 0) {
            printf(" forced:");
            cJSON_ArrayForEach(cell, forced) print_cell(cell);
        }
        printf("\n");
        cJSON_Delete(report);
    }
    cJSON_Delete(saved);

    uint32_t tiles, cols, rows;
    int32_t outcome;
    must(arbiter_trax_tiles(game, &tiles), "tiles");
    must(arbiter_trax_size(game, &cols, &rows), "size");
    must(arbiter_trax_outcome(game, &outcome), "outcome");
    printf("%u tiles over %u x %u\n", tiles, cols, rows);
    if (outcome == -1) {
        printf("winner: none yet, the game goes on\n");
    } else if (outcome == -2) {
        printf("winner: nobody, a draw\n");
    } else {
        cJSON *win;
        FETCH_JSON(win, arbiter_trax_win, game);
        bool by_loop = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(win, "by_loop"));
        bool by_line = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(win, "by_line"));
        printf("winner: %s, by a %s\n", cJSON_GetObjectItemCaseSensitive(win, "winner")->valuestring,
               by_loop && by_line ? "loop and a line" : by_loop ? "loop" : "line");
        cJSON_Delete(win);
    }
    arbiter_trax_free(game);
    return 0;
}
