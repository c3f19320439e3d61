#ifndef FAIRWAY_TESTS_HOSTILE_HOSTILE_H
#define FAIRWAY_TESTS_HOSTILE_HOSTILE_H

/*
 * What the hostile-client cases share beside the in-process gate harness
 * (tests/common/gate_harness.h): the measures of what the server was left
 * holding, and the malformed cases' description.
 */

#include "tests/common/gate_harness.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ANY_ERROR (-2)
#define NO_ERROR (-1)

/* Set by `hostile-gate client CASE`: run only that malformed case. */
extern const char *client_only;

/* What a server looked like before a case, to compare with after it. */
struct footprint {
	int fds, maps;
	size_t heap;
	long rss_kb;
};

struct hostile {
	const char *name;
	/* Sends the hostile part; false: the server closed on it already. */
	void (*send)(int fd, const struct hostile *hostile);
	uint32_t words[8];
	size_t len;
	int nfds;
	int expect_code; /* wl_display.error code, NO_ERROR or ANY_ERROR */
	const char *expect_message; /* in the error event, if one is expected */
	const char *expect_log; /* in the server's log */
	const char *expect_log_alt; /* or this instead */
	bool hang_up; /* close at once instead of reading until closed */
	bool survives; /* a case libwayland accepts: the client is served */
	/*
	 * libwayland drops the client before it answers the requests that
	 * came before the fault (its fd ring overflowed). Where the gate
	 * refuses the input, it serves those requests first, as libwayland
	 * does for the faults it catches itself.
	 */
	bool drops_unanswered;
	/*
	 * Once the server has closed, one more request, as a client library
	 * flushes before it reads: it must fail with EPIPE, which libwayland's
	 * client lets pass to read the error, even though the server closed
	 * with the client's bytes unread (Linux then has the client's reads
	 * fail with ECONNRESET, once what was sent to it is read).
	 */
	bool sends_after_close;
};

int count_maps(void);
long rss_kb(void);
size_t heap_in_use(void);
double cpu_seconds(void);
void footprint_take(struct footprint *print);
void footprint_check(const struct footprint *before, long rss_slack_kb);
void case_malformed(void);
void case_zero_reads(void);
void case_half_close(void);
void flood_fresh_body(const void *data);
void case_dies_mid_batch(void);
void never_reads_body(const void *data);
void case_never_reads(void);
void many_objects_body(const void *data);
void absurd_pools_body(const void *data);
void run_resource_case(
		const char *name, void (*body)(const void *), const void *arg);
void churn_body(const void *data);
void case_churn(void);
void case_accept_burst(void);
void case_max_clients(void);
void case_total_queued(void);
void case_log_strings(void);

void send_empty(int fd, const struct hostile *hostile);
void send_dribble(int fd, const struct hostile *hostile);
void run_hostile(struct hostile *hostile);

#endif
