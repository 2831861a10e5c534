#!/usr/bin/env bash
# vsce, the VS Code extension packager, into the cache, installed and run by Node 24 (it needs
# Node >= 22; the project stays on Node 20). npm itself runs under Node 24 too, so nothing warns
# about engines. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh
if [ -f "$E2E_VSCE" ]; then
  echo "vsce $E2E_VSCE_VERSION already there"
  exit 0
fi
bash scripts/e2e/install-node24.sh >/dev/null
mkdir -p "$E2E_VSCE_PREFIX"
[ -f "$E2E_VSCE_PREFIX/package.json" ] || echo '{"name":"arcadia-vsce","private":true}' >"$E2E_VSCE_PREFIX/package.json"
# npm's own script (npm is a link to it wherever Node installed it), run by Node 24.
npm_cli="$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js"
[ -f "$npm_cli" ] || npm_cli="$(npm root -g)/npm/bin/npm-cli.js"
# --ignore-scripts: vsce-sign's postinstall fetches a signing tool that packaging does not use.
"$E2E_NODE" "$npm_cli" install --prefix "$E2E_VSCE_PREFIX" --no-audit --no-fund --ignore-scripts "@vscode/vsce@$E2E_VSCE_VERSION" >/dev/null
echo "vsce $E2E_VSCE_VERSION installed"
