#!/usr/bin/env bash
# n8n's node CLI build. From the package folder with its own n8n-node, so that `bash dev/build.sh`
# works outside npm too.
cd "$(dirname "$0")/.."
[ -t 1 ] && exec node_modules/.bin/n8n-node build "$@"
# Not a terminal (CI, a pipe, a log file): plain text. Its spinners write a frame every 80 ms unless
# told it is CI (then each step once); CI also turns its colours on, which NO_COLOR turns off. The
# spinners' cursor codes (hide, move, erase) have no switch, so they are taken out here.
set -o pipefail
CI=true NO_COLOR=1 node_modules/.bin/n8n-node build "$@" |
	node -e "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) =>
		console.log(line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')))"
