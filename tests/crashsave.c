/*
 * Crash-safe saves: kills (SIGKILL) oxo-gen and oxo-train at random moments while they run and
 * save, and checks after every kill that the target file loads and is byte for byte either the
 * old version or the new one. Then a normal run beside the stale temporary files must succeed.
 *   oxo-crashsave GEN TRAIN DATA_DIR FIXTURE_DIR WORK_DIR KILLS
 */
#include "clock.h"
#include "format.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static uint8_t *slurp(const char *path, size_t *len)
{
    uint8_t *d;
    oxo_error err;
    if (oxo_read_file(path, 1 << 24, &d, len, &err)) {
        fprintf(stderr, "crashsave: %s\n", err.msg);
        exit(1);
    }
    return d;
}

static void put(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(d, 1, n, f) != n || fclose(f)) {
        perror(path);
        exit(1);
    }
}

static pid_t spawn(char **argv)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
        fprintf(stderr, "crashsave: cannot run %s\n", argv[0]);
        exit(1);
    }
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

static double run_time(char **argv)
{
    double t0 = oxo_seconds();
    int st;
    waitpid(spawn(argv), &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "crashsave: %s failed\n", argv[0]);
        exit(1);
    }
    return oxo_seconds() - t0;
}

static int fails;

/* kills runs of argv writing target; old and fresh are the two acceptable contents. */
static void campaign(const char *name, char **argv, const char *target, const uint8_t *old,
                     size_t nold, const uint8_t *fresh, size_t nfresh, int kills, int kind)
{
    double d = run_time(argv);
    int got_old = 0, got_new = 0;
    unsigned seed = 12345;
    for (int k = 0; k < kills; k++) {
        put(target, old, nold);
        /* Half the kills anywhere in the run, half around its end, where the save happens. */
        double frac = (double)rand_r(&seed) / RAND_MAX;
        double delay = k % 2 ? frac * d : d * (0.6 + 0.6 * frac);
        pid_t pid = spawn(argv);
        struct timespec ts = {0, (long)(delay * 1e9)};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        size_t n;
        uint8_t *now_bytes = slurp(target, &n);
        uint8_t *body;
        size_t blen;
        oxo_error err;
        if (oxo_container_decode(now_bytes, n, kind, NULL, NULL, NULL, &body, &blen, &err)) {
            printf("FAIL: %s kill %d: the target does not load: %s\n", name, k, err.msg);
            fails++;
        } else {
            free(body);
        }
        if (n == nold && !memcmp(now_bytes, old, n))
            got_old++;
        else if (n == nfresh && !memcmp(now_bytes, fresh, n))
            got_new++;
        else {
            printf("FAIL: %s kill %d: the target is neither the old nor the new version\n", name,
                   k);
            fails++;
        }
        free(now_bytes);
    }
    /* The stale temporary files left by the kills must not break a normal run. */
    put(target, old, nold);
    run_time(argv);
    size_t n;
    uint8_t *last = slurp(target, &n);
    if (n != nfresh || memcmp(last, fresh, n)) {
        printf(
            "FAIL: %s: a normal run beside stale temporary files did not write the new version\n",
            name);
        fails++;
    }
    free(last);
    printf("%s: %d kills (run takes %.1f ms): %d left the old version, %d the new one\n", name,
           kills, d * 1e3, got_old, got_new);
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: oxo-crashsave GEN TRAIN DATA_DIR FIXTURE_DIR WORK_DIR KILLS\n");
        return 2;
    }
    const char *gen = argv[1], *train = argv[2], *data = argv[3], *fix = argv[4], *work = argv[5];
    int kills = atoi(argv[6]);
    char target[4096], path[4096];
    size_t nold, nnew;

    /* oxo-gen: the old version is a valid table of another minor version (other bytes). */
    snprintf(path, sizeof path, "%s/newer-minor.oxt", fix);
    uint8_t *old = slurp(path, &nold);
    snprintf(path, sizeof path, "%s/tictactoe.oxt", data);
    uint8_t *fresh = slurp(path, &nnew);
    snprintf(target, sizeof target, "%s/t.oxt", work);
    char *gargv[] = {(char *)gen, "-o", target, NULL};
    campaign("oxo-gen", gargv, target, old, nold, fresh, nnew, kills / 2, OXO_KIND_TABLE);
    free(old);
    free(fresh);

    /* oxo-train: the old version is the shipped TD model, the new one a short run's. */
    snprintf(path, sizeof path, "%s/td.oxm", data);
    old = slurp(path, &nold);
    char table[4096], fresh_path[4096];
    snprintf(table, sizeof table, "%s/tictactoe.oxt", data);
    snprintf(fresh_path, sizeof fresh_path, "%s/fresh.oxm", work);
    char *fargv[] = {(char *)train, "--algo", "td", "--episodes", "3000",
                     "--table",     table,    "-o", fresh_path,   NULL};
    run_time(fargv);
    fresh = slurp(fresh_path, &nnew);
    snprintf(target, sizeof target, "%s/m.oxm", work);
    char *targv[] = {(char *)train, "--algo", "td", "--episodes", "3000",
                     "--table",     table,    "-o", target,       NULL};
    campaign("oxo-train", targv, target, old, nold, fresh, nnew, kills - kills / 2, OXO_KIND_MODEL);
    free(old);
    free(fresh);
    printf("%d passed, %d failed\n", kills - fails, fails);
    return fails ? 1 : 0;
}
