#include "compositor/sched/app_rules.h"
#include "compositor/listener.h"
#include "compositor/sched/client.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "scheduler/hints/hints.h"
#include <fnmatch.h>
#include <sched.h>
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>

struct fw_app_toplevel {
	struct fw_app_rules *rules;
	struct fw_client *owner; /* NULL once the client is gone */
	struct wlr_xdg_toplevel *toplevel;
	struct wl_listener set_app_id;
	struct wl_listener destroy;
	struct wl_list link; /* fw_client.toplevels */
};

/*
 * An X window: its WM_CLASS, and the process Xwayland names for it, which
 * wlroots knows by the time it announces the window.
 */
struct fw_app_xsurface {
	struct wlr_xwayland_surface *xsurface;
	struct fw_client_process process;
	struct wl_listener destroy;
	struct wl_list link; /* fw_app_rules.xsurfaces */
};

struct fw_app_rules {
	struct fw_server *server;
	const struct fw_rule *rules; /* in file order */
	size_t rule_count;
	struct fw_client_list *clients;
	struct wl_list xsurfaces; /* fw_app_xsurface.link */
	struct wl_listener client_identified;
	struct wl_listener client_destroy;
	struct wl_listener new_xdg_toplevel;
	struct wl_listener new_xsurface;
	struct wl_listener xwayland_ready;
};

static bool match_text(const char *pattern, const char *text) {
	return text != NULL && text[0] != '\0' && fnmatch(pattern, text, 0) == 0;
}

/* The whole path: comm and the file's name are its caller's to choose. */
static bool process_matches(
		const struct fw_client_process *process, const struct fw_rule *rule) {
	return process->pid > 0 && match_text(rule->pattern, process->path);
}

static bool client_matches(
		const struct fw_client *client, const struct fw_rule *rule) {
	switch (rule->match) {
	case FW_MATCH_EXE:
		return process_matches(&client->process, rule);
	case FW_MATCH_APP_ID: {
		struct fw_app_toplevel *toplevel;
		wl_list_for_each(toplevel, &client->toplevels, link) {
			if (match_text(rule->pattern, toplevel->toplevel->app_id)) {
				return true;
			}
		}
		return false;
	}
	case FW_MATCH_X_CLASS:
		/* Its windows are Xwayland's: see fw_app_rules_set_hint. */
		return false;
	}
	return false;
}

/* Whether a hint gives a process less than it has. */
static bool hint_lowers(const struct fw_rule *rule) {
	if (rule->hint == FW_HINT_CLASS) {
		return rule->class == RATINGS_BACKGROUND;
	}
	return rule->hint == FW_HINT_TARGET && !rule->target.keep &&
			(rule->target.policy != SCHED_OTHER ||
					(rule->target.set_nice && rule->target.nice > 0));
}

/*
 * Whether rule i matches the client. A rule on a name the client chose
 * that lowered it keeps matching it: it would only have to change its
 * app_id to shed it otherwise.
 */
static bool rule_matches(
		struct fw_app_rules *rules, struct fw_client *client, size_t i) {
	const struct fw_rule *rule = &rules->rules[i];
	if (client->kept_rules != NULL && client->kept_rules[i]) {
		return true;
	}
	if (!client_matches(client, rule)) {
		return false;
	}
	bool lowers =
			(rule->has_priority && rule->priority < 0) || hint_lowers(rule);
	if (rule->claimable && lowers) {
		if (client->kept_rules == NULL) {
			client->kept_rules =
					calloc(rules->rule_count, sizeof(*client->kept_rules));
		}
		if (client->kept_rules != NULL) {
			client->kept_rules[i] = true;
		}
	}
	return true;
}

/*
 * Gives the client the priority the rules now say, if that changed; never
 * above what it lowered itself to.
 */
static void apply_client(struct fw_app_rules *rules, struct fw_client *client) {
	struct fw_server *server = rules->server;
	bool has = false;
	int priority = 0, line = 0;
	for (size_t i = 0; i < rules->rule_count; i++) {
		const struct fw_rule *rule = &rules->rules[i];
		if (rule->has_priority && rule_matches(rules, client, i)) {
			has = true;
			priority = rule->priority;
			line = rule->line;
		}
	}
	if (client->self_lowered && priority > client->self_priority) {
		/* Its own choice stands; a rule may only lower it further. */
		has = true;
		priority = client->self_priority;
	}
	/*
	 * Only a change in what the rules say is applied, so a priority set
	 * some other way stays until then. No rule any more: back to 0.
	 */
	if (has == client->has_priority && priority == client->priority) {
		return;
	}
	client->has_priority = has;
	client->priority = priority;
	client->priority_line = line;
	if (fw_sched_set_client_priority(
				server->sched, client->wl_client, priority)) {
		if (has) {
			wlr_log(WLR_INFO,
					"Client pid %d (%s): priority %d, rule at line %d",
					(int)client->process.pid, client->process.comm, priority,
					line);
		} else {
			wlr_log(WLR_INFO, "Client pid %d (%s): no rule, priority 0",
					(int)client->process.pid, client->process.comm);
		}
	}
}

/* Its process was looked up, once the gate had it. */
static void handle_client_identified(struct wl_listener *listener, void *data) {
	struct fw_app_rules *rules =
			wl_container_of(listener, rules, client_identified);
	apply_client(rules, data);
}

/* The client goes before its resources: its toplevels outlive it. */
static void forget_toplevels(struct fw_client *client) {
	struct fw_app_toplevel *toplevel, *tmp;
	wl_list_for_each_safe(toplevel, tmp, &client->toplevels, link) {
		toplevel->owner = NULL;
		wl_list_remove(&toplevel->link);
		wl_list_init(&toplevel->link);
	}
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_client *client = data;
	forget_toplevels(client);
	free(client->kept_rules);
	client->kept_rules = NULL;
}

/*
 * Xwayland's client is made before the process it forks has become
 * Xwayland: who it is can be read once Xwayland says it is ready.
 */
static void handle_xwayland_ready(struct wl_listener *listener, void *data) {
	struct fw_app_rules *rules =
			wl_container_of(listener, rules, xwayland_ready);
	struct fw_client *client = rules->clients->xwayland;
	if (client != NULL) {
		fw_client_identify(client);
		apply_client(rules, client);
	}
}

static void handle_set_app_id(struct wl_listener *listener, void *data) {
	struct fw_app_toplevel *toplevel =
			wl_container_of(listener, toplevel, set_app_id);
	if (toplevel->owner != NULL) {
		apply_client(toplevel->rules, toplevel->owner);
	}
}

static void handle_toplevel_destroy(struct wl_listener *listener, void *data) {
	struct fw_app_toplevel *toplevel =
			wl_container_of(listener, toplevel, destroy);
	struct fw_app_rules *rules = toplevel->rules;
	struct fw_client *owner = toplevel->owner;
	wl_list_remove(&toplevel->set_app_id.link);
	wl_list_remove(&toplevel->destroy.link);
	wl_list_remove(&toplevel->link);
	free(toplevel);
	if (owner != NULL) {
		apply_client(rules, owner);
	}
}

static void handle_new_toplevel(struct wl_listener *listener, void *data) {
	struct fw_app_rules *rules =
			wl_container_of(listener, rules, new_xdg_toplevel);
	struct wlr_xdg_toplevel *xdg_toplevel = data;
	struct fw_client *owner =
			fw_client_get(wl_resource_get_client(xdg_toplevel->resource));
	struct fw_app_toplevel *toplevel = calloc(1, sizeof(*toplevel));
	if (owner == NULL || toplevel == NULL) {
		free(toplevel);
		return;
	}
	toplevel->rules = rules;
	toplevel->owner = owner;
	toplevel->toplevel = xdg_toplevel;
	fw_listener_connect(&toplevel->set_app_id, &xdg_toplevel->events.set_app_id,
			handle_set_app_id);
	/* The toplevel may go before its xdg_surface. */
	fw_listener_connect(&toplevel->destroy, &xdg_toplevel->events.destroy,
			handle_toplevel_destroy);
	wl_list_insert(&owner->toplevels, &toplevel->link);
	apply_client(rules, owner);
}

static void xsurface_destroy(struct fw_app_xsurface *xs) {
	wl_list_remove(&xs->destroy.link);
	wl_list_remove(&xs->link);
	fw_client_process_finish(&xs->process);
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
	fw_client_process_read(&xs->process, xs->xsurface->pid);
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
	rules->clients = fw_sched_get_clients(server->sched);
	wl_list_init(&rules->xsurfaces);
	fw_listener_connect(&rules->client_identified,
			&rules->clients->events.identified, handle_client_identified);
	fw_listener_connect(&rules->client_destroy, &rules->clients->events.destroy,
			handle_client_destroy);
	fw_listener_connect(&rules->new_xdg_toplevel,
			&server->xdg_shell->events.new_toplevel, handle_new_toplevel);
	if (server->xwayland != NULL) {
		fw_listener_connect(&rules->new_xsurface,
				&server->xwayland->events.new_surface, handle_new_xsurface);
		fw_listener_connect(&rules->xwayland_ready,
				&server->xwayland->events.ready, handle_xwayland_ready);
	}
	return rules;
}

void fw_app_rules_destroy(struct fw_app_rules *rules) {
	if (rules == NULL) {
		return;
	}
	fw_listener_disconnect(&rules->client_identified);
	fw_listener_disconnect(&rules->client_destroy);
	wl_list_remove(&rules->new_xdg_toplevel.link);
	fw_listener_disconnect(&rules->new_xsurface);
	fw_listener_disconnect(&rules->xwayland_ready);
	struct fw_client *client;
	wl_list_for_each(client, &rules->clients->clients, link) {
		forget_toplevels(client);
		client->has_priority = false;
		client->priority = 0;
		free(client->kept_rules);
		client->kept_rules = NULL;
	}
	struct fw_app_xsurface *xs, *xs_tmp;
	wl_list_for_each_safe(xs, xs_tmp, &rules->xsurfaces, link) {
		xsurface_destroy(xs);
	}
	free(rules);
}

void fw_app_rules_set(
		struct fw_app_rules *rules, const struct fw_rule *list, size_t count) {
	if (rules == NULL) {
		return;
	}
	rules->rules = list;
	rules->rule_count = count;
	/* Xwayland's client may be there already, before the first call. */
	struct fw_client *client;
	wl_list_for_each(client, &rules->clients->clients, link) {
		/* What the old rules lowered is theirs to keep no more. */
		free(client->kept_rules);
		client->kept_rules = NULL;
		apply_client(rules, client);
	}
}

/* Whether rule i names process pid: by its clients, or its X windows. */
static bool pid_matches(struct fw_app_rules *rules, pid_t pid, size_t i) {
	const struct fw_rule *rule = &rules->rules[i];
	struct fw_client *client;
	wl_list_for_each(client, &rules->clients->clients, link) {
		if (client->process.pid == pid && rule_matches(rules, client, i)) {
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

void fw_app_rules_set_hint(struct fw_server *server, struct hints_app *app,
		pid_t pid, enum ratings_class measured, int64_t now) {
	struct fw_app_rules *rules = server->app_rules;
	const struct fw_rule *hint = NULL;
	bool one_process = false;
	for (size_t i = 0; rules != NULL && i < rules->rule_count; i++) {
		const struct fw_rule *rule = &rules->rules[i];
		if ((rule->hint != FW_HINT_NONE || rule->has_processes) &&
				pid_matches(rules, pid, i)) {
			if (rule->hint != FW_HINT_NONE) {
				hint = rule;
			}
			if (rule->has_processes) {
				one_process = rule->one_process;
			}
		}
	}
	hints_app_set_single(app, one_process);
	hints_app_set_target(app,
			hint != NULL && hint->hint == FW_HINT_TARGET ? &hint->target
														 : NULL);
	hints_app_set_class(app,
			hint != NULL && hint->hint == FW_HINT_CLASS ? hint->class
														: measured,
			now);
}
