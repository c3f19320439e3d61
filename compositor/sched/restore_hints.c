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
	struct hint_journal_report report;
	int count = hints_replay_report(state_dir, &report);
	if (count < 0) {
		fprintf(stderr, "fairway: %s refused: nothing restored\n", state_dir);
		return 1;
	}
	/* Each entry not restored and each journal skipped had its line. */
	printf("restored %d, not restored %d, refused %d, gone %d; "
		   "journals skipped %d, of a running fairway %d\n",
			report.restored, report.failed, report.refused, report.gone,
			report.journals_skipped, report.journals_live);
	return report.failed > 0 || report.refused > 0 ||
					report.journals_skipped > 0
			? 1
			: 0;
}
