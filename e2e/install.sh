#!/usr/bin/env bash
# Installs what the end-to-end suite and `npm run dev` run, the parts named on the command line:
# - an n8n app of e2e/.apps by its folder name (n8n-2, n8n-1, n8n-<version>), from its lockfile on the
#   Node.js major its package.json names (`n8nApp.nodeMajor`), with n8n's sqlite3 built from source;
# - chromium (Debian's, for the editor suite), redis and postgresql (for the queue-mode run), nginx
#   (Debian's nginx-light: the rate-limiting proxy of the tests behind a proxy).
# No arguments: all CI needs (n8n-2 n8n-1 chromium redis postgresql nginx). The editor (`npm run dev`)
# needs only its app: `bash e2e/install.sh n8n-2`. Safe to run again: an installed part is only
# checked. `npm run test:compat` runs it for each app of the compatibility run, with chromium.
#
# Why the flags: install scripts stay off (their prebuilt downloads cannot be reached here) and
# --legacy-peer-deps matches how the lockfiles were made; `npm install` with the lockfile rather
# than `npm ci`, which refuses lockfiles whose optional platform bindings the registry lacks.
# The apps live in a dot folder because n8n-node build copies every .svg/.png it finds outside the
# top-level node_modules into dist, and skips dot folders.
set -euo pipefail
cd "$(dirname "$0")/.apps"
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(n8n-2 n8n-1 chromium redis postgresql nginx)
apps=()
system=()
for part in "${parts[@]}"; do
	case $part in
	chromium | redis | postgresql | nginx) system+=("$part") ;;
	*)
		[ -f "$part/package.json" ] || {
			echo "no app $part in e2e/.apps (a part is an app folder there, chromium, redis, postgresql or nginx)"
			exit 1
		}
		apps+=("$part")
		;;
	esac
done

node_bin() { # the bin folder of a Node.js of the given major (npm's node@<major>, if not this one)
	if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$1" ]; then
		dirname "$(command -v node)"
	else
		(cd /tmp && npx -y -p "node@$1" -c 'dirname "$(command -v node)"')
	fi
}

install_app() { # app folder
	local bin start=$SECONDS
	bin=$(node_bin "$(node -p 'require("./'"$1"'/package.json").n8nApp.nodeMajor')")
	(cd "$1" && PATH="$bin:$PATH" npm install --no-save --ignore-scripts --legacy-peer-deps \
		--no-audit --no-fund --loglevel=error)
	echo "$1: n8n $(PATH="$bin:$PATH" node -p 'require("./'"$1"'/node_modules/n8n/package.json").version') on Node $(PATH="$bin:$PATH" node --version), installed in $((SECONDS - start)) s"
}

# Two at a time: npm's downloads overlap well, its unpacking does not on two cores.
start=$SECONDS
pids=()
status=0
for app in "${apps[@]}"; do
	if [ ${#pids[@]} -ge 2 ]; then
		wait "${pids[0]}" || status=1
		pids=("${pids[@]:1}")
	fi
	install_app "$app" >"$app.install.log" 2>&1 &
	pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for app in "${apps[@]}"; do cat "$app.install.log"; done
[ $status -eq 0 ] || { echo "installing the n8n apps failed"; exit 1; }
[ ${#apps[@]} -eq 0 ] || echo "n8n apps installed in $((SECONDS - start)) s"

# sqlite3 (n8n's default database) has no prebuilt binary to be had here: build it from source
# against the system Node's headers (N-API, so one build serves every Node major), once per sqlite3
# version; an app with a version already built gets a copy.
binary=build/Release/node_sqlite3.node
for app in "${apps[@]}"; do
	[ ! -f "$app/node_modules/sqlite3/$binary" ] || continue
	version=$(node -p 'require("./'"$app"'/node_modules/sqlite3/package.json").version')
	built=''
	for other in */node_modules/sqlite3/$binary; do
		[ -f "$other" ] || continue
		[ "$(node -p 'require("./'"${other%%/*}"'/node_modules/sqlite3/package.json").version')" = "$version" ] &&
			built=$other && break
	done
	if [ -n "$built" ]; then
		mkdir -p "$app/node_modules/sqlite3/build/Release"
		cp "$built" "$app/node_modules/sqlite3/$binary"
	else
		# node-gyp's tools: say which are missing rather than fail deep in its output.
		missing=''
		for tool in python3 make g++; do command -v "$tool" >/dev/null || missing="$missing $tool"; done
		[ -z "$missing" ] || {
			echo "building sqlite3 needs python3, make and g++; missing:$missing (Debian, Ubuntu: apt-get install python3 make g++)"
			exit 1
		}
		start=$SECONDS
		(cd "$app" && npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")" \
			npm rebuild sqlite3 --ignore-scripts=false --loglevel=error)
		echo "$app: sqlite3 $version built in $((SECONDS - start)) s"
	fi
done

# Debian's Chromium for the editor suite; Redis and PostgreSQL for the queue-mode run
# (e2e/support/queueServices.ts: n8n's main and workers share them); nginx-light, the smallest
# nginx, for the runs behind a rate-limiting proxy (e2e/support/nginx.ts).
packages=()
for part in "${system[@]}"; do
	case $part in
	chromium) [ -x /usr/bin/chromium ] || packages+=(chromium) ;;
	redis) command -v redis-server >/dev/null || packages+=(redis-server) ;;
	postgresql) ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || packages+=(postgresql) ;;
	nginx) [ -x /usr/sbin/nginx ] || packages+=(nginx-light) ;;
	esac
done
if [ ${#packages[@]} -gt 0 ]; then
	start=$SECONDS
	apt-get update -qq
	# Debian would start system Redis, PostgreSQL and nginx services on install; the tests start
	# their own on free ports. policy-rc.d answering 101 ("not allowed") keeps services from starting.
	guard=''
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
		guard=/usr/sbin/policy-rc.d
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
	[ -z "$guard" ] || rm -f "$guard"
	echo "${packages[*]} installed in $((SECONDS - start)) s"
fi
echo
echo "Installed, one line per part:"
for app in "${apps[@]}"; do
	echo "  e2e/.apps/$app: n8n $(node -p 'require("./'"$app"'/node_modules/n8n/package.json").version')"
done
for part in "${system[@]}"; do
	case $part in
	chromium) echo "  $(/usr/bin/chromium --version 2>/dev/null)" ;;
	redis) echo "  $(redis-server --version | cut -d' ' -f1-3)" ;;
	postgresql) echo "  PostgreSQL $(basename "$(dirname "$(ls -d /usr/lib/postgresql/*/bin | tail -1)")")" ;;
	nginx) echo "  $(/usr/sbin/nginx -v 2>&1 | cut -d' ' -f3)" ;;
	esac
done
next=''
[ ${#system[@]} -eq 0 ] || next='npm run test:e2e (the end-to-end suite)'
case " ${apps[*]} " in
*' n8n-2 '*) next="${next:+$next, }npm run dev (the editor with this package)" ;;
*' n8n-1 '*) next="${next:+$next, }npm run dev -- --n8n 1 (the editor with this package)" ;;
esac
[ -x ../../node_modules/.bin/n8n-node ] ||
	next="npm ci --ignore-scripts --legacy-peer-deps (this checkout has no node_modules yet)${next:+, then $next}"
[ -z "$next" ] || echo "Next: $next"
