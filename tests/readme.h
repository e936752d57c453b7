/*
 * Keeps the hardening figures of tests/TESTING.md current: a test that prints a figure also checks
 * that the record quotes it as printed today, and fails, naming both, when the two drift apart.
 */
#ifndef OXO_TEST_README_H
#define OXO_TEST_README_H

#include <stdio.h>
#include <string.h>

/* Fails the cmocka test unless tests/TESTING.md (OXO_README) holds text. */
static void readme_quotes(const char *text)
{
    static char buf[1 << 20]; /* static: test_alloc counts every malloc */
    FILE *f = fopen(OXO_README, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    if (!strstr(buf, text))
        fail_msg("%s does not quote \"%s\", what this test finds today: update it", OXO_README,
                 text);
}

#endif
