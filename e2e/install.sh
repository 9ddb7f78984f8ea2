#!/usr/bin/env bash
# Installs what the end-to-end suite and `npm run dev` run: the two pinned n8n apps from their
# lockfiles (e2e/.apps/n8n-2 on Node 24, e2e/.apps/n8n-1 on Node 20), n8n's sqlite3 built from
# source, Debian's Chromium, and Redis and PostgreSQL for the queue-mode run. Safe to run again:
# an installed part is only checked.
#
# Why the flags: install scripts stay off (their prebuilt downloads cannot be reached here) and
# --legacy-peer-deps matches how the lockfiles were made; `npm install` with the lockfile rather
# than `npm ci`, which refuses lockfiles whose optional platform bindings the registry lacks.
# The apps live in a dot folder because n8n-node build copies every .svg/.png it finds outside the
# top-level node_modules into dist, and skips dot folders.
set -euo pipefail
cd "$(dirname "$0")/.apps"

node_bin() { # the bin folder of a Node.js of the given major (npm's node@<major>, if not this one)
	if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$1" ]; then
		dirname "$(command -v node)"
	else
		(cd /tmp && npx -y -p "node@$1" -c 'dirname "$(command -v node)"')
	fi
}

install_app() { # app folder, Node major
	local bin
	bin=$(node_bin "$2")
	(cd "$1" && PATH="$bin:$PATH" npm install --no-save --ignore-scripts --legacy-peer-deps \
		--no-audit --no-fund --loglevel=error)
	echo "$1: n8n $(PATH="$bin:$PATH" node -p 'require("./'"$1"'/node_modules/n8n/package.json").version') on Node $(PATH="$bin:$PATH" node --version)"
}

start=$SECONDS
install_app n8n-2 24 >n8n-2.install.log 2>&1 &
two=$!
install_app n8n-1 20 >n8n-1.install.log 2>&1 &
one=$!
status=0
wait $two || status=1
wait $one || status=1
cat n8n-2.install.log n8n-1.install.log
[ $status -eq 0 ] || { echo "installing the n8n apps failed"; exit 1; }
echo "n8n apps installed in $((SECONDS - start)) s"

# sqlite3 (n8n's default database) has no prebuilt binary to be had here: build it once from
# source against the system Node's headers (N-API, so one build serves Node 20 and 24).
binary=build/Release/node_sqlite3.node
if [ ! -f "n8n-2/node_modules/sqlite3/$binary" ]; then
	start=$SECONDS
	(cd n8n-2 && npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")" \
		npm rebuild sqlite3 --ignore-scripts=false --loglevel=error)
	echo "sqlite3 built in $((SECONDS - start)) s"
fi
for app in n8n-1; do
	same=$(node -p 'const v = (a) => require("./" + a + "/node_modules/sqlite3/package.json").version;
		v("n8n-2") === v("'"$app"'")')
	[ "$same" = true ] || { echo "$app has another sqlite3 than n8n-2: build it there too"; exit 1; }
	mkdir -p "$app/node_modules/sqlite3/build/Release"
	cmp -s "n8n-2/node_modules/sqlite3/$binary" "$app/node_modules/sqlite3/$binary" ||
		cp "n8n-2/node_modules/sqlite3/$binary" "$app/node_modules/sqlite3/$binary"
done

# Debian's Chromium for the editor suite; Redis and PostgreSQL for the queue-mode run
# (dev/queueMode.ts: n8n's main and workers share them).
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
command -v redis-server >/dev/null || packages+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || packages+=(postgresql)
if [ ${#packages[@]} -gt 0 ]; then
	start=$SECONDS
	apt-get update -qq
	# Debian would start system Redis and PostgreSQL services on install; the tests start their own
	# on free ports. policy-rc.d answering 101 ("not allowed") keeps services from starting.
	guard=''
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
		guard=/usr/sbin/policy-rc.d
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
	[ -z "$guard" ] || rm -f "$guard"
	echo "${packages[*]} installed in $((SECONDS - start)) s"
fi
/usr/bin/chromium --version
redis-server --version
ls -d /usr/lib/postgresql/*/bin
