#include "scheduler/hints/hints.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/*
 * An application as --stats and fairway-top show it (hints.h,
 * hints_app_json).
 */

struct out {
	char *buf;
	size_t size;
	int len;
};

__attribute__((format(printf, 2, 3))) static void put(
		struct out *out, const char *fmt, ...) {
	if (out->len < 0) {
		return;
	}
	va_list args;
	va_start(args, fmt);
	size_t at = (size_t)out->len < out->size ? (size_t)out->len : out->size;
	int n = vsnprintf(out->buf + at, out->size - at, fmt, args);
	va_end(args);
	out->len = n < 0 ? -1 : out->len + n;
}

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void put_string(struct out *out, const char *text) {
	put(out, "\"");
	for (const unsigned char *p = (const unsigned char *)text; *p != '\0';
			p++) {
		if (*p == '"' || *p == '\\') {
			put(out, "\\%c", *p);
		} else if (*p < 0x20) {
			put(out, "\\u%04x", *p);
		} else {
			put(out, "%c", *p);
		}
	}
	put(out, "\"");
}

/* Whether fairway changed any of member's threads. */
static bool member_hinted(const struct hint_member *member) {
	for (size_t i = 0; i < member->threads.count; i++) {
		if (member->threads.items[i].changed) {
			return true;
		}
	}
	return false;
}

static void put_group(struct out *out, const struct hints_app_group *group) {
	const struct hint_group_place *place = &group->place;
	if (!group->changed) {
		put(out, "{\"kind\":\"%s\",\"set\":false,\"why\":",
				hint_group_kind_name(group->kind));
		put_string(out, group->why != NULL ? group->why : "not yet");
		put(out, "}");
		return;
	}
	put(out, "{\"kind\":\"%s\",\"set\":true,",
			hint_group_kind_name(place->kind));
	if (place->kind == HINT_GROUP_AUTOGROUP) {
		put(out,
				"\"autogroup\":%" PRIu64 ",\"nice\":%" PRId32
				",\"was\":%" PRId32 "}",
				place->autogroup, group->applied.nice, group->saved.nice);
		return;
	}
	put(out, "\"cgroup\":");
	put_string(out, place->cgroup);
	put(out,
			",\"weight\":%" PRIu32 ",\"idle\":%d,\"was\":%" PRIu32
			",\"was_idle\":%d}",
			group->applied.weight, group->applied.idle, group->saved.weight,
			group->saved.idle);
}

int hints_app_json(const struct hints_app *app, char *buf, size_t size) {
	struct out out = {.buf = buf, .size = size};
	if (size > 0) {
		buf[0] = '\0';
	}
	put(&out, ",\"hint_class\":\"%s\",\"scope\":\"%s\",\"processes\":[",
			ratings_class_name(app->applied),
			app->tree.single ? "process" : "tree");
	for (size_t i = 0; i < app->tree.count; i++) {
		const struct hint_member *member = app->tree.members[i];
		put(&out, "%s{\"process\":%d,\"threads\":%zu,\"hinted\":%s}",
				i > 0 ? "," : "", (int)member->pid, member->threads.count,
				member_hinted(member) ? "true" : "false");
	}
	put(&out, "],\"untracked\":%zu,\"outsiders\":%zu,\"group\":",
			app->tree.untracked, app->tree.outsiders);
	put_group(&out, &app->group);
	return out.len;
}

void hints_app_summarize(
		const struct hints_app *app, struct hints_app_summary *summary) {
	*summary = (struct hints_app_summary){.group_kind = HINT_GROUP_NONE};
	summary->processes = (int)app->tree.count;
	summary->threads = (int)hint_tree_thread_count(&app->tree);
	for (size_t i = 0; i < app->tree.count; i++) {
		summary->processes_hinted += member_hinted(app->tree.members[i]);
	}
	const struct hints_app_group *group = &app->group;
	if (group->changed) {
		summary->group_kind = group->place.kind;
		summary->group_value = group->place.kind == HINT_GROUP_AUTOGROUP
				? (int64_t)group->applied.nice
				: (int64_t)group->applied.weight;
	}
}

uint64_t hints_app_cpu_ticks(const struct hints_app *app) {
	return hint_tree_cpu_ticks(&app->tree);
}
