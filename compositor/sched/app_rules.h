#ifndef FAIRWAY_COMPOSITOR_SCHED_APP_RULES_H
#define FAIRWAY_COMPOSITOR_SCHED_APP_RULES_H

#include "scheduler/ratings.h"
#include <stdint.h>
#include <sys/types.h>

struct fw_server;
struct hints_proc;

/*
 * The configuration file's per-application rules (fw_rule), matched
 * against what each client is: its process's comm and executable name,
 * its xdg toplevels' app_ids, and, for X clients (the process Xwayland
 * names through X-Resource), their windows' WM_CLASS. A rule's priority
 * becomes the client's priority in the gate
 * (fw_sched_set_client_priority); its hint replaces the class the ratings
 * measured for the client's process, or gives the process a target of its
 * own. Rules are read in file order and a later match wins, setting by
 * setting.
 */
struct fw_app_rules;

/* Call once the shells and XWayland are set up, before clients come. */
struct fw_app_rules *fw_app_rules_create(struct fw_server *server);
void fw_app_rules_destroy(struct fw_app_rules *rules);
/* The rules changed (a reload): every connected client gets them again. */
void fw_app_rules_refresh(struct fw_app_rules *rules);

/*
 * Hands process pid's hints the class the rules give it, else the one
 * measured, and the target of its own a rule gives it, if any.
 */
void fw_app_rules_set_hint(struct fw_server *server, struct hints_proc *proc,
		pid_t pid, enum ratings_class measured, int64_t now);

#endif
