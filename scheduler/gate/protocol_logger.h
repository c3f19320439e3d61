#ifndef FAIRWAY_SCHEDULER_GATE_PROTOCOL_LOGGER_H
#define FAIRWAY_SCHEDULER_GATE_PROTOCOL_LOGGER_H

#include <stdbool.h>

struct gate;

/*
 * The gate's window into libwayland's dispatch: a protocol logger, which
 * libwayland calls for every message it sends and, just before it runs
 * it, for every request. Through it the gate logs each protocol error
 * with the client's pid, and sends a waiting client the answers to its
 * earlier requests while the later ones of its batch are still to run.
 */
bool gate_protocol_logger_init(struct gate *gate);
void gate_protocol_logger_finish(struct gate *gate);

#endif
