#!/usr/bin/env bash
# PID 1 of the demo's namespace (started by main.ts through `unshare --net --pid --fork
# --kill-child --mount-proc`). Network: only `lo`, so the demo model, code-server, its terminals
# and every `claude` in them reach 127.0.0.1 and nothing else. Browsers reach code-server through
# its unix socket (main.ts's proxy, in the host namespace).
#
# Being PID 1 of a fresh PID namespace is the cleanup guarantee: when this script exits, the
# kernel kills every process left in the namespace, however it detached itself.
#
# Stopping: stdin is a pipe from main.ts (the lifeline). A "stop" line means an orderly stop (main
# then removes the folder and reports). End of file without it means main.ts died: stop and
# remove the run's folder here, since nobody else will.
set -uo pipefail

# One function, called on the last line: bash has then read the whole file before running any of
# it, so editing this file during a demo cannot break the running one.
main() {
  # Everything comes in DEMO_* variables; the rest of the environment is code-server's, and the
  # DEMO_* ones are not passed on to it.
  root=$DEMO_ROOT; node24=$DEMO_NODE24; entry=$DEMO_CODE_SERVER; IFS=: read -r -a vsixes <<<"$DEMO_VSIX"
  workspace=$DEMO_WORKSPACE; socket=$DEMO_SOCKET; host_ns=$DEMO_HOST_NETNS; keep=$DEMO_KEEP
  model_cmd=("$DEMO_NODE" --import "$DEMO_TSX" "$DEMO_REPO/test/rig/model-server-main.ts"
    --script "$DEMO_SCRIPT" --port "$DEMO_MODEL_PORT" --port-file "$root/model/port" --log "$root/model/requests.jsonl")
  unset "${!DEMO_@}"

  say() { echo "demo: $*" >&2; }
  finish() { # finish CODE REMOVE: the kernel kills whatever is left once this shell exits
    [ "$2" = 1 ] && [ "$keep" != 1 ] && rm -rf "$root"
    exit "$1"
  }

  ip link set lo up || { say "cannot bring up lo in the namespace"; finish 96 0; }
  [ "$(readlink /proc/self/ns/net)" != "$host_ns" ] || { say "still in the host network namespace"; finish 95 0; }
  if grep -qv '^ *\(Inter\|face\|lo:\)' /proc/self/net/dev; then say "the namespace has other interfaces than lo"; finish 95 0; fi

  stop=""
  trap 'stop=orderly' TERM
  trap 'stop=orphaned' HUP
  # The lifeline, read in the background so this shell can also watch its children. (A background
  # job's stdin would be /dev/null, hence the explicit redirection.)
  ( if read -r line && [ "$line" = stop ]; then kill -TERM $$; else kill -HUP $$; fi ) <&0 &
  lifeline=$!

  common=(--config "$root/code-server.yaml" --user-data-dir "$root/user-data" --extensions-dir "$root/extensions")
  install=()
  for v in "${vsixes[@]}"; do install+=(--install-extension "$v"); done
  out=$("$node24" "$entry" "${common[@]}" "${install[@]}" 2>&1 </dev/null)
  [ "$(grep -c "successfully installed" <<<"$out")" = "${#vsixes[@]}" ] || { say "installing ${vsixes[*]} failed:"; echo "$out" >&2; finish 1 0; }

  "${model_cmd[@]}" </dev/null >"$root/model/server.log" 2>&1 &
  model=$!
  # --reconnection-grace-time: a closed or reloaded browser tab's extension host (and language
  # servers, ~400 MB) is dropped after 10 minutes instead of code-server's 3 hours.
  "$node24" "$entry" "${common[@]}" --socket "$socket" --auth none --reconnection-grace-time 600 \
    --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
    "$workspace" </dev/null >"$root/code-server.log" 2>&1 &
  server=$!

  # Until asked to stop, or until the model or code-server dies (main.ts then shows the log).
  while [ -z "$stop" ]; do
    wait -n "$model" "$server"
    [ -n "$stop" ] && break
    if ! kill -0 "$model" 2>/dev/null; then say "the demo model stopped (log: $root/model/server.log)"; finish 1 0; fi
    if ! kill -0 "$server" 2>/dev/null; then say "code-server stopped (log: $root/code-server.log)"; finish 1 0; fi
  done

  # A polite stop first (code-server ends its terminals, the CLIs write their last lines), then the
  # kernel's sweep when this shell exits.
  kill -TERM "$server" "$model" 2>/dev/null
  for _ in $(seq 30); do
    kill -0 "$server" 2>/dev/null || kill -0 "$model" 2>/dev/null || break
    sleep 0.1
  done
  left=0
  for d in /proc/[0-9]*; do
    pid=${d#/proc/}
    [ "$pid" = $$ ] || [ "$pid" = "$lifeline" ] && continue
    kill -KILL "$pid" 2>/dev/null && left=$((left + 1))
  done
  # What code-server left running (detached terminals and their claude, extension hosts): gone.
  [ "$left" = 0 ] || say "ended the $left remaining process(es) in the namespace (terminals, claude, extension hosts)"
  [ "$stop" = orphaned ] && finish 0 1
  finish 0 0
}

main "$@"
