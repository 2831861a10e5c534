#!/usr/bin/env bash
# `npm run package`: builds, then packs dist/arcadia.vsix. @vscode/vsce 4 needs Node >= 22, so it
# is installed into the cache and runs under a Node 24 beside the project's (install-vsce.sh).
# What goes in is decided by .vscodeignore.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh

bash scripts/e2e/install-vsce.sh >/dev/null
# Minified, without source maps: what users install.
node esbuild.js --production
npm run build --workspace webview-ui
out=dist/arcadia.vsix
rm -f "$out"
# The README's screenshots (docs/screenshots/, made by `npm run screenshots`) are relative links,
# which vsce can only turn into URLs through a public repository, and Arcadia has none yet: the
# packaged README is the same text without those image lines.
readme=dist/README.md
grep -v '^ *!\[.*\](docs/screenshots/' README.md > "$readme"
# --allow-missing-repository: Arcadia has no public repository yet, and a placeholder URL would
# send Marketplace visitors nowhere.
"$E2E_NODE" "$E2E_VSCE" package --no-dependencies --allow-missing-repository --readme-path "$readme" --out "$out"
echo "package: $out $(stat -c %s "$out") bytes"
