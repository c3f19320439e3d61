#ifndef FAIRWAY_COMPOSITOR_OUTPUT_COMMIT_TIMING_H
#define FAIRWAY_COMPOSITOR_OUTPUT_COMMIT_TIMING_H

struct fw_server;
struct fw_output;

/*
 * wp_commit_timing_v1: a commit with a target time is held (as a cached
 * state of its surface) until a paint that shows it no earlier than the
 * target, the first refresh at or after it.
 */
struct fw_commit_timing;

struct fw_commit_timing *fw_commit_timing_create(struct fw_server *server);
/* After every client is gone. Accepts NULL. */
void fw_commit_timing_destroy(struct fw_commit_timing *timing);
/*
 * A paint of output begins: the commits of the surfaces it shows whose
 * target is no later than when that paint can be shown are applied, so
 * that it shows them. Accepts NULL.
 */
void fw_commit_timing_output_paint(
		struct fw_commit_timing *timing, struct fw_output *output);

#endif
