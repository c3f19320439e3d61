#!/bin/sh
# fairway through the gate transport $FAIRWAY_GATE_TRANSPORT: what the
# tests that run $FAIRWAY get as FAIRWAY to run the socketpair transport
# (tests/meson.build).
exec "${FAIRWAY_BINARY:?}" --gate-transport "${FAIRWAY_GATE_TRANSPORT:?}" "$@"
