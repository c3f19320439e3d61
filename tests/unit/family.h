#ifndef FAIRWAY_TESTS_UNIT_FAMILY_H
#define FAIRWAY_TESTS_UNIT_FAMILY_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * A process family for the hints' tests: a root process in a session of
 * its own (or the test's) that starts children on command, as an
 * application does: plain ones, ones with threads, ones that call
 * setsid() or change uid, ones that exit at once, a grandchild. Every
 * process dies with the test (PR_SET_PDEATHSIG), and family_stop kills
 * the lot.
 */

struct family {
	pid_t root;
	int cmd, ack;
};

enum family_child {
	FAMILY_SLEEPER, /* sleeps */
	FAMILY_SETSID, /* calls setsid(), then sleeps */
	FAMILY_OTHER_UID, /* becomes uid 65534 (root only), then sleeps */
	FAMILY_UID_ON_SIGNAL, /* becomes uid 65534 on SIGUSR1 */
	FAMILY_EXITS, /* exits at once: a zombie until family_reap */
	FAMILY_GRANDPARENT, /* starts a sleeper of its own first */
};

/* own_session: the root calls setsid(). */
void family_start(struct family *family, bool own_session);
void family_stop(struct family *family);

/*
 * A child of the root of the kind, with threads threads besides its main
 * one; at (> 0) the pid it must have (through ns_last_pid; false if it
 * got another). Returns its pid (FAMILY_GRANDPARENT: the grandchild's in
 * *grandchild).
 */
pid_t family_child(struct family *family, enum family_child kind, int threads,
		pid_t *grandchild);
/* Like family_child, at pid at; false if the kernel gave another pid. */
bool family_child_at(struct family *family, pid_t at, pid_t *pid);
/* The root reaps its exited children. */
void family_reap(struct family *family);
/* Kills one of the family (a child or grandchild) and has it reaped. */
void family_kill(struct family *family, pid_t pid);

/* Waits until pid runs as uid (after FAMILY_UID_ON_SIGNAL's SIGUSR1). */
void family_wait_uid(pid_t pid, uid_t uid);

/* Makes the next fork get pid want (ns_last_pid); false if it cannot. */
bool family_next_pid(pid_t want);

#endif
