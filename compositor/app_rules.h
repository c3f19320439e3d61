#ifndef FAIRWAY_COMPOSITOR_APP_RULES_H
#define FAIRWAY_COMPOSITOR_APP_RULES_H

#include "scheduler/ratings.h"
#include <sys/types.h>

struct fw_server;

/*
 * The configuration file's per-application rules (fw_rule), matched
 * against what each client is: its process's comm and executable name,
 * its xdg toplevels' app_ids, and, for X clients (by _NET_WM_PID), their
 * windows' WM_CLASS. A rule's priority becomes the client's priority in
 * the gate (gate_set_client_priority); its hint class replaces the class
 * the ratings measured for the client's process. Rules are read in file
 * order and a later match wins, setting by setting.
 */
struct fw_app_rules;

/* Call once the shells and XWayland are set up, before clients come. */
struct fw_app_rules *fw_app_rules_create(struct fw_server *server);
void fw_app_rules_destroy(struct fw_app_rules *rules);
/* The rules changed (a reload): every connected client gets them again. */
void fw_app_rules_refresh(struct fw_app_rules *rules);

/* The hint class the rules give process pid, else measured. */
enum ratings_class fw_app_rules_hint_class(
		struct fw_server *server, pid_t pid, enum ratings_class measured);

#endif
