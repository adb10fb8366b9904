/* The whole of a file as a NUL-terminated string (malloc'd; NULL when it cannot be read), for the
 * C tests that read the repository's data files. */
#ifndef ARBITER_TESTS_READ_FILE_H
#define ARBITER_TESTS_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n < 0 ? NULL : malloc((size_t)n + 1);
    if (text) {
        size_t got = fread(text, 1, (size_t)n, f);
        text[got] = '\0';
    }
    fclose(f);
    return text;
}

#endif
