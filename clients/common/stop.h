#ifndef FAIRWAY_CLIENTS_COMMON_STOP_H
#define FAIRWAY_CLIENTS_COMMON_STOP_H

#include <stdbool.h>

/*
 * SIGINT and SIGTERM end a run early but still print the JSON summary. The
 * handlers are installed without SA_RESTART so that a blocking poll() returns.
 */
void fw_stop_install(void);

bool fw_stop_requested(void);

#endif
