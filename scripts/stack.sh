#!/usr/bin/env bash
# Local Elasticsearch + Redis without a Docker engine.
#   scripts/stack.sh start [--es-nodes N] [--redis-cluster] | stop | status
#   scripts/stack.sh pictures-start [SEED]   (npm run up: the demo pictures at IMAGE_BASE_URL)
# One Elasticsearch node on ES_PORT and one Redis on REDIS_PORT by default. --es-nodes N (N > 1,
# or ES_NODES) starts an N-node cluster instead, on ES_CLUSTER_PORT and the ports after it (each
# node its own data directory and an ES_HEAP heap); --redis-cluster (or REDIS_CLUSTER=1) a Redis
# Cluster of 3 masters and 3 replicas on REDIS_CLUSTER_PORT and the five ports after it.
# Idempotent: reuses the cached Maven download, the unpacked distribution and
# nodes that are already answering on the configured ports.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STACK_DIR="${STACK_DIR:-$ROOT/.stack}"
# Absolute: Redis opens its log file after changing into its directory, and a relative path then
# named a file that did not exist (STACK_DIR=.stack-2 failed to start).
case "$STACK_DIR" in /*) ;; *) STACK_DIR="$PWD/$STACK_DIR" ;; esac
ES_VERSION="${ES_VERSION:-8.19.7}"
ES_PORT="${ES_PORT:-9200}"
ES_HEAP="${ES_HEAP:-512m}"
REDIS_PORT="${REDIS_PORT:-6379}"
ES_NODES="${ES_NODES:-1}"
ES_CLUSTER_PORT="${ES_CLUSTER_PORT:-9201}"
REDIS_CLUSTER="${REDIS_CLUSTER:-0}"
REDIS_CLUSTER_PORT="${REDIS_CLUSTER_PORT:-7001}"
ES_USER="${ES_USER:-wallcat-es}"
ES_WAIT_SECONDS="${ES_WAIT_SECONDS:-180}"
ES_HOME="$STACK_DIR/elasticsearch-$ES_VERSION"
ES_DATA="$STACK_DIR/es-data"
ES_PIDFILE="$ES_HOME/es.pid"
REDIS_DIR="$STACK_DIR/redis"
CLUSTER_DIR="$STACK_DIR/cluster"
REDIS_PIDFILE="$STACK_DIR/redis.pid"
ARTIFACT="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip"
# Our English analysis (stemming, stop words, folding, spellings): a stable-API plugin built with
# Maven from plugins/analysis-english and installed into the node (docs/operations.md).
PLUGIN_NAME=analysis-english
PLUGIN_DIR="$ROOT/plugins/$PLUGIN_NAME"
PLUGIN_ZIP="$PLUGIN_DIR/target/$PLUGIN_NAME-1.0.0.zip"
PLUGIN_BUILT="$PLUGIN_DIR/target/.fingerprint"
PLUGIN_INSTALLED="$STACK_DIR/$PLUGIN_NAME.installed"
M2_ZIP="${HOME}/.m2/repository/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$ES_VERSION/elasticsearch-$ES_VERSION.zip"

say() { printf '[stack] %s\n' "$*" >&2; }
die() { printf '[stack] ERROR: %s\n' "$*" >&2; exit 1; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The pid a pidfile names, when that process runs and is one this script starts: after a crash the
# number may have gone to another process, which must be neither stopped nor taken for the stack's.
live_pid() {
  local pidfile="$1" pid
  [ -s "$pidfile" ] || return 1
  pid="$(cat "$pidfile")"
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -Eq 'redis-server|org\.elasticsearch|demo-pictures' || return 1
  echo "$pid"
}

# Two starts from one directory at once (two `npm run up`s) would each find no node running and
# each start one, the second failing on the first's ports or data lock. A start takes the
# directory's start lock (a directory: made or not, at once), and a second waits for the first to
# be done, then finds its nodes answering and reuses them. A lock whose holder is gone is taken over.
START_LOCK="$STACK_DIR/start.lock"
START_WAIT_SECONDS="${START_WAIT_SECONDS:-600}"
take_start_lock() {
  local waited=0 holder
  until mkdir "$START_LOCK" 2>/dev/null; do
    holder="$(cat "$START_LOCK/pid" 2>/dev/null || true)"
    if [ -n "$holder" ] && [ ! -d "/proc/$holder" ]; then
      rm -rf "$START_LOCK"
      continue
    fi
    [ "$waited" -eq 0 ] && say "another start of the stack in $STACK_DIR is under way (pid ${holder:-?}): waiting for it"
    [ "$waited" -ge "$START_WAIT_SECONDS" ] && die "another start of the stack in $STACK_DIR is still under way after ${START_WAIT_SECONDS}s (pid ${holder:-?}); if it is gone, remove $START_LOCK"
    sleep 1
    waited=$((waited + 1))
  done
  echo "$$" >"$START_LOCK/pid"
  trap 'rm -rf "$START_LOCK"' EXIT
}

# A stack directory holds one node's data and pidfile: a second start from it on other ports would
# fight the first for its data lock (a Java stack trace) and lose track of the first's process.
refuse_second_from_dir() {
  local what="$1" pidfile="$2" pid
  if pid="$(live_pid "$pidfile")"; then
    die "$what of $STACK_DIR already runs (pid $pid) on another port: stop it (npm run stack:stop), or give a second stack a directory of its own (STACK_DIR)"
  fi
}

# The node on ES_PORT runs the plugin.
plugin_loaded() {
  curl -fsS --max-time 2 "http://127.0.0.1:$ES_PORT/_cat/plugins?h=component" 2>/dev/null | grep -qx "$PLUGIN_NAME"
}

es_answers() {
  curl -fsS --max-time 2 "http://127.0.0.1:$ES_PORT/_cluster/health" 2>/dev/null | grep -q '"cluster_name"'
}

redis_answers() {
  [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null || true)" = "PONG" ]
}

find_java_home() {
  if [ -n "${ES_JAVA_HOME:-}" ]; then echo "$ES_JAVA_HOME"; return; fi
  for candidate in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk-arm64 /usr/lib/jvm/java-17-openjdk; do
    if [ -x "$candidate/bin/java" ]; then echo "$candidate"; return; fi
  done
  if command -v java >/dev/null 2>&1; then
    dirname "$(dirname "$(readlink -f "$(command -v java)")")"
    return
  fi
  return 1
}

fetch_es() {
  if [ -d "$ES_HOME/bin" ]; then return; fi
  if [ ! -f "$M2_ZIP" ]; then
    command -v mvn >/dev/null 2>&1 || die "mvn not found: install Maven (apt-get install maven) to fetch $ARTIFACT"
    say "fetching $ARTIFACT from Maven Central"
    mvn -q -B dependency:get -Dartifact="$ARTIFACT" -Dtransitive=false >"$STACK_DIR/mvn.log" 2>&1 \
      || { tail -20 "$STACK_DIR/mvn.log" >&2; die "could not fetch $ARTIFACT (see $STACK_DIR/mvn.log)"; }
  fi
  command -v unzip >/dev/null 2>&1 || die "unzip not found: apt-get install unzip"
  say "unpacking Elasticsearch $ES_VERSION into $ES_HOME"
  local tmp="$STACK_DIR/unpack.$$"
  rm -rf "$tmp"; mkdir -p "$tmp"
  unzip -q "$M2_ZIP" -d "$tmp"
  mv "$tmp/elasticsearch-$ES_VERSION" "$ES_HOME"
  rm -rf "$tmp"
}

# Elasticsearch refuses to run as root, so as root we run it as a system user. In a session of its
# own: its daemon otherwise stays in the caller's process group, and a Ctrl-C meant for
# `npm run up`'s API stopped Elasticsearch too (Redis daemonizes into a session of its own).
run_as_es() {
  if [ "$(id -u)" -ne 0 ]; then setsid --wait "$@"; return; fi
  if ! id "$ES_USER" >/dev/null 2>&1; then
    say "creating system user $ES_USER"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER"
  fi
  chown -R "$ES_USER" "$ES_HOME" "$ES_DATA"
  # The user must be able to traverse into the stack directory.
  chmod o+x "$STACK_DIR"
  local dir="$STACK_DIR"
  while [ "$dir" != "/" ]; do chmod o+x "$dir" 2>/dev/null || true; dir="$(dirname "$dir")"; done
  setsid --wait runuser -u "$ES_USER" -- "$@"
}

# The plugin packages the word lists of thesaurus/ (its pom.xml), so they count as its sources.
plugin_fingerprint() {
  (cd "$PLUGIN_DIR" && find pom.xml src ../../thesaurus/irregular-plurals.txt ../../thesaurus/british-spellings.txt -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}

# The plugin's build is of its sources as they are now.
plugin_built() {
  [ -f "$PLUGIN_ZIP" ] && [ "$(cat "$PLUGIN_BUILT" 2>/dev/null)" = "$(plugin_fingerprint)" ]
}

# Builds the plugin (its tests included) when its sources changed since the last build.
build_plugin() {
  local fingerprint
  plugin_built && return
  fingerprint="$(plugin_fingerprint)"
  command -v mvn >/dev/null 2>&1 || die "mvn not found: install Maven (apt-get install maven) to build $PLUGIN_DIR"
  say "building the $PLUGIN_NAME plugin (mvn package, with its tests)"
  (cd "$PLUGIN_DIR" && mvn -q -B package) >"$STACK_DIR/plugin-build.log" 2>&1 \
    || { tail -40 "$STACK_DIR/plugin-build.log" >&2; die "the $PLUGIN_NAME plugin did not build (see $STACK_DIR/plugin-build.log)"; }
  echo "$fingerprint" >"$PLUGIN_BUILT"
}

plugin_current() {
  [ -d "$ES_HOME/plugins/$PLUGIN_NAME" ] && [ "$(cat "$PLUGIN_INSTALLED" 2>/dev/null)" = "$(cat "$PLUGIN_BUILT" 2>/dev/null)" ]
}

# Installs the built plugin into the (stopped) node, replacing an older build of it.
install_plugin() {
  local java_home="$1"
  plugin_current && return
  if [ -d "$ES_HOME/plugins/$PLUGIN_NAME" ]; then
    ES_JAVA_HOME="$java_home" "$ES_HOME/bin/elasticsearch-plugin" remove --purge "$PLUGIN_NAME" >"$STACK_DIR/plugin-install.log" 2>&1 || true
  fi
  say "installing the $PLUGIN_NAME plugin into Elasticsearch"
  ES_JAVA_HOME="$java_home" "$ES_HOME/bin/elasticsearch-plugin" install --batch "file://$PLUGIN_ZIP" >>"$STACK_DIR/plugin-install.log" 2>&1 \
    || { tail -20 "$STACK_DIR/plugin-install.log" >&2; die "could not install $PLUGIN_ZIP"; }
  cp "$PLUGIN_BUILT" "$PLUGIN_INSTALLED"
}

write_es_config() {
  cat >"$ES_HOME/config/elasticsearch.yml" <<EOF
cluster.name: wallpaper-local
node.name: local-1
network.host: 127.0.0.1
http.port: $ES_PORT
transport.port: $((ES_PORT + 100))
discovery.type: single-node
path.data: $ES_DATA
path.logs: $ES_HOME/logs
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
EOF
  cat >"$ES_HOME/config/jvm.options.d/heap.options" <<EOF
-Xms$ES_HEAP
-Xmx$ES_HEAP
EOF
}

start_es() {
  mkdir -p "$STACK_DIR"
  build_plugin
  if es_answers; then
    if plugin_current && plugin_loaded; then
      say "Elasticsearch already answering on 127.0.0.1:$ES_PORT"
      return
    fi
    [ -s "$ES_PIDFILE" ] || die "Elasticsearch on 127.0.0.1:$ES_PORT lacks the current $PLUGIN_NAME plugin and was not started from $STACK_DIR: stop it first"
    say "restarting Elasticsearch to load the current $PLUGIN_NAME plugin"
    stop_pidfile Elasticsearch "$ES_PIDFILE"
  fi
  if port_in_use "$ES_PORT"; then die "port $ES_PORT is taken by something that is not Elasticsearch (set ES_PORT)"; fi
  refuse_second_from_dir Elasticsearch "$ES_PIDFILE"
  local java_home
  java_home="$(find_java_home)" || die "no Java found: install OpenJDK 17 (apt-get install openjdk-17-jdk-headless) or set ES_JAVA_HOME"
  [ -x "$java_home/bin/java" ] || die "ES_JAVA_HOME=$java_home has no bin/java"
  command -v curl >/dev/null 2>&1 || die "curl not found: apt-get install curl"
  mkdir -p "$STACK_DIR" "$ES_DATA"
  fetch_es
  install_plugin "$java_home"
  write_es_config
  say "starting Elasticsearch $ES_VERSION on 127.0.0.1:$ES_PORT (heap $ES_HEAP, java $java_home)"
  rm -f "$ES_PIDFILE"
  run_as_es env ES_JAVA_HOME="$java_home" ES_JAVA_OPTS="${ES_JAVA_OPTS:-}" \
    "$ES_HOME/bin/elasticsearch" -d -p "$ES_PIDFILE" >"$STACK_DIR/es-start.log" 2>&1 \
    || { tail -30 "$STACK_DIR/es-start.log" >&2; die "Elasticsearch failed to start (logs: $ES_HOME/logs)"; }
  local waited=0
  until curl -fsS --max-time 2 "http://127.0.0.1:$ES_PORT/_cluster/health?wait_for_status=yellow&timeout=1s" 2>/dev/null | grep -q '"status":"\(green\|yellow\)"'; do
    if [ -s "$ES_PIDFILE" ] && ! kill -0 "$(cat "$ES_PIDFILE")" 2>/dev/null; then
      tail -30 "$ES_HOME/logs/wallpaper-local.log" >&2 || true
      die "Elasticsearch exited during start-up"
    fi
    waited=$((waited + 2))
    [ "$waited" -ge "$ES_WAIT_SECONDS" ] && die "Elasticsearch not healthy after ${ES_WAIT_SECONDS}s (logs: $ES_HOME/logs)"
    sleep 2
  done
  say "Elasticsearch healthy after ~${waited}s"
}

# A data folder only its owner reads, files left by an earlier start included.
private_dir() {
  mkdir -p "$1"
  chmod -R go-rwx "$1"
}

start_redis() {
  if redis_answers; then say "Redis already answering on 127.0.0.1:$REDIS_PORT"; return; fi
  command -v redis-server >/dev/null 2>&1 || die "redis-server not found: apt-get install redis-server"
  if port_in_use "$REDIS_PORT"; then die "port $REDIS_PORT is taken by something that is not Redis (set REDIS_PORT)"; fi
  refuse_second_from_dir Redis "$REDIS_PIDFILE"
  private_dir "$REDIS_DIR"
  say "starting Redis on 127.0.0.1:$REDIS_PORT"
  # umask 077: the snapshot and the append-only files hold key hashes and sessions, for no one else.
  (umask 077 && redis-server "$ROOT/scripts/redis.conf" --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes \
    --pidfile "$REDIS_PIDFILE" --dir "$REDIS_DIR" --logfile "$REDIS_DIR/redis.log" >/dev/null)
  wait_until redis_answers 15 Redis "$REDIS_DIR/redis.log"
  say "Redis ready"
}

# Polls CHECK every half second for SECONDS, then gives up naming WHAT and its LOG.
wait_until() {
  local check="$1" seconds="$2" what="$3" log="$4" tries=0
  until "$check"; do
    tries=$((tries + 1))
    [ "$tries" -ge $((seconds * 2)) ] && die "$what did not answer within ${seconds}s (log: $log)"
    sleep 0.5
  done
}

stop_pidfile() {
  local name="$1" pidfile="$2" pid
  if pid="$(live_pid "$pidfile")"; then
    say "stopping $name (pid $pid)"
    kill "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  else
    say "$name not running from $STACK_DIR"
  fi
  rm -f "$pidfile"
}

# --- the demo catalogue's pictures ----------------------------------------------------------
PICTURES_PIDFILE="$STACK_DIR/demo-pictures.pid"
# The pictures server's own 404 for a picture that cannot be: any other server's 404 is not it.
pictures_answer() { [ "$(curl -s --max-time 2 "$IMAGE_BASE_URL/thumb/0-none.jpg" 2>/dev/null)" = "no such picture" ]; }

# Draws and serves the pictures of the demo catalogue (seed $1) at IMAGE_BASE_URL, in the background.
start_pictures() {
  local seed="$1"
  if pictures_answer; then say "demo pictures already served at $IMAGE_BASE_URL"; return; fi
  local authority="${IMAGE_BASE_URL#*://}"
  authority="${authority%%/*}"
  local port="${authority##*:}"
  [ "$port" = "$authority" ] && port=80
  if port_in_use "$port"; then die "port $port is taken by something that is not the demo pictures (set PICTURES_PORT)"; fi
  refuse_second_from_dir "The demo pictures server" "$PICTURES_PIDFILE"
  mkdir -p "$STACK_DIR"
  # A session of its own, as Elasticsearch's: a Ctrl-C meant for `npm run up`'s API leaves it serving.
  setsid nohup "$ROOT/node_modules/.bin/tsx" "$ROOT/scripts/demo-pictures.ts" --seed "$seed" > "$STACK_DIR/demo-pictures.log" 2>&1 &
  echo $! > "$PICTURES_PIDFILE"
  wait_until pictures_answer 30 "the demo pictures" "$STACK_DIR/demo-pictures.log"
  say "demo pictures served at $IMAGE_BASE_URL"
}

# --- several Elasticsearch nodes ------------------------------------------------------------
es_node_port() { echo $((ES_CLUSTER_PORT + $1 - 1)); }
es_node_dir() { echo "$CLUSTER_DIR/es-$1"; }
es_cluster_urls() {
  local urls=() i
  for i in $(seq 1 "$ES_NODES"); do urls+=("http://127.0.0.1:$(es_node_port "$i")"); done
  (IFS=,; echo "${urls[*]}")
}

write_es_node_config() {
  local i="$1" dir seeds="" masters="" j
  dir="$(es_node_dir "$i")"
  for j in $(seq 1 "$ES_NODES"); do
    seeds+="\"127.0.0.1:$(($(es_node_port "$j") + 100))\","
    masters+="\"es-$j\","
  done
  mkdir -p "$dir/data" "$dir/logs"
  if [ ! -d "$dir/config" ]; then cp -r "$ES_HOME/config" "$dir/config"; fi
  cat >"$dir/config/elasticsearch.yml" <<EOF
cluster.name: wallpaper-cluster
node.name: es-$i
network.host: 127.0.0.1
http.port: $(es_node_port "$i")
transport.port: $(($(es_node_port "$i") + 100))
discovery.seed_hosts: [${seeds%,}]
cluster.initial_master_nodes: [${masters%,}]
path.data: $dir/data
path.logs: $dir/logs
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
EOF
  mkdir -p "$dir/config/jvm.options.d"
  printf -- '-Xms%s\n-Xmx%s\n' "$ES_HEAP" "$ES_HEAP" >"$dir/config/jvm.options.d/heap.options"
}

es_node_answers() { curl -fsS --max-time 2 "http://127.0.0.1:$(es_node_port "$1")/_cluster/health?local=true" >/dev/null 2>&1; }

# Starts node i of the cluster unless it answers; the fault suite calls `stack.sh es-node-start i`.
start_es_node() {
  local i="$1" java_home="$2" dir
  dir="$(es_node_dir "$i")"
  if es_node_answers "$i"; then return; fi
  write_es_node_config "$i"
  if [ "$(id -u)" -eq 0 ]; then
    id "$ES_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER"
    # This node's files only: the others may be running, and a recursive pass over their data
    # races with the files they delete.
    chown "$ES_USER" "$CLUSTER_DIR"
    chown -R "$ES_USER" "$dir"
  fi
  rm -f "$dir/es.pid"
  run_as_es env ES_JAVA_HOME="$java_home" ES_PATH_CONF="$dir/config" ES_JAVA_OPTS="${ES_JAVA_OPTS:-}" \
    "$ES_HOME/bin/elasticsearch" -d -p "$dir/es.pid" >"$dir/start.log" 2>&1 \
    || { tail -30 "$dir/start.log" >&2; die "Elasticsearch node es-$i failed to start (logs: $dir/logs)"; }
}

start_es_cluster() {
  mkdir -p "$STACK_DIR" "$CLUSTER_DIR" "$ES_DATA"
  build_plugin
  local java_home i
  java_home="$(find_java_home)" || die "no Java found: install OpenJDK 17 or set ES_JAVA_HOME"
  fetch_es
  install_plugin "$java_home"
  say "starting a $ES_NODES-node Elasticsearch cluster on 127.0.0.1:$(es_node_port 1)-$(es_node_port "$ES_NODES") (heap $ES_HEAP each)"
  for i in $(seq 1 "$ES_NODES"); do start_es_node "$i" "$java_home"; done
  local waited=0
  until curl -fsS --max-time 3 "http://127.0.0.1:$(es_node_port 1)/_cluster/health?wait_for_nodes=$ES_NODES&wait_for_status=yellow&timeout=1s" 2>/dev/null | grep -q '"timed_out":false'; do
    waited=$((waited + 2))
    [ "$waited" -ge "$ES_WAIT_SECONDS" ] && die "the Elasticsearch cluster did not form within ${ES_WAIT_SECONDS}s (logs: $CLUSTER_DIR/es-*/logs)"
    sleep 2
  done
  say "Elasticsearch cluster of $ES_NODES nodes healthy after ~${waited}s"
}

# Stops every node whose pidfile is given, naming each by its directory.
stop_nodes() {
  local label="$1" pidfile
  shift
  for pidfile in "$@"; do
    [ -e "$pidfile" ] || continue
    stop_pidfile "$label $(basename "$(dirname "$pidfile")")" "$pidfile"
  done
}

stop_es_cluster() { stop_nodes Elasticsearch "$CLUSTER_DIR"/es-*/es.pid; }

# --- Redis Cluster ---------------------------------------------------------------------------
REDIS_CLUSTER_SIZE=6
redis_cluster_ports() { seq "$REDIS_CLUSTER_PORT" $((REDIS_CLUSTER_PORT + REDIS_CLUSTER_SIZE - 1)); }
redis_cluster_urls() {
  local urls=() port
  for port in $(redis_cluster_ports); do urls+=("redis://127.0.0.1:$port"); done
  (IFS=,; echo "${urls[*]}")
}

# Starts one Redis Cluster node unless it answers; the fault suite calls `stack.sh redis-node-start PORT`.
start_redis_node() {
  local port="$1" dir="$CLUSTER_DIR/redis-$1"
  [ "$(redis-cli -p "$port" ping 2>/dev/null || true)" = "PONG" ] && return
  private_dir "$dir"
  # Reads while the cluster is down (a master failed, its replica not yet elected): the API verifies
  # keys it has not seen on any copy of their slot then (src/access/store/admission-store.ts).
  (umask 077 && redis-server "$ROOT/scripts/redis.conf" --bind 127.0.0.1 --port "$port" --daemonize yes \
    --cluster-enabled yes --cluster-config-file "$dir/nodes.conf" --cluster-node-timeout 2000 \
    --cluster-allow-reads-when-down yes \
    --pidfile "$dir/redis.pid" --dir "$dir" --logfile "$dir/redis.log" >/dev/null)
  local waited=0
  until [ "$(redis-cli -p "$port" ping 2>/dev/null || true)" = "PONG" ]; do
    waited=$((waited + 1)); [ "$waited" -ge 30 ] && die "Redis on $port did not answer (log: $dir/redis.log)"; sleep 0.5
  done
}

start_redis_cluster() {
  command -v redis-server >/dev/null 2>&1 || die "redis-server not found: apt-get install redis-server"
  mkdir -p "$CLUSTER_DIR"
  local port nodes=()
  for port in $(redis_cluster_ports); do start_redis_node "$port"; nodes+=("127.0.0.1:$port"); done
  local info known
  info="$(redis-cli -p "$REDIS_CLUSTER_PORT" cluster info 2>/dev/null || true)"
  known="$(sed -n 's/^cluster_known_nodes:\([0-9]*\).*/\1/p' <<<"$info")"
  if ! grep -q 'cluster_state:ok' <<<"$info"; then
    if [ "${known:-0}" -gt 1 ]; then
      # Nodes stopped without a word (SIGKILL, a crash) and started again know each other from their
      # nodes.conf and settle by themselves; create refuses them ("is not empty").
      say "the Redis Cluster's nodes know each other from before: waiting for it to settle"
    else
      say "creating a Redis Cluster of 3 masters and 3 replicas on 127.0.0.1:$REDIS_CLUSTER_PORT-$((REDIS_CLUSTER_PORT + REDIS_CLUSTER_SIZE - 1))"
      redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes >"$CLUSTER_DIR/redis-create.log" 2>&1 \
        || { tail -20 "$CLUSTER_DIR/redis-create.log" >&2; die "redis-cli --cluster create failed"; }
    fi
  fi
  local waited=0
  until redis-cli -p "$REDIS_CLUSTER_PORT" cluster info 2>/dev/null | grep -q 'cluster_state:ok'; do
    waited=$((waited + 1)); [ "$waited" -ge 60 ] && die "the Redis Cluster did not reach cluster_state:ok"; sleep 0.5
  done
  say "Redis Cluster ready"
}

stop_redis_cluster() { stop_nodes Redis "$CLUSTER_DIR"/redis-*/redis.pid; }

parse_start_args() {
  while [ "$#" -gt 0 ]; do
    case "$1" in
      --es-nodes) [ "$#" -ge 2 ] || die "--es-nodes needs a number"; ES_NODES="$2"; shift 2 ;;
      --es-nodes=*) ES_NODES="${1#*=}"; shift ;;
      --redis-cluster) REDIS_CLUSTER=1; shift ;;
      *) die "unknown option $1 (start [--es-nodes N] [--redis-cluster])" ;;
    esac
  done
  [[ "$ES_NODES" =~ ^[1-9]$ ]] || die "--es-nodes must be 1 to 9 (got $ES_NODES)"
}

# The single node and Redis both answer, the node with the plugin as built now: a start has nothing
# to do, so it need not wait for the start lock. A start of the cluster topology holds that lock for
# about a minute, and a start of the running single node beside it (the fuzz's, while npm test
# starts the topology for the fault suite) had waited all of it.
single_stack_current() {
  [ "$ES_NODES" -eq 1 ] && [ "$REDIS_CLUSTER" != "1" ] || return 1
  plugin_built && plugin_current && es_answers && redis_answers && plugin_loaded
}

case "${1:-}" in
  start)
    shift
    parse_start_args "$@"
    mkdir -p "$STACK_DIR"
    if single_stack_current; then
      say "Redis already answering on 127.0.0.1:$REDIS_PORT"
      say "Elasticsearch already answering on 127.0.0.1:$ES_PORT"
      say "ready: ELASTICSEARCH_URL=http://127.0.0.1:$ES_PORT REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
      exit 0
    fi
    take_start_lock
    if [ "$REDIS_CLUSTER" = "1" ]; then start_redis_cluster; redis_url="$(redis_cluster_urls)"; else start_redis; redis_url="redis://127.0.0.1:$REDIS_PORT"; fi
    if [ "$ES_NODES" -gt 1 ]; then start_es_cluster; es_url="$(es_cluster_urls)"; else start_es; es_url="http://127.0.0.1:$ES_PORT"; fi
    say "ready: ELASTICSEARCH_URL=$es_url REDIS_URL=$redis_url"
    ;;
  es-node-start)
    # The cluster's size is the number of nodes it was started with.
    ES_NODES="$(find "$CLUSTER_DIR" -maxdepth 1 -name 'es-*' -type d | wc -l)"
    java_home="$(find_java_home)" || die "no Java found"
    start_es_node "${2:?node number}" "$java_home"
    ;;
  redis-node-start)
    start_redis_node "${2:?port}"
    ;;
  stop-cluster)
    stop_es_cluster
    stop_redis_cluster
    ;;
  pictures-start)
    IMAGE_BASE_URL="${IMAGE_BASE_URL:?IMAGE_BASE_URL names where the pictures are served}"
    mkdir -p "$STACK_DIR"
    take_start_lock
    start_pictures "${2:-42}"
    ;;
  stop)
    [ -s "$PICTURES_PIDFILE" ] && stop_pidfile "demo pictures" "$PICTURES_PIDFILE"
    stop_pidfile Elasticsearch "$ES_PIDFILE"
    stop_pidfile Redis "$REDIS_PIDFILE"
    stop_es_cluster
    stop_redis_cluster
    ;;
  status)
    es_answers && say "Elasticsearch: up on $ES_PORT" || say "Elasticsearch: down"
    redis_answers && say "Redis: up on $REDIS_PORT" || say "Redis: down"
    ;;
  *)
    echo "usage: $0 start [--es-nodes N] [--redis-cluster] | stop | status" >&2; exit 2 ;;
esac
