#ifndef FAIRWAY_COMPOSITOR_CONFIG_CONFIG_APPLY_H
#define FAIRWAY_COMPOSITOR_CONFIG_CONFIG_APPLY_H

#include <stdbool.h>

struct fw_config;
struct fw_server;

/*
 * The configuration file in a running fairway: found, read over the
 * command line's settings (which win, config.h), applied, and read again
 * on SIGHUP or the reload binding. A file with any error is refused whole: at
 * start the built-in defaults run instead (unless --config named it: then
 * fairway does not start), on reload the running configuration stays.
 */

/* --check-config: every error on stderr; the exit status (0: none). */
int fw_config_apply_check(const struct fw_config *flags);

/*
 * Reads the file for a server being created over the flags that
 * server->config holds; watches SIGHUP. False when fairway must not
 * start.
 */
bool fw_config_apply_init(struct fw_server *server);
void fw_config_apply_finish(struct fw_server *server);

/* Runs the file's exec lines: once, when fairway is ready. */
void fw_config_apply_autostart(struct fw_server *server);

/* Reads the file again and applies it; false (and logged) if refused. */
bool fw_config_apply_reload(struct fw_server *server);

#endif
