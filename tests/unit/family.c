#include "tests/unit/family.h"
#include "tests/unit/check.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OTHER_UID 65534

enum op {
	OP_CHILD,
	OP_CHILD_AT,
	OP_REAP,
	OP_KILL,
};

struct command {
	enum op op;
	enum family_child kind;
	int threads;
	pid_t pid;
};

static void send_pid(int fd, pid_t pid) {
	if (write(fd, &pid, sizeof(pid)) != sizeof(pid)) {
		_exit(1);
	}
}

static pid_t read_pid(int fd) {
	pid_t pid = -1;
	CHECK_INT(read(fd, &pid, sizeof(pid)), sizeof(pid));
	return pid;
}

static void *thread_main(void *arg) {
	for (;;) {
		pause();
	}
	return arg;
}

static void become_other_uid(int sig) {
	(void)sig;
	syscall(SYS_setresuid, OTHER_UID, OTHER_UID, OTHER_UID);
	/* A change of credentials clears the parent-death signal. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/* In a new child of the root: becomes kind, says it is ready, sleeps. */
static void child_main(const struct command *command, int ack) {
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	switch (command->kind) {
	case FAMILY_SETSID:
		if (setsid() < 0) {
			_exit(1);
		}
		break;
	case FAMILY_OTHER_UID:
		become_other_uid(0);
		break;
	case FAMILY_UID_ON_SIGNAL:
		signal(SIGUSR1, become_other_uid);
		break;
	case FAMILY_EXITS:
		_exit(0);
	case FAMILY_GRANDPARENT: {
		/* The grandchild's pid goes first, once it runs. */
		int ready[2];
		if (pipe(ready) != 0) {
			_exit(1);
		}
		pid_t grandchild = fork();
		if (grandchild == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			send_pid(ready[1], getpid());
			for (;;) {
				pause();
			}
		}
		pid_t pid;
		if (read(ready[0], &pid, sizeof(pid)) != sizeof(pid)) {
			_exit(1);
		}
		send_pid(ack, pid);
		break;
	}
	case FAMILY_SLEEPER:
		break;
	}
	for (int i = 0; i < command->threads; i++) {
		pthread_t thread;
		if (pthread_create(&thread, NULL, thread_main, NULL) != 0) {
			_exit(1);
		}
	}
	send_pid(ack, getpid());
	for (;;) {
		pause();
	}
}

static void root_main(int cmd, int ack, bool own_session) {
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (own_session && setsid() < 0) {
		_exit(1);
	}
	struct command command;
	while (read(cmd, &command, sizeof(command)) == sizeof(command)) {
		if (command.op == OP_REAP) {
			while (waitpid(-1, NULL, WNOHANG) > 0) {
			}
			send_pid(ack, 0);
			continue;
		}
		if (command.op == OP_KILL) {
			kill(command.pid, SIGKILL);
			waitpid(command.pid, NULL, 0);
			send_pid(ack, 0);
			continue;
		}
		if (command.op == OP_CHILD_AT && !family_next_pid(command.pid)) {
			send_pid(ack, -1);
			continue;
		}
		pid_t pid = fork();
		if (pid == 0) {
			child_main(&command, ack);
		}
		if (command.kind == FAMILY_EXITS || pid < 0) {
			send_pid(ack, pid);
		}
	}
	_exit(0);
}

void family_start(struct family *family, bool own_session) {
	/* Orphans of the family come back here to be reaped (family_stop). */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int cmd[2], ack[2];
	CHECK(pipe(cmd) == 0 && pipe(ack) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(cmd[1]);
		close(ack[0]);
		root_main(cmd[0], ack[1], own_session);
	}
	close(cmd[0]);
	close(ack[1]);
	*family = (struct family){.root = pid, .cmd = cmd[1], .ack = ack[0]};
	/* The root is ready once it has its session: wait for it. */
	for (int i = 0; i < 1000 && own_session && getsid(pid) != pid; i++) {
		usleep(1000);
	}
}

void family_stop(struct family *family) {
	close(family->cmd);
	close(family->ack);
	/* A child whose uid changed lost its parent-death signal: the group
	 * goes too (a child in a session of its own still has its signal). */
	kill(-family->root, SIGKILL);
	kill(family->root, SIGKILL);
	waitpid(family->root, NULL, 0);
	/* The rest die with it (PR_SET_PDEATHSIG) and come here. */
	for (int i = 0; i < 200; i++) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);
		if (pid < 0) {
			break;
		}
		if (pid == 0) {
			usleep(5000);
		}
	}
	*family = (struct family){.root = -1, .cmd = -1, .ack = -1};
}

static void send_command(struct family *family, const struct command *command) {
	CHECK_INT(write(family->cmd, command, sizeof(*command)), sizeof(*command));
}

pid_t family_child(struct family *family, enum family_child kind, int threads,
		pid_t *grandchild) {
	struct command command = {.op = OP_CHILD, .kind = kind, .threads = threads};
	send_command(family, &command);
	if (kind == FAMILY_GRANDPARENT) {
		pid_t pid = read_pid(family->ack);
		if (grandchild != NULL) {
			*grandchild = pid;
		}
	}
	pid_t pid = read_pid(family->ack);
	CHECK(pid > 0);
	return pid;
}

bool family_child_at(struct family *family, pid_t at, pid_t *pid) {
	for (int tries = 0; tries < 20; tries++) {
		struct command command = {
				.op = OP_CHILD_AT, .kind = FAMILY_SLEEPER, .pid = at};
		send_command(family, &command);
		*pid = read_pid(family->ack);
		if (*pid == at) {
			return true;
		}
		if (*pid <= 0) {
			return false;
		}
		family_kill(family, *pid);
	}
	return false;
}

void family_reap(struct family *family) {
	struct command command = {.op = OP_REAP};
	send_command(family, &command);
	read_pid(family->ack);
}

void family_kill(struct family *family, pid_t pid) {
	struct command command = {.op = OP_KILL, .pid = pid};
	send_command(family, &command);
	read_pid(family->ack);
}

void family_wait_uid(pid_t pid, uid_t uid) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	for (int i = 0; i < 2000; i++) {
		FILE *file = fopen(path, "re");
		CHECK(file != NULL);
		char line[256];
		unsigned long real = 0, effective = 0, saved = 0;
		while (fgets(line, sizeof(line), file) != NULL &&
				sscanf(line, "Uid: %lu %lu %lu", &real, &effective, &saved) !=
						3) {
		}
		fclose(file);
		if (real == uid && effective == uid && saved == uid) {
			return;
		}
		usleep(1000);
	}
	CHECK(!"the uid never changed");
}

bool family_next_pid(pid_t want) {
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%d", (int)want - 1);
	bool ok = write(fd, buf, (size_t)len) == len;
	close(fd);
	return ok;
}
