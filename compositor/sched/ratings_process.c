#include "compositor/sched/app_rules.h"
#include "compositor/sched/ratings.h"
#include "compositor/sched/ratings_internal.h"
#include "compositor/server.h"
#include "scheduler/process/proc_stat.h"
#include <stdlib.h>
#include <unistd.h>

/*
 * The processes the ratings follow, one record each however many
 * connections and windows it has, and the kernel hints each is given.
 */

struct fw_rated *fw_ratings_process_get(
		struct fw_ratings *ratings, pid_t pid, int pidfd, uid_t uid) {
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		if (rated->pid == pid) {
			if (pidfd >= 0) {
				close(pidfd);
			}
			rated->refs++;
			return rated;
		}
	}
	rated = calloc(1, sizeof(*rated));
	if (rated == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	rated->pid = pid;
	rated->refs = 1;
	rated->class = RATINGS_IDLE;
	rated->pidfd = pidfd;
	rated->uid = uid;
	ratings_client_init(&rated->rc, pid);
	wl_list_insert(ratings->rated.prev, &rated->link);
	return rated;
}

void fw_ratings_process_free(struct fw_rated *rated) {
	/* Gone from the compositor: its threads get their own back. */
	hints_app_destroy(rated->app);
	if (rated->pidfd >= 0) {
		close(rated->pidfd);
	}
	wl_list_remove(&rated->link);
	free(rated);
}

void fw_ratings_process_unref(struct fw_rated *rated) {
	if (rated == NULL || --rated->refs > 0) {
		return;
	}
	struct fw_rated *xwayland = rated->xwayland;
	fw_ratings_process_free(rated);
	fw_ratings_process_unref(xwayland);
}

void fw_ratings_process_set_class(
		struct fw_ratings *ratings, struct fw_rated *rated, int64_t now) {
	if (!rated->hinted && ratings->hints != NULL) {
		rated->hinted = true;
		/*
		 * Xwayland's children (xkbcomp) are not its X clients, and a
		 * process known only by a pid that no pidfd pinned is not safe
		 * to walk from: their own process alone.
		 */
		bool own_only = rated->never_idle || rated->pidfd < 0;
		rated->app = hints_app_create(
				ratings->hints, rated->pid, rated->pidfd, rated->uid);
		rated->pidfd = -1;
		if (rated->app != NULL && rated->never_idle) {
			hints_app_never_idle(rated->app);
		}
		if (rated->app != NULL && own_only) {
			hints_app_own_process_only(rated->app);
		}
	}
	if (rated->app != NULL) {
		/* A per-application rule may override what was measured. */
		fw_app_rules_set_hint(
				ratings->server, rated->app, rated->pid, rated->class, now);
	}
}

uint64_t fw_ratings_cpu_ticks(struct fw_server *server) {
	struct fw_ratings *ratings = server->ratings;
	if (ratings == NULL) {
		return 0;
	}
	uint64_t sum = 0;
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		uint64_t ticks;
		if (rated->app != NULL && !rated->app->gone) {
			sum += hints_app_cpu_ticks(rated->app);
		} else if (proc_stat_read_cpu(PROC_ROOT, rated->pid, &ticks)) {
			sum += ticks;
		}
	}
	return sum;
}
