/*
 * What every cmocka file of the suite shares: its main, which runs the file's tests as one group
 * without setup or teardown (the files with a group fixture write their own).
 */
#ifndef OXO_TEST_H
#define OXO_TEST_H

#define OXO_TEST_MAIN(...)                                                                         \
    int main(void)                                                                                 \
    {                                                                                              \
        const struct CMUnitTest tests[] = {__VA_ARGS__};                                           \
        return cmocka_run_group_tests(tests, NULL, NULL);                                          \
    }

#endif
