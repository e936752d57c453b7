/*
 * The functions of learn.wasm that the page's worker (lookup/web/learn.js) calls, all of plain
 * numbers and addresses in the module's memory (learn.c says what each does). Every one is
 * exported by name: WEB marks them, and the rest of the module is hidden and dropped when unused.
 */
#ifndef OXO_WEB_LEARN_H
#define OXO_WEB_LEARN_H

#include <stddef.h>
#include <stdint.h>

#define WEB __attribute__((visibility("default")))

WEB void *learn_alloc(size_t n);
WEB void learn_free(void *p);
WEB int learn_table(const uint8_t *data, size_t len);
WEB int learn_setup(int argc, char **argv);
WEB double learn_episodes(void);
WEB double learn_goal(void);
WEB double learn_epsilon(void);
WEB double learn_run(double episodes);
WEB double learn_stop(void);
WEB size_t learn_model(void);
WEB const uint8_t *learn_bytes(void);
WEB int learn_report(int json);
WEB int learn_scores(const uint8_t *moves, int n);
WEB double learn_score(int move);
WEB int learn_pick(const uint8_t *moves, int n, int level, double seed);
WEB int learn_played(const uint8_t *moves, int n);
WEB size_t learn_json(void);
WEB int learn_import(const char *text, size_t len);

#endif
