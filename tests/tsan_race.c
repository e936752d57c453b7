/*
 * A planted race: an unguarded += across OpenMP threads. The TSan build must report it, which
 * shows that the check of tsan_train can fail.
 */
#include <stdio.h>

int main(void)
{
    long total = 0;
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 100000; i++)
        total += i; /* the race */
    printf("total %ld\n", total);
    return 0;
}
