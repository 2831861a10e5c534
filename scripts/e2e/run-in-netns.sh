#!/usr/bin/env bash
# Runs a command (the e2e test runner) inside a fresh loopback-only network namespace: only `lo`,
# brought up, so code-server, Chromium, the CLI and its model server reach 127.0.0.1 and nothing
# else. Everything the command starts inherits the namespace.
#
# It is also a fresh PID namespace (with its own /proc) whose init is the small shell below: when
# that shell ends, the kernel kills every process left in the namespace, whatever setsid or
# double-fork games they played; and --kill-child ends the shell if `unshare` itself is killed.
# So a run leaves nothing behind, even when the test runner crashes or is SIGKILLed.
#
# Where `unshare` is not permitted, the command runs in the host namespace with
# ARCADIA_E2E_NETNS_ERROR set: the harness then refuses to start VS Code and the tests skip with
# that reason (or fail when CI=true).
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 command [args…]" >&2; exit 2; }

unshare_args=(--net --pid --fork --kill-child --mount-proc)
if ! err=$(unshare "${unshare_args[@]}" -- true 2>&1); then
  export ARCADIA_E2E_NETNS_ERROR="unshare ${unshare_args[*]} is not permitted here (${err:-no message}); it needs root or CAP_SYS_ADMIN, and util-linux"
  echo "run-in-netns: $ARCADIA_E2E_NETNS_ERROR; running without a namespace" >&2
  exec "$@"
fi

# Passed in so the namespace can be checked to really differ from the host's.
host_ns=$(readlink /proc/self/ns/net)
# The run's TMPDIR: every temp folder of the run (VS Code profiles, workspaces, sockets) lands
# here and goes when the run ends, even if the test runner crashed before cleaning up. Kept with
# ARCADIA_E2E_KEEP=1. Short on purpose: VS Code puts unix sockets in it (108-byte path limit).
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/arcadia-e2e.XXXXXX")
# PID 1 of the namespace: brings up lo, runs the command, forwards TERM/INT/HUP to it (signals
# from outside reach a namespace's init only through a handler), then names and kills leftovers.
inner='
host_ns=$1; run_tmp=$2; shift 2
export TMPDIR=$run_tmp
finish() {
  if [ "${ARCADIA_E2E_KEEP:-}" = 1 ]; then echo "run-in-netns: kept $run_tmp" >&2; else rm -rf "$run_tmp"; fi
  exit "$1"
}
ip link set lo up || { echo "run-in-netns: cannot bring up lo" >&2; finish 96; }
[ "$(readlink /proc/self/ns/net)" != "$host_ns" ] || { echo "run-in-netns: still in the host network namespace" >&2; finish 95; }
"$@" &
child=$!
trap "kill -TERM $child 2>/dev/null" TERM INT HUP
while :; do
  wait "$child"; rc=$?
  kill -0 "$child" 2>/dev/null || break
done
left=""
for d in /proc/[0-9]*; do
  pid=${d#/proc/}
  [ "$pid" = "$$" ] && continue
  kill -KILL "$pid" 2>/dev/null && left="$left $pid"
done
# A non-empty list means some process outlived its test: worth a look, not a failure.
[ -z "$left" ] || echo "run-in-netns: killed leftover processes:$left" >&2
finish "$rc"
'
exec unshare "${unshare_args[@]}" -- bash -c "$inner" run-in-netns "$host_ns" "$run_tmp" "$@"
