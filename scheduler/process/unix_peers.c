#include "scheduler/process/unix_peers.h"
#include "scheduler/log.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/*
 * Past this many fds a table is not read further: a client that holds
 * more is not worth fairway's time (it could hold a million), and one
 * that hides its X connection among them only goes unhinted.
 */
#define MAX_FDS_READ 65536

/* Socket inodes, sorted once read. */
struct inodes {
	uint32_t *items;
	size_t count, capacity;
};

static bool inodes_add(struct inodes *set, uint32_t ino) {
	if (set->count == set->capacity) {
		size_t capacity = set->capacity ? set->capacity * 2 : 32;
		uint32_t *items = realloc(set->items, capacity * sizeof(*items));
		if (items == NULL) {
			return false;
		}
		set->items = items;
		set->capacity = capacity;
	}
	set->items[set->count++] = ino;
	return true;
}

static int compare_inodes(const void *a, const void *b) {
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static bool inodes_has(const struct inodes *set, uint32_t ino) {
	return set->count > 0 &&
			bsearch(&ino, set->items, set->count, sizeof(*set->items),
					compare_inodes) != NULL;
}

/* The sockets in pid's fd table; false if it cannot be read whole. */
static bool held_sockets(pid_t pid, struct inodes *set) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	int dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = dir_fd >= 0 ? fdopendir(dir_fd) : NULL;
	if (dir == NULL) {
		sched_log(SCHED_LOG_DEBUG, "unix peers: %s: %s", path, strerror(errno));
		if (dir_fd >= 0) {
			close(dir_fd);
		}
		return false;
	}
	bool ok = true;
	size_t read = 0;
	struct dirent *ent;
	while (ok && (ent = readdir(dir)) != NULL) {
		if (ent->d_name[0] == '.') {
			continue;
		}
		if (++read > MAX_FDS_READ) {
			sched_log(SCHED_LOG_DEBUG, "unix peers: pid %d holds over %d fds",
					(int)pid, MAX_FDS_READ);
			ok = false;
			break;
		}
		char link[64];
		ssize_t len =
				readlinkat(dirfd(dir), ent->d_name, link, sizeof(link) - 1);
		if (len <= 0) {
			continue; /* closed meanwhile */
		}
		link[len] = '\0';
		unsigned long ino;
		char close_bracket;
		if (sscanf(link, "socket:[%lu%c", &ino, &close_bracket) == 2 &&
				close_bracket == ']' && ino <= UINT32_MAX) {
			ok = inodes_add(set, (uint32_t)ino);
		}
	}
	closedir(dir);
	if (ok && set->count > 0) {
		qsort(set->items, set->count, sizeof(*set->items), compare_inodes);
	}
	return ok;
}

/* The peer a sock_diag message names, or 0. */
static uint32_t message_peer(const struct nlmsghdr *header) {
	const struct unix_diag_msg *msg = NLMSG_DATA(header);
	int len = (int)header->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*msg));
	for (const struct rtattr *attr = (const struct rtattr *)(msg + 1);
			RTA_OK(attr, len); attr = RTA_NEXT(attr, len)) {
		if (attr->rta_type == UNIX_DIAG_PEER &&
				RTA_PAYLOAD(attr) >= sizeof(uint32_t)) {
			uint32_t peer;
			memcpy(&peer, RTA_DATA(attr), sizeof(peer));
			return peer;
		}
	}
	return 0;
}

/*
 * Whether a sock_diag message names a socket held in a whose peer is held
 * in b, or the other way round.
 */
static bool connects(const struct nlmsghdr *header, const struct inodes *a,
		const struct inodes *b) {
	if (header->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
			header->nlmsg_len < NLMSG_LENGTH(sizeof(struct unix_diag_msg))) {
		return false;
	}
	const struct unix_diag_msg *msg = NLMSG_DATA(header);
	uint32_t peer = message_peer(header);
	return peer != 0 &&
			((inodes_has(a, msg->udiag_ino) && inodes_has(b, peer)) ||
					(inodes_has(b, msg->udiag_ino) && inodes_has(a, peer)));
}

/*
 * Walks every unix socket of this network namespace with its peer: one
 * held in a whose peer is held in b, or the other way round (the side of
 * a sandboxed client may be in another namespace, and only its peer
 * listed), answers yes.
 */
static enum unix_peers_answer scan(
		const struct inodes *a, const struct inodes *b) {
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0) {
		sched_log(
				SCHED_LOG_DEBUG, "unix peers: sock_diag: %s", strerror(errno));
		return UNIX_PEERS_UNKNOWN;
	}
	struct {
		struct nlmsghdr header;
		struct unix_diag_req req;
	} request = {
			.header =
					{
							.nlmsg_len = sizeof(request),
							.nlmsg_type = SOCK_DIAG_BY_FAMILY,
							.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
					},
			.req =
					{
							.sdiag_family = AF_UNIX,
							.udiag_states = (uint32_t)-1,
							.udiag_show = UDIAG_SHOW_PEER,
					},
	};
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	if (sendto(fd, &request, sizeof(request), 0, (struct sockaddr *)&kernel,
				sizeof(kernel)) != (ssize_t)sizeof(request)) {
		sched_log(SCHED_LOG_DEBUG, "unix peers: sock_diag request: %s",
				strerror(errno));
		close(fd);
		return UNIX_PEERS_UNKNOWN;
	}
	enum unix_peers_answer answer = UNIX_PEERS_UNKNOWN;
	bool failed = false;
	long buf[32768 / sizeof(long)]; /* aligned for the headers */
	while (answer == UNIX_PEERS_UNKNOWN && !failed) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			sched_log(SCHED_LOG_DEBUG, "unix peers: sock_diag reply: %s",
					n < 0 ? strerror(errno) : "ended early");
			failed = true;
			break;
		}
		/* Message by message, each checked to lie within what came. */
		size_t offset = 0;
		while (answer == UNIX_PEERS_UNKNOWN && !failed &&
				offset + sizeof(struct nlmsghdr) <= (size_t)n) {
			const struct nlmsghdr *header =
					(const struct nlmsghdr *)((const char *)buf + offset);
			if (header->nlmsg_len < sizeof(*header) ||
					header->nlmsg_len > (size_t)n - offset) {
				sched_log(SCHED_LOG_DEBUG, "unix peers: a malformed reply");
				failed = true;
			} else if (header->nlmsg_type == NLMSG_DONE) {
				answer = UNIX_PEERS_NO;
			} else if (header->nlmsg_type == NLMSG_ERROR) {
				sched_log(SCHED_LOG_DEBUG,
						"unix peers: sock_diag refused (no unix_diag?)");
				failed = true;
			} else if (connects(header, a, b)) {
				answer = UNIX_PEERS_YES;
			}
			offset += NLMSG_ALIGN(header->nlmsg_len);
		}
	}
	close(fd);
	return answer;
}

enum unix_peers_answer unix_peers_connected(pid_t a, pid_t b) {
	struct inodes held_a = {0}, held_b = {0};
	enum unix_peers_answer answer = UNIX_PEERS_UNKNOWN;
	if (held_sockets(a, &held_a) && held_sockets(b, &held_b)) {
		answer = held_a.count == 0 || held_b.count == 0
				? UNIX_PEERS_NO
				: scan(&held_a, &held_b);
	}
	free(held_a.items);
	free(held_b.items);
	return answer;
}
