#!/usr/bin/env bash
# `npm run demo [-- --port N] [-- --keep]`: Arcadia in a real VS Code (code-server) in your
# browser, with a sample workspace and `claude` wired to a scripted demo model.
#
# This script only makes sure the tools are there (each step skipped when already done, so a
# second run starts in seconds), then hands over to main.ts, which runs the demo. The order
# matters: everything that needs the network (apt, npm) happens HERE, before the namespace,
# because inside it there is no network at all.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh

say() { echo "demo: $*" >&2; }
t_all=$(date +%s)
# So main.ts can say how long the whole start took.
export ARCADIA_DEMO_T0_MS=$(( $(date +%s%N) / 1000000 ))

[ -d node_modules/tsx ] || { say "dependencies missing: run npm ci first"; exit 1; }

# --- The namespace. The real Claude Code CLI may only run where it cannot reach the internet: a
# loopback-only network namespace. Checked first, so a machine that cannot make one is told so at
# once, not after five minutes of downloads. Root (or CAP_SYS_ADMIN) can unshare directly;
# elsewhere an unprivileged user namespace may allow it. ARCADIA_DEMO_USERNS=1 forces the latter
# (to try that path as root).
ns=(--net --pid --fork --kill-child --mount-proc)
if ! command -v unshare >/dev/null; then
  # util-linux is essential on Debian; setup.sh below installs it if it is really missing.
  [ "$(id -u)" = 0 ] || { say "unshare (util-linux) is missing; the demo needs it"; exit 1; }
  say "unshare not found yet; setup will install util-linux"
elif [ "${ARCADIA_DEMO_USERNS:-}" != 1 ] && unshare "${ns[@]}" -- true 2>/dev/null; then
  :
elif err=$(unshare --user --map-root-user "${ns[@]}" -- true 2>&1); then
  ns=(--user --map-root-user "${ns[@]}")
  say "using an unprivileged user namespace (unshare --user --map-root-user)"
else
  say "cannot create a loopback-only network namespace here: $err"
  say "The demo runs the real Claude Code CLI against a local demo model, and it only ever does so"
  say "inside such a namespace, where the CLI cannot reach the internet. Run it as root (or with"
  say "CAP_SYS_ADMIN), or enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1"
  say "or user.max_user_namespaces > 0). Refusing to start."
  exit 1
fi
export ARCADIA_DEMO_UNSHARE="${ns[*]}"

# --- What the demo needs, installed once into the cache: Node 24 and vsce first (a few seconds;
# packaging needs them), then three independent jobs side by side, since none waits for another:
# code-server (the long one on a first run: npm builds its native modules), the pinned Claude Code
# CLI (~380 MB, checked in half a second when there) and the two .vsix files (packaged again only
# when a source is newer). Each job's output goes to a log, shown if it fails.
bash scripts/e2e/install-node24.sh >/dev/null
bash scripts/e2e/install-vsce.sh >/dev/null
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

code_server_job() {
  if [ -x "$E2E_NODE" ] && [ -x "$E2E_CODE_SERVER" ] && [ -f "$E2E_CODE_SERVER_PREFIX/.arcadia-ok" ]; then
    echo "code-server $E2E_CODE_SERVER_VERSION ready"
  else
    bash scripts/e2e/setup.sh --no-chromium
  fi
}
vsix_job() {
  local vsix=dist/arcadia.vsix sources=(src webview-ui/src webview-ui/index.html webview-ui/build.mjs package.json esbuild.js .vscodeignore)
  if [ -f "$vsix" ] && [ -z "$(find "${sources[@]}" -newer "$vsix" -print -quit 2>/dev/null)" ]; then
    echo "$vsix up to date"
  else
    npm run --silent package
  fi
  # A tiny companion extension: opens Arcadia's panel when the window opens, and runs the story.
  bash scripts/demo/package-extension.sh
}
claude_job() { npm run --silent install:claude; }

code_server_ready=0
[ -x "$E2E_CODE_SERVER" ] && [ -f "$E2E_CODE_SERVER_PREFIX/.arcadia-ok" ] && code_server_ready=1
[ "$code_server_ready" = 1 ] || say "first run: installing code-server into $E2E_CACHE (about a minute and a half, once)"
pids=()
for job in code_server vsix claude; do
  "${job}_job" >"$logs/$job.log" 2>&1 &
  pids+=("$job:$!")
done
failed=0
for entry in "${pids[@]}"; do
  job=${entry%%:*}
  if wait "${entry#*:}"; then
    say "$(grep -v '^\s*$' "$logs/$job.log" | tail -1)"
  else
    say "$job failed:"; cat "$logs/$job.log" >&2; failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
command -v ip >/dev/null || { say "ip (iproute2) is missing; run: npm run setup:e2e"; exit 1; }

rm -rf "$logs"
say "ready to start ($(( $(date +%s) - t_all )) s of checks and setup)"
exec node --import tsx scripts/demo/main.ts "$@"
