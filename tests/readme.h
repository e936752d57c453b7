/*
 * Keeps the README's hardening figures current: a test that prints a figure also checks that the
 * README quotes it as printed today, and fails, naming both, when the two drift apart.
 */
#ifndef OXO_TEST_README_H
#define OXO_TEST_README_H

#include <stdio.h>
#include <string.h>

/* Fails the cmocka test unless README.md (OXO_README) holds text. */
static void readme_quotes(const char *text)
{
    static char buf[1 << 20]; /* static: test_alloc counts every malloc */
    FILE *f = fopen(OXO_README, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    if (!strstr(buf, text))
        fail_msg("README.md does not quote \"%s\", what this test finds today: update the README", text);
}

#endif
