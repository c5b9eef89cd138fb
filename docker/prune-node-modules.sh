#!/bin/sh
# Leaves in node_modules what the image runs: onnxruntime-node ships its binaries for every
# platform (macOS, Windows, both Linux architectures: 270 MB), of which Linux on the image's own
# architecture is the one it loads (bin/napi-v*/<platform>/<arch>, as its binding.js names it).
# Usage: prune-node-modules.sh [node_modules] [platform] [arch]
set -eu
modules="${1:-node_modules}"
platform="${2:-$(node -p process.platform)}"
arch="${3:-$(node -p process.arch)}"
for napi in "$modules"/onnxruntime-node/bin/napi-v*; do
  [ -d "$napi/$platform/$arch" ] || { echo "prune: $napi has no $platform/$arch binary; nothing removed" >&2; exit 1; }
  for dir in "$napi"/*/*; do
    [ "$dir" = "$napi/$platform/$arch" ] || rm -rf "$dir"
  done
  find "$napi" -mindepth 1 -maxdepth 1 -type d -empty -delete
done
