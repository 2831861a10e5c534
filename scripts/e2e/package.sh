#!/usr/bin/env bash
# `npm run package`: builds, then packs dist/arcadia.vsix. @vscode/vsce 4 needs Node >= 22, so it
# runs under the Node 24 that `npm run setup:e2e` installs (the project itself stays on Node 20).
# What goes in is decided by .vscodeignore.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh

[ -x "$E2E_NODE" ] || { echo "package: $E2E_NODE missing; run: npm run setup:e2e" >&2; exit 1; }
npm run build
out=dist/arcadia.vsix
rm -f "$out"
# --skip-license: without a LICENSE file vsce would stop and ask; the licence is in package.json.
"$E2E_NODE" node_modules/@vscode/vsce/vsce package --no-dependencies --skip-license --out "$out"
echo "package: $out $(stat -c %s "$out") bytes"
