#ifndef FAIRWAY_COMPOSITOR_SPAWN_H
#define FAIRWAY_COMPOSITOR_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Raises RLIMIT_NOFILE to the hard limit, and makes every child forked from
 * now on get the original limit and an empty signal mask back.
 */
void fw_spawn_init(void);

/* Starts argv in its own process group; returns its pid or -1. */
pid_t fw_spawn(char *const argv[]);
/* The same, with its stdout and stderr on output_fd (-1: ours). */
pid_t fw_spawn_output(char *const argv[], int output_fd);
/*
 * Starts a shell command line detached from us (double fork), with
 * activation_token (NULL: none) as its $XDG_ACTIVATION_TOKEN.
 */
bool fw_spawn_shell(const char *command, const char *activation_token);

/* Reaps pid, killing its process group if it outlives a grace period. */
void fw_spawn_wait_group(pid_t pid);

/* The environment fairway gives the programs it starts, beyond the
 * display's: GSK_RENDERER=cairo where there is no GPU and none was set. */
void fw_spawn_set_render_defaults(void);

#endif
