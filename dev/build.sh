#!/usr/bin/env bash
# n8n's node CLI build. Its progress spinners write a frame every 80 ms; when the output is not a
# terminal (CI, a log file) they are told it is CI, and print each step once instead.
[ -t 1 ] || export CI=true
# From the package folder with its own n8n-node, so that `bash dev/build.sh` works outside npm too.
cd "$(dirname "$0")/.."
exec node_modules/.bin/n8n-node build "$@"
