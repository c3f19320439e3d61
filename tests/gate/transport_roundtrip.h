#ifndef FAIRWAY_TESTS_GATE_TRANSPORT_ROUNDTRIP_H
#define FAIRWAY_TESTS_GATE_TRANSPORT_ROUNDTRIP_H

#include "scheduler/gate/gate.h"
#include <stdbool.h>

/*
 * Makes a display and a gate asking for `choice`, gates one end of a
 * socketpair and runs a wl_display.sync round trip from the other. Returns
 * the transport gate_create chose, or NULL if it refused; exits 1 if the
 * round trip fails. *warned: whether the gate logged a warning.
 *
 * Built into the transport tests and into a module they load with
 * dlopen, as a compositor loaded by another program would be.
 */
const char *transport_roundtrip(
		enum gate_transport_choice choice, bool *warned);

/*
 * Where the shim is reached: memory unless asked otherwise, with no
 * warning. Exits 1 otherwise.
 */
void transport_check_with_shim(void);
/*
 * Where it is not: auto serves through socketpairs with a warning, and
 * memory, asked for, is refused. Exits 1 otherwise.
 */
void transport_check_without_shim(void);
/*
 * Where the shim is reached: what it does not emulate on a gated end, a
 * recvmsg with MSG_PEEK or a sendmsg with MSG_OOB, fails with EOPNOTSUPP,
 * logged once. Exits 1 otherwise.
 */
void transport_check_refusals(void);

#endif
