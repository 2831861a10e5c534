#!/usr/bin/env bash
# Installs what the end-to-end tests need, outside the repo, skipping whatever is already there:
#   - Node 24 (code-server 4.139 and vsce 4 need it; the project itself stays on Node 20),
#   - vsce 4.1.0 run by it (packaging: `npm run package`),
#   - code-server 4.139.1 (VS Code 1.139 served to a browser), built against Node 24's headers,
#   - Debian's chromium (test tools cannot download their own browsers here),
#   - playwright-core, a dev dependency of the project (installed by `npm ci`; checked here).
# Idempotent: a second run only checks and prints timings. Paths: scripts/e2e/paths.sh.
# --no-chromium skips the browser (the demo, `npm run demo`, is viewed in your own browser).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh
. scripts/apt.sh
with_chromium=1
[ "${1:-}" = --no-chromium ] && with_chromium=0

t_all=$(date +%s)
step() { # step NAME START: prints how long a step took
  echo "setup:e2e: $1 ($(( $(date +%s) - $2 )) s)"
}
mkdir -p "$E2E_CACHE"

# --- Debian packages: libkrb5-dev (code-server's kerberos module needs gssapi.h), chromium, and
# the namespace tools (unshare, ip) the tests run inside.
t=$(date +%s)
missing=()
pkgs=(libkrb5-dev util-linux iproute2)
[ "$with_chromium" = 1 ] && pkgs+=(chromium)
for pkg in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup:e2e: apt-get install ${missing[*]}"
  apt_install "${missing[@]}"
  step "apt packages installed" "$t"
else
  step "apt packages already installed" "$t"
fi
[ "$with_chromium" = 0 ] || [ -x "$E2E_CHROMIUM" ] || { echo "setup:e2e: $E2E_CHROMIUM missing after install" >&2; exit 1; }

# --- Node 24 (see install-node24.sh).
t=$(date +%s)
step "$(bash scripts/e2e/install-node24.sh | tail -1)" "$t"

# --- vsce, the packager (see install-vsce.sh).
t=$(date +%s)
step "$(bash scripts/e2e/install-vsce.sh | tail -1)" "$t"

# --- code-server. Its postinstall builds native modules with node-gyp: Node 24 first on PATH and
# npm_config_nodedir at Node 24's headers (the machine's npm config points at Node 20's), so the
# modules match the Node that runs them and nothing is fetched. A failed attempt to download a
# prebuilt kerberos binary along the way is harmless (it then builds from source). JOBS=max: each
# module's make uses every core (node-gyp otherwise compiles one file at a time).
t=$(date +%s)
if [ -x "$E2E_CODE_SERVER" ] && [ -f "$E2E_CODE_SERVER_PREFIX/.arcadia-ok" ]; then
  step "code-server $E2E_CODE_SERVER_VERSION already there" "$t"
else
  mkdir -p "$E2E_CODE_SERVER_PREFIX"
  [ -f "$E2E_CODE_SERVER_PREFIX/package.json" ] || echo '{"name":"arcadia-e2e-code-server","private":true}' >"$E2E_CODE_SERVER_PREFIX/package.json"
  # env -u: under `npm run …` the outer npm's npm_config_user_agent (".. node/v20 ..") is
  # inherited, and code-server's postinstall reads the Node version from it and refuses.
  PATH="$E2E_NODE_BIN:$PATH" npm_config_nodedir="$E2E_NODE_HOME" JOBS=max env -u npm_config_user_agent \
    npm install --prefix "$E2E_CODE_SERVER_PREFIX" --no-audit --no-fund --loglevel=error \
    "code-server@$E2E_CODE_SERVER_VERSION"
  # The marker says the whole install (postinstall included) finished; a half install is redone.
  PATH="$E2E_NODE_BIN:$PATH" "$E2E_CODE_SERVER" --version >/dev/null
  touch "$E2E_CODE_SERVER_PREFIX/.arcadia-ok"
  step "code-server $E2E_CODE_SERVER_VERSION installed" "$t"
fi

# --- playwright-core drives the system Chromium (no browser download). It is a devDependency, so
# `npm ci` brings it; on a work tree where it is missing, install the locked dependencies.
t=$(date +%s)
if node -e 'require.resolve("playwright-core")' 2>/dev/null; then
  step "playwright-core already installed" "$t"
else
  npm install --no-audit --no-fund --loglevel=error
  step "npm install (playwright-core)" "$t"
fi

echo "setup:e2e: done in $(( $(date +%s) - t_all )) s; cache: $E2E_CACHE ($(du -sh "$E2E_CACHE" | cut -f1))"
