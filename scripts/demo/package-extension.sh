#!/usr/bin/env bash
# Packs the demo's companion extension (demo/extension: opens the panel, runs the story) into
# dist/arcadia-demo.vsix, again only when one of its files is newer. Used by `npm run demo` and by
# the story's e2e. vsce runs under Node 24 from the cache (scripts/e2e/install-vsce.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/e2e/paths.sh
out=dist/arcadia-demo.vsix
if [ -f "$out" ] && [ -z "$(find demo/extension -newer "$out" -print -quit)" ]; then
  echo "$out up to date"
  exit 0
fi
bash scripts/e2e/install-vsce.sh >/dev/null
mkdir -p dist
(cd demo/extension && "$E2E_NODE" "$E2E_VSCE" package --no-dependencies --skip-license --allow-missing-repository --out "../../$out" >/dev/null)
echo "packaged $out"
