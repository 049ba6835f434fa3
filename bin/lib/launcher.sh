# The launcher library: what the launchers of a checkout (bin/lib/launch) and of a
# distribution (bin/lib/launch-dist, which the archive has as bin/lib/launch) share, and what
# bin/dist uses to find a JDK and train the distribution's start-up caches. It is sourced, not
# run, by a launcher in <root>/bin/lib/, and sets $root, $bin_dir and the functions below.
#
# MCP hosts start servers without a shell, from any directory and often with a minimal PATH,
# so nothing here relies on the caller's environment beyond what it checks. Nothing but the
# program itself may write to stdout: the host reads the protocol there.

# The program gets the caller's PATH back as it was (or none, if there was none): the proxy's
# server inherits it, and must see the host's environment unchanged. Only the launcher's own
# work (finding java, mvn, sed...) looks in the usual places too.
# A shell sets PATH to a default of its own when it was given none, without exporting it:
# whether the caller gave one shows in what is exported.
host_path=${PATH-}
case "
$(export -p)" in
  *"
export PATH="*|*"
declare -x PATH="*) host_path_set=set ;;
  *) host_path_set= ;;
esac
PATH=${PATH:+$PATH:}/usr/local/bin:/usr/bin:/bin
export PATH
restore_host_path() {
  if [ "$host_path_set" = set ]; then PATH=$host_path; export PATH; else unset PATH; fi
}

# Start-up: the launcher runs every time a host starts a server, so its own work forks as few
# programs as it can (parameter expansion and read rather than dirname, sed, head and cat).
case $0 in */*) launch_dir=${0%/*} ;; *) launch_dir=. ;; esac
bin_dir=$(cd "$launch_dir/.." 2>/dev/null && pwd -P) || {
  echo "stretto: cannot find the launcher's own directory" >&2; exit 125; }
root=${bin_dir%/*}
[ -n "$root" ] || root=/

say() { printf '%s\n' "$*" >&2; }

# Set by the launchers for run_java; never taken from the environment.
aot_opt= prop_opt= scratch=

# The feature version of a JDK home, read from its release file (no JVM start-up),
# or from `java -version` where there is no release file.
jdk_version() {
  v=
  if [ -f "$1/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case $line in JAVA_VERSION=\"*) v=${line#JAVA_VERSION=\"}; v=${v%%[!0-9]*}; break ;; esac
    done < "$1/release"
  else
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.* version "\([0-9][0-9]*\).*/\1/p' | head -n 1)
  fi
  case $v in ''|*[!0-9]*) echo 0 ;; 1) echo 1 ;; *) echo "$v" ;; esac
}

usable() { [ -x "$1/bin/java" ] && [ "$(jdk_version "$1")" -ge 25 ]; }

# A JDK 25 or newer: JAVA_HOME, else the newest in the usual places, else java on PATH.
find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && usable "$JAVA_HOME"; then echo "$JAVA_HOME"; return 0; fi
  best= best_v=0
  # STRETTO_JVM_DIRS replaces the usual places JDKs are installed in (tests use it).
  for base in ${STRETTO_JVM_DIRS:-/usr/lib/jvm /usr/java /opt/java /Library/Java/JavaVirtualMachines}; do
  for d in "$base"/* "$base"/*/Contents/Home; do
    [ -x "$d/bin/java" ] || continue
    v=$(jdk_version "$d")
    if [ "$v" -ge 25 ] && [ "$v" -gt "$best_v" ]; then best=$d best_v=$v; fi
  done
  done
  if [ -n "$best" ]; then echo "$best"; return 0; fi
  j=$(command -v java 2>/dev/null) || return 1
  j=$(readlink -f "$j" 2>/dev/null || echo "$j")
  h=$(dirname "$(dirname "$j")")
  usable "$h" && { echo "$h"; return 0; }
  return 1
}

# The JVM's own warnings go to stderr: by default it prints them on stdout, the host's
# protocol channel. Native access lets a served flow call libm through the FFM API without the
# JVM's warning about it.
jvm_opts="--enable-preview --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k -Xlog:disable -Xlog:all=warning:stderr"

# Start-up: an AOT cache (JDK 25, JEP 483/514) of the classes a session loads more than
# halves the JVM's start-up, which hosts pay every time they start a server. It is trained on
# a short session: these five messages, what a host sends first.
try_lines='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"aot","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"hello"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"update","arguments":{"text":"hi","fail":true}}}'

# The proxy has two caches, each trained by dev.stretto.cli.AotTraining on sessions of its own
# kind: a cache holds every class its training loaded, and the JVM loads and relocates all of
# it at start-up, so a passive session would pay for active mode's classes in one shared cache
# (measured: 50 MB resident once idle, against 41 with a cache of its own). The passive one is
# trained on an unrecorded and a recorded session (the two ways of forwarding), the active
# one with the actor, the guards, the commit tool and the conversation file.
proxy_training_main=dev.stretto.cli.AotTraining
proxy_passive_training_args="--log-level off -- cat +++ --log-level off --record logs -- cat"
proxy_active_training_args="--log-level off --record logs --domain retail --guards --commit --context context.jsonl -- cat"

# pick_proxy_cache ARGS...: sets proxy_cache to the name of the cache that suits a session
# with these options (those before --): stretto-proxy-active when one of them puts the proxy
# in active mode, else stretto-proxy. A variable, not output: no subshell on the start-up path.
pick_proxy_cache() {
  proxy_cache=stretto-proxy
  for p_arg in "$@"; do
    case $p_arg in
      --) return 0 ;;
      --guards|--commit|--context|--context=*|--flow|--flow=*|--confirm-judge|--confirm-judge=*|--policy|--policy=*)
        proxy_cache=stretto-proxy-active; return 0 ;;
    esac
  done
}

# write_aot_cache JAVA CLASS_PATH MAIN CACHE ARGS...: one short session with the cache being
# written to CACHE, in a scratch directory of its own ($scratch, which a launcher's exit trap
# removes if the training is cut short). Returns 1 when no cache was made.
write_aot_cache() {
  w_java=$1 w_cp=$2 w_main=$3 w_cache=$4
  shift 4
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/stretto-aot.XXXXXX") || return 1
  w_made=1
  # shellcheck disable=SC2086
  if printf '%s\n' "$try_lines" | (cd "$scratch" && "$w_java" $jvm_opts -XX:AOTCacheOutput="$w_cache.new" \
       -cp "$w_cp" "$w_main" "$@") >/dev/null 2>&1 \
     && [ -f "$w_cache.new" ] && mv "$w_cache.new" "$w_cache"; then
    w_made=0
  fi
  rm -rf "$scratch" "$w_cache.new"
  scratch=
  return $w_made
}

# proxy_beside CALLED_AS: the stretto-proxy that `stretto init` writes into host configs, for
# a stretto started as CALLED_AS ($0 of bin/stretto). The one beside the command as it was
# called, without resolving links, when there is one: ~/.local/bin/stretto-proxy for an
# installed distribution (it outlives upgrades, the versioned tree it points into does not);
# else the one beside the resolved launcher.
proxy_beside() {
  case $1 in */*) p_dir=${1%/*} ;; *) p_dir=. ;; esac
  p_dir=$(cd "$p_dir" 2>/dev/null && pwd) || p_dir=
  if [ -n "$p_dir" ] && [ -x "$p_dir/stretto-proxy" ]; then
    echo "$p_dir/stretto-proxy"
  else
    echo "$bin_dir/stretto-proxy"
  fi
}

# run_java JAVA CLASS_PATH MAIN ARGS...: execs the program with the caller's PATH, with the
# JVM options $aot_opt (the start-up cache's) and $prop_opt (a system property) when they are
# set. Each is one argument: the tree's path may hold spaces. STRETTO_JAVA_OPTS adds JVM
# options (a heap limit, say) without editing a launcher.
run_java() {
  r_java=$1 r_cp=$2 r_main=$3
  shift 3
  restore_host_path
  # shellcheck disable=SC2086
  exec "$r_java" $jvm_opts ${aot_opt:+"$aot_opt"} ${prop_opt:+"$prop_opt"} ${STRETTO_JAVA_OPTS:-} \
    -cp "$r_cp" "$r_main" "$@"
}
