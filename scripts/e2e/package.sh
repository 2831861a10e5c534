#!/usr/bin/env bash
# `npm run package`: builds, then packs dist/arcadia.vsix. @vscode/vsce 4 needs Node >= 22, so it
# runs under a Node 24 installed beside the project's (scripts/e2e/install-node24.sh).
# What goes in is decided by .vscodeignore.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh

bash scripts/e2e/install-node24.sh >/dev/null
# Minified, without source maps: what users install.
node esbuild.js --production
npm run build --workspace webview-ui
out=dist/arcadia.vsix
rm -f "$out"
# --skip-license: without a LICENSE file vsce would stop and ask; the licence is in package.json.
"$E2E_NODE" node_modules/@vscode/vsce/vsce package --no-dependencies --skip-license --out "$out"
echo "package: $out $(stat -c %s "$out") bytes"
