#include "compositor/sched/app_rules.h"
#include "compositor/config/config_file.h"
#include "compositor/listener.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include "compositor/shell/xwayland.h"
#include "scheduler/hints.h"
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>

/* What a process is called: its comm and its executable's file name. */
struct fw_app_process {
	pid_t pid; /* 0: not known yet */
	char comm[16];
	char exe[NAME_MAX + 1];
};

struct fw_app_client {
	struct fw_app_rules *rules;
	struct wl_client *client;
	struct fw_app_process process;
	/* Read once the gate has the client: an idle callback after connect. */
	struct wl_event_source *identify;
	/* What the rules last said of its priority, if anything. */
	bool has_priority;
	int priority;
	int priority_line;
	struct wl_list toplevels; /* fw_app_toplevel.link */
	struct wl_listener destroy;
	struct wl_list link; /* fw_app_rules.clients */
};

struct fw_app_toplevel {
	struct fw_app_client *owner; /* NULL once the client is gone */
	struct wlr_xdg_toplevel *toplevel;
	struct wl_listener set_app_id;
	struct wl_listener destroy;
	struct wl_list link; /* fw_app_client.toplevels */
};

/* An X window: its WM_CLASS, and the process Xwayland names for it. */
struct fw_app_xsurface {
	struct wlr_xwayland_surface *xsurface;
	struct fw_app_process process;
	struct wl_listener set_pid;
	struct wl_listener destroy;
	struct wl_list link; /* fw_app_rules.xsurfaces */
};

struct fw_app_rules {
	struct fw_server *server;
	struct wl_list clients; /* fw_app_client.link */
	struct wl_list xsurfaces; /* fw_app_xsurface.link */
	struct wl_listener client_created;
	struct wl_listener new_xdg_surface;
	struct wl_listener new_xsurface;
	struct wl_listener xwayland_ready;
};

static void read_process(struct fw_app_process *process, pid_t pid) {
	*process = (struct fw_app_process){.pid = pid};
	if (pid <= 0) {
		return;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *file = fopen(path, "re");
	if (file != NULL) {
		if (fgets(process->comm, sizeof(process->comm), file) != NULL) {
			process->comm[strcspn(process->comm, "\n")] = '\0';
		}
		fclose(file);
	}
	char target[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t len = readlink(path, target, sizeof(target) - 1);
	if (len > 0) {
		target[len] = '\0';
		/* An executable replaced since it started reads "... (deleted)". */
		const char *deleted = " (deleted)";
		size_t tail = strlen(deleted);
		if ((size_t)len > tail && strcmp(target + len - tail, deleted) == 0) {
			target[len - tail] = '\0';
		}
		const char *base = strrchr(target, '/');
		base = base != NULL ? base + 1 : target;
		size_t n = strnlen(base, sizeof(process->exe) - 1);
		memcpy(process->exe, base, n);
		process->exe[n] = '\0';
	}
}

static bool match_text(const char *pattern, const char *text) {
	return text != NULL && text[0] != '\0' && fnmatch(pattern, text, 0) == 0;
}

static bool process_matches(
		const struct fw_app_process *process, const struct fw_rule *rule) {
	return process->pid > 0 &&
			(match_text(rule->pattern, process->comm) ||
					match_text(rule->pattern, process->exe));
}

static bool client_matches(
		const struct fw_app_client *ac, const struct fw_rule *rule) {
	switch (rule->match) {
	case FW_MATCH_EXE:
		return process_matches(&ac->process, rule);
	case FW_MATCH_APP_ID: {
		struct fw_app_toplevel *toplevel;
		wl_list_for_each(toplevel, &ac->toplevels, link) {
			if (match_text(rule->pattern, toplevel->toplevel->app_id)) {
				return true;
			}
		}
		return false;
	}
	case FW_MATCH_X_CLASS:
		/* Its windows are Xwayland's: see fw_app_rules_hint_class. */
		return false;
	}
	return false;
}

/* Gives the client the priority the rules now say, if that changed. */
static void apply_client(struct fw_app_client *ac) {
	struct fw_server *server = ac->rules->server;
	bool has = false;
	int priority = 0, line = 0;
	for (size_t i = 0; i < server->file->rule_count; i++) {
		const struct fw_rule *rule = &server->file->rules[i];
		if (rule->has_priority && client_matches(ac, rule)) {
			has = true;
			priority = rule->priority;
			line = rule->line;
		}
	}
	/*
	 * Only a change in what the rules say is applied, so a priority set
	 * some other way stays until then. No rule any more: back to 0.
	 */
	if (has == ac->has_priority && priority == ac->priority) {
		return;
	}
	ac->has_priority = has;
	ac->priority = priority;
	ac->priority_line = line;
	if (fw_sched_set_client_priority(server->sched, ac->client, priority)) {
		if (has) {
			wlr_log(WLR_INFO,
					"Client pid %d (%s): priority %d, rule at line %d",
					(int)ac->process.pid, ac->process.comm, priority, line);
		} else {
			wlr_log(WLR_INFO, "Client pid %d (%s): no rule, priority 0",
					(int)ac->process.pid, ac->process.comm);
		}
	}
}

/* 0 while its process is not known yet (Xwayland's, before it writes). */
static pid_t client_pid(struct fw_server *server, struct wl_client *client) {
	pid_t pid = 0;
	fw_client_process(server, client, &pid, NULL, NULL);
	return pid;
}

static void handle_identify(void *data) {
	struct fw_app_client *ac = data;
	ac->identify = NULL;
	read_process(&ac->process, client_pid(ac->rules->server, ac->client));
	apply_client(ac);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_app_client *ac = wl_container_of(listener, ac, destroy);
	/* The client goes before its resources: its toplevels outlive it. */
	struct fw_app_toplevel *toplevel, *tmp;
	wl_list_for_each_safe(toplevel, tmp, &ac->toplevels, link) {
		toplevel->owner = NULL;
		wl_list_remove(&toplevel->link);
		wl_list_init(&toplevel->link);
	}
	if (ac->identify != NULL) {
		wl_event_source_remove(ac->identify);
	}
	wl_list_remove(&ac->destroy.link);
	wl_list_remove(&ac->link);
	free(ac);
}

static struct fw_app_client *client_get(
		struct fw_app_rules *rules, struct wl_client *client) {
	struct wl_listener *listener =
			wl_client_get_destroy_listener(client, handle_client_destroy);
	if (listener != NULL) {
		struct fw_app_client *ac = wl_container_of(listener, ac, destroy);
		return ac;
	}
	struct fw_app_client *ac = calloc(1, sizeof(*ac));
	if (ac == NULL) {
		return NULL;
	}
	ac->rules = rules;
	ac->client = client;
	wl_list_init(&ac->toplevels);
	ac->identify =
			wl_event_loop_add_idle(rules->server->loop, handle_identify, ac);
	ac->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(client, &ac->destroy);
	wl_list_insert(rules->clients.prev, &ac->link);
	return ac;
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct fw_app_rules *rules =
			wl_container_of(listener, rules, client_created);
	client_get(rules, data);
}

/*
 * Xwayland's client is made before the process it forks has become
 * Xwayland: who it is can be read once Xwayland says it is ready.
 */
static void handle_xwayland_ready(struct wl_listener *listener, void *data) {
	struct fw_app_rules *rules =
			wl_container_of(listener, rules, xwayland_ready);
	struct wl_client *client = fw_xwayland_client(rules->server);
	if (client == NULL) {
		return;
	}
	struct fw_app_client *ac = client_get(rules, client);
	if (ac != NULL) {
		read_process(&ac->process, client_pid(rules->server, client));
		apply_client(ac);
	}
}

static void handle_set_app_id(struct wl_listener *listener, void *data) {
	struct fw_app_toplevel *toplevel =
			wl_container_of(listener, toplevel, set_app_id);
	if (toplevel->owner != NULL) {
		apply_client(toplevel->owner);
	}
}

static void handle_toplevel_destroy(struct wl_listener *listener, void *data) {
	struct fw_app_toplevel *toplevel =
			wl_container_of(listener, toplevel, destroy);
	struct fw_app_client *owner = toplevel->owner;
	wl_list_remove(&toplevel->set_app_id.link);
	wl_list_remove(&toplevel->destroy.link);
	wl_list_remove(&toplevel->link);
	free(toplevel);
	if (owner != NULL) {
		apply_client(owner);
	}
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_app_rules *rules =
			wl_container_of(listener, rules, new_xdg_surface);
	struct wlr_xdg_surface *xdg_surface = data;
	if (xdg_surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}
	struct fw_app_client *owner =
			client_get(rules, wl_resource_get_client(xdg_surface->resource));
	struct fw_app_toplevel *toplevel = calloc(1, sizeof(*toplevel));
	if (owner == NULL || toplevel == NULL) {
		free(toplevel);
		return;
	}
	toplevel->owner = owner;
	toplevel->toplevel = xdg_surface->toplevel;
	fw_listener_connect(&toplevel->set_app_id,
			&xdg_surface->toplevel->events.set_app_id, handle_set_app_id);
	fw_listener_connect(&toplevel->destroy, &xdg_surface->events.destroy,
			handle_toplevel_destroy);
	wl_list_insert(&owner->toplevels, &toplevel->link);
	apply_client(owner);
}

static void handle_xsurface_set_pid(struct wl_listener *listener, void *data) {
	struct fw_app_xsurface *xs = wl_container_of(listener, xs, set_pid);
	read_process(&xs->process, xs->xsurface->pid);
}

static void xsurface_destroy(struct fw_app_xsurface *xs) {
	wl_list_remove(&xs->set_pid.link);
	wl_list_remove(&xs->destroy.link);
	wl_list_remove(&xs->link);
	free(xs);
}

static void handle_xsurface_destroy(struct wl_listener *listener, void *data) {
	struct fw_app_xsurface *xs = wl_container_of(listener, xs, destroy);
	xsurface_destroy(xs);
}

static void handle_new_xsurface(struct wl_listener *listener, void *data) {
	struct fw_app_rules *rules = wl_container_of(listener, rules, new_xsurface);
	struct fw_app_xsurface *xs = calloc(1, sizeof(*xs));
	if (xs == NULL) {
		return;
	}
	xs->xsurface = data;
	read_process(&xs->process, xs->xsurface->pid);
	fw_listener_connect(&xs->set_pid, &xs->xsurface->events.set_pid,
			handle_xsurface_set_pid);
	fw_listener_connect(&xs->destroy, &xs->xsurface->events.destroy,
			handle_xsurface_destroy);
	wl_list_insert(&rules->xsurfaces, &xs->link);
}

struct fw_app_rules *fw_app_rules_create(struct fw_server *server) {
	struct fw_app_rules *rules = calloc(1, sizeof(*rules));
	if (rules == NULL) {
		return NULL;
	}
	rules->server = server;
	wl_list_init(&rules->clients);
	wl_list_init(&rules->xsurfaces);
	rules->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(
			server->display, &rules->client_created);
	fw_listener_connect(&rules->new_xdg_surface,
			&server->xdg_shell->events.new_surface, handle_new_surface);
	if (server->xwayland != NULL) {
		fw_listener_connect(&rules->new_xsurface,
				&server->xwayland->events.new_surface, handle_new_xsurface);
		fw_listener_connect(&rules->xwayland_ready,
				&server->xwayland->events.ready, handle_xwayland_ready);
	}
	/* Xwayland's client may be there already. */
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(server->display)) {
		client_get(rules, client);
	}
	return rules;
}

void fw_app_rules_destroy(struct fw_app_rules *rules) {
	if (rules == NULL) {
		return;
	}
	wl_list_remove(&rules->client_created.link);
	wl_list_remove(&rules->new_xdg_surface.link);
	fw_listener_disconnect(&rules->new_xsurface);
	fw_listener_disconnect(&rules->xwayland_ready);
	struct fw_app_client *ac, *ac_tmp;
	wl_list_for_each_safe(ac, ac_tmp, &rules->clients, link) {
		handle_client_destroy(&ac->destroy, ac->client);
	}
	struct fw_app_xsurface *xs, *xs_tmp;
	wl_list_for_each_safe(xs, xs_tmp, &rules->xsurfaces, link) {
		xsurface_destroy(xs);
	}
	free(rules);
}

void fw_app_rules_refresh(struct fw_app_rules *rules) {
	if (rules == NULL) {
		return;
	}
	struct fw_app_client *ac;
	wl_list_for_each(ac, &rules->clients, link) {
		apply_client(ac);
	}
}

/* Whether the rule names process pid: by its clients, or its X windows. */
static bool pid_matches(const struct fw_app_rules *rules, pid_t pid,
		const struct fw_rule *rule) {
	struct fw_app_client *ac;
	wl_list_for_each(ac, &rules->clients, link) {
		if (ac->process.pid == pid && client_matches(ac, rule)) {
			return true;
		}
	}
	struct fw_app_xsurface *xs;
	wl_list_for_each(xs, &rules->xsurfaces, link) {
		if (xs->process.pid != pid) {
			continue;
		}
		if (rule->match == FW_MATCH_X_CLASS
						? match_text(rule->pattern, xs->xsurface->class)
						: rule->match == FW_MATCH_EXE &&
								process_matches(&xs->process, rule)) {
			return true;
		}
	}
	return false;
}

void fw_app_rules_set_hint(struct fw_server *server, struct hints_proc *proc,
		pid_t pid, enum ratings_class measured, int64_t now) {
	struct fw_app_rules *rules = server->app_rules;
	const struct fw_rule *hint = NULL;
	for (size_t i = 0; rules != NULL && i < server->file->rule_count; i++) {
		const struct fw_rule *rule = &server->file->rules[i];
		if (rule->hint != FW_HINT_NONE && pid_matches(rules, pid, rule)) {
			hint = rule;
		}
	}
	hints_proc_set_target(proc,
			hint != NULL && hint->hint == FW_HINT_TARGET ? &hint->target
														 : NULL);
	hints_proc_set_class(proc,
			hint != NULL && hint->hint == FW_HINT_CLASS ? hint->class
														: measured,
			now);
}
