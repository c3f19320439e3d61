#include "compositor/sched/restore_hints.h"
#include "scheduler/hints/hints.h"
#include "scheduler/hints/state_dir.h"
#include <stdio.h>

int fw_restore_hints(void) {
	const char *state_dir = state_dir_locate();
	if (state_dir == NULL) {
		fprintf(stderr, "fairway: no trustworthy state directory\n");
		return 1;
	}
	int count = hints_replay(state_dir);
	printf("restored %d thread(s)\n", count < 0 ? 0 : count);
	return count < 0 ? 1 : 0;
}
