/*
 * The scheduler, shim included, as a shared object that a program loads
 * with dlopen: where a Wayland conformance harness runs a compositor.
 * libwayland's calls cannot all reach a shim there, and the gate must find
 * that out by itself.
 */
#include "tests/gate/transport_roundtrip.h"

void transport_module_check(void);

void transport_module_check(void) {
	transport_check_without_shim();
}
