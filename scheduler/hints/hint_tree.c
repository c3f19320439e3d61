#include "scheduler/hints/hint_tree.h"
#include "scheduler/process/proc_stat.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void member_free(struct hint_member *member) {
	hint_threads_finish(&member->threads);
	if (member->pidfd >= 0) {
		close(member->pidfd);
	}
	free(member);
}

static bool append(struct hint_tree *tree, struct hint_member *member) {
	if (tree->count == tree->capacity) {
		size_t capacity = tree->capacity ? tree->capacity * 2 : 4;
		struct hint_member **members =
				realloc(tree->members, capacity * sizeof(*members));
		if (members == NULL) {
			return false;
		}
		tree->members = members;
		tree->capacity = capacity;
	}
	tree->members[tree->count++] = member;
	return true;
}

bool hint_tree_init(struct hint_tree *tree, pid_t pid, int pidfd, uid_t uid) {
	*tree = (struct hint_tree){0};
	if (pid > 0 && pidfd < 0) {
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	}
	struct proc_stat stat;
	uid_t runs_as;
	/* What is read while the pidfd's process is alive is its own. */
	bool ok = pid > 0 && pidfd >= 0 &&
			proc_stat_read(PROC_ROOT, pid, pid, &stat) &&
			proc_stat_read_uid(PROC_ROOT, pid, &runs_as) &&
			(uid == (uid_t)-1 || runs_as == uid) &&
			proc_stat_pidfd_alive(pidfd);
	struct hint_member *root = ok ? calloc(1, sizeof(*root)) : NULL;
	if (root == NULL || !append(tree, root)) {
		free(root);
		free(tree->members);
		if (pidfd >= 0) {
			close(pidfd);
		}
		*tree = (struct hint_tree){0};
		return false;
	}
	*root = (struct hint_member){
			.pid = pid, .pidfd = pidfd, .start = stat.start};
	hint_threads_init(&root->threads);
	tree->sid = stat.sid;
	tree->uid = runs_as;
	return true;
}

void hint_tree_finish(struct hint_tree *tree) {
	for (size_t i = 0; i < tree->count; i++) {
		member_free(tree->members[i]);
	}
	free(tree->members);
	*tree = (struct hint_tree){0};
}

struct hint_member *hint_tree_find(const struct hint_tree *tree, pid_t pid) {
	for (size_t i = 0; i < tree->count; i++) {
		if (tree->members[i]->pid == pid) {
			return tree->members[i];
		}
	}
	return NULL;
}

size_t hint_tree_thread_count(const struct hint_tree *tree) {
	size_t count = 0;
	for (size_t i = 0; i < tree->count; i++) {
		count += tree->members[i]->threads.count;
	}
	return count;
}

/* Not exited: a zombie still answers its pidfd until it is reaped. */
static bool running(const struct proc_stat *stat) {
	return stat->state != 'Z' && stat->state != 'X';
}

bool hint_tree_member_ours(
		const struct hint_tree *tree, const struct hint_member *member) {
	struct proc_stat stat;
	uid_t uid;
	if (!proc_stat_pidfd_alive(member->pidfd) ||
			!proc_stat_read(PROC_ROOT, member->pid, member->pid, &stat) ||
			stat.start != member->start || !running(&stat)) {
		return false;
	}
	if (member != hint_tree_root(tree) &&
			(stat.sid != tree->sid ||
					!proc_stat_read_uid(PROC_ROOT, member->pid, &uid) ||
					uid != tree->uid)) {
		return false;
	}
	/* Checked again last: a pid recycled after the reads fails here. */
	return proc_stat_pidfd_alive(member->pidfd);
}

/*
 * member, which is no longer of the application, still runs in its
 * session under another uid: it exec'd a setuid program.
 */
static bool turned_outsider(
		const struct hint_tree *tree, const struct hint_member *member) {
	struct proc_stat stat;
	uid_t uid;
	return proc_stat_read(PROC_ROOT, member->pid, member->pid, &stat) &&
			stat.start == member->start && running(&stat) &&
			stat.sid == tree->sid &&
			(!proc_stat_read_uid(PROC_ROOT, member->pid, &uid) ||
					uid != tree->uid);
}

/* Members not leaving. */
static size_t active_count(const struct hint_tree *tree) {
	size_t count = 0;
	for (size_t i = 0; i < tree->count; i++) {
		count += !tree->members[i]->leaving;
	}
	return count;
}

/*
 * Pins pid as a new member under parent, if it is of the application:
 * parent's child now (read while parent's pidfd holds parent's pid, so
 * not a child of a process that took parent's pid since), in the root's
 * session, with the root's uid.
 */
static void join(
		struct hint_tree *tree, struct hint_member *parent, pid_t pid) {
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		return;
	}
	struct proc_stat stat;
	uid_t uid;
	bool ours = proc_stat_read(PROC_ROOT, pid, pid, &stat) && running(&stat) &&
			stat.ppid == parent->pid && stat.sid == tree->sid;
	if (ours &&
			(!proc_stat_read_uid(PROC_ROOT, pid, &uid) || uid != tree->uid)) {
		/* In its session but not of its uid: a setuid helper, say. */
		tree->outsiders++;
		ours = false;
	}
	ours = ours && proc_stat_pidfd_alive(pidfd) &&
			proc_stat_pidfd_alive(parent->pidfd);
	struct hint_member *member = ours ? calloc(1, sizeof(*member)) : NULL;
	if (member == NULL || !append(tree, member)) {
		free(member);
		close(pidfd);
		return;
	}
	*member = (struct hint_member){
			.pid = pid,
			.parent = parent->pid,
			.pidfd = pidfd,
			.start = stat.start,
	};
	hint_threads_init(&member->threads);
	tree->joined++;
}

/* Every child of member's tracked threads that is not a member yet. */
static void walk_children(struct hint_tree *tree, struct hint_member *member,
		const struct hint_tree_hooks *hooks) {
	for (size_t i = 0; i < member->threads.count; i++) {
		char path[96];
		snprintf(path, sizeof(path), "%s/%d/task/%d/children", PROC_ROOT,
				(int)member->pid, (int)member->threads.items[i].tid);
		FILE *file = fopen(path, "re");
		if (file == NULL) {
			continue;
		}
		int pid;
		while (fscanf(file, "%d", &pid) == 1) {
			if (pid <= 0 || hint_tree_find(tree, pid) != NULL ||
					(hooks->claimed != NULL &&
							hooks->claimed(pid, hooks->data))) {
				continue;
			}
			if (active_count(tree) >= HINT_TREE_PROCS_MAX) {
				tree->untracked++;
				continue;
			}
			join(tree, member, pid);
		}
		fclose(file);
	}
}

static void leave(
		struct hint_member *member, const struct hint_tree_hooks *hooks) {
	if (hooks->leaving != NULL) {
		hooks->leaving(member, hooks->data);
	}
	member->leaving = true;
}

/* Whether member's parent went to another application: then so does it. */
static bool handed_over(
		const struct hint_tree *tree, const struct hint_member *member) {
	struct hint_member *parent = hint_tree_find(tree, member->parent);
	return parent != NULL && parent->claimed;
}

int hint_tree_walk(
		struct hint_tree *tree, const struct hint_tree_hooks *hooks) {
	struct hint_member *root = hint_tree_root(tree);
	struct proc_stat stat;
	if (!proc_stat_read(PROC_ROOT, root->pid, root->pid, &stat) ||
			stat.start != root->start || !proc_stat_pidfd_alive(root->pidfd)) {
		return -1;
	}
	tree->sid = stat.sid;
	tree->untracked = tree->outsiders = tree->left = tree->joined = 0;
	size_t budget = HINT_TREE_THREADS_MAX;
	int fresh = 0;
	for (size_t i = 0; i < tree->count; i++) {
		struct hint_member *member = tree->members[i];
		if (member->leaving) {
			/* Given back already, between walks (hints.c). */
			continue;
		}
		if (i > 0) {
			member->claimed =
					(hooks->claimed != NULL &&
							hooks->claimed(member->pid, hooks->data)) ||
					handed_over(tree, member);
			if (tree->single || member->claimed ||
					!hint_tree_member_ours(tree, member)) {
				tree->outsiders += !tree->single && !member->claimed &&
						turned_outsider(tree, member);
				leave(member, hooks);
				continue;
			}
		}
		int found = hint_threads_scan(&member->threads, member->pid, budget,
				hooks->thread_gone, hooks->data);
		if (found < 0) {
			if (i == 0) {
				return -1;
			}
			leave(member, hooks);
			continue;
		}
		fresh += found;
		budget -=
				member->threads.count < budget ? member->threads.count : budget;
		if (!tree->single) {
			walk_children(tree, member, hooks);
		}
	}
	size_t kept = 0;
	for (size_t i = 0; i < tree->count; i++) {
		if (tree->members[i]->leaving) {
			member_free(tree->members[i]);
			tree->left++;
		} else {
			tree->members[kept++] = tree->members[i];
		}
	}
	tree->count = kept;
	return fresh;
}

uint64_t hint_tree_cpu_ticks(const struct hint_tree *tree) {
	uint64_t sum = 0;
	for (size_t i = 0; i < tree->count; i++) {
		uint64_t ticks;
		if (proc_stat_read_cpu(PROC_ROOT, tree->members[i]->pid, &ticks)) {
			sum += ticks;
		}
	}
	return sum;
}
