/*
 * What every program's process sets up (see cli.h): SIGXFSZ ignored so that a full file is an
 * error rather than death, the signals that stop a run at its next safe point, and OpenMP's
 * short spin. Apart from cli.c because none of it exists in a browser's WebAssembly.
 */
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void oxo_cli_init(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

/* Idle OpenMP threads must not spin long: on a machine whose cores are busy, a thread that spins
 * at the end of a round takes the core the other worker needs, and two workers ran 5 to 20 times
 * slower than one (libgomp spins 300,000 times before it sleeps). Waiting passively at once costs
 * a sleep and a wake-up per round instead, which doubled the time of two workers on an idle
 * machine. A short spin (10,000 rounds, some microseconds: a round of 100 episodes takes tens)
 * catches a partner that is running and gives the core away to one that is not (make bench,
 * "idle threads"). gcc's libgomp reads its settings when it is loaded, before main, so they are
 * set from the executable's preinit array, which runs before any library's initialisers. Settings
 * the user made are kept. */
static void short_omp_spin(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    if (!getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT"))
        setenv("GOMP_SPINCOUNT", "10000", 0);
}
__attribute__((section(".preinit_array"),
               used)) static void (*const oxo_preinit)(int, char **, char **) = short_omp_spin;

static volatile int *stop_flag;
static void (*stop_cleanup)(void);
static struct timespec first_at; /* when the first signal came */

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe (POSIX) */
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* The first signal asks for a stop at the next safe point; a second ends the process at once,
 * unless it is the same signal within a second of the first: one event reaching the process
 * twice, as timeout(1) sends its signal to the command and then to its process group (under
 * `timeout -s INT`, an n-tuple run was killed while it saved, with no summary, once in 28). */
static void on_signal(int sig)
{
    if (stop_flag && !*stop_flag) {
        clock_gettime(CLOCK_MONOTONIC, &first_at);
        *stop_flag = sig;
        return;
    }
    if (stop_flag && *stop_flag == sig && since(&first_at) < 1.0)
        return;
    if (stop_cleanup)
        stop_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

void oxo_cli_signals(volatile int *stop, void (*cleanup)(void))
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    stop_flag = stop;
    stop_cleanup = cleanup;
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

int oxo_cli_signal_status(int sig)
{
    return 128 + sig;
}
