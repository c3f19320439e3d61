#ifndef FAIRWAY_COMPOSITOR_SCHED_APP_RULES_H
#define FAIRWAY_COMPOSITOR_SCHED_APP_RULES_H

#include "scheduler/hints/hints.h"
#include "scheduler/ratings/ratings_client.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct fw_server;
struct hints_app;

/*
 * The configuration file's per-application rules (fw_rule), matched
 * against what each client is: its executable's full path, its xdg
 * toplevels' app_ids, and, for X clients (the process Xwayland names
 * through X-Resource, pinned), their windows' WM_CLASS. A rule's priority
 * becomes the client's priority in the gate
 * (fw_sched_set_client_priority); its hint replaces the class the ratings
 * measured for the client's process, or gives the process a target of its
 * own. Rules are read in file order and a later match wins, setting by
 * setting.
 */
enum fw_rule_match {
	FW_MATCH_APP_ID, /* an xdg toplevel's app_id: the client's choice */
	FW_MATCH_X_CLASS, /* an X window's WM_CLASS class: the client's too */
	FW_MATCH_EXE, /* the full path of the client's executable */
};

struct fw_rule {
	enum fw_rule_match match;
	char *pattern; /* fnmatch(3) */
	/*
	 * Any client can make it match (an app_id, a class, an exe= pattern
	 * whose directory is open): it raises only where the file said
	 * "spoofable", and a priority it lowers stays when the name changes.
	 */
	bool claimable;
	bool has_priority;
	int priority; /* the gate's client priority, -20 to 20 */
	enum fw_rule_hint {
		FW_HINT_NONE,
		FW_HINT_CLASS, /* class, instead of the rated one */
		FW_HINT_TARGET, /* target, whatever the class */
	} hint;
	enum ratings_class class;
	struct hints_target target;
	/* processes one|tree: the client's own process, or its application */
	bool has_processes;
	bool one_process;
	int line;
};

struct fw_app_rules;

/*
 * Call once the shells and XWayland are set up, before clients come; the
 * rules come with fw_app_rules_set.
 */
struct fw_app_rules *fw_app_rules_create(struct fw_server *server);
void fw_app_rules_destroy(struct fw_app_rules *rules);
/*
 * The rules in force (the configuration file's, in file order), until the
 * next call: every connected client gets them again. Accepts NULL rules.
 */
void fw_app_rules_set(
		struct fw_app_rules *rules, const struct fw_rule *list, size_t count);

/*
 * Hands process pid's hints the class the rules give it, else the one
 * measured, and the target of its own a rule gives it, if any.
 */
void fw_app_rules_set_hint(struct fw_server *server, struct hints_app *app,
		pid_t pid, enum ratings_class measured, int64_t now);

#endif
