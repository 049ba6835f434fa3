# bin/dist's work, sourced by bin/lib/launch (tool dist) once the jars are built: makes
# stretto-<version>-<os>-<arch>.tar.gz in the output directory ($1, checked by bin/dist) and
# prints its path on stdout; what it does goes to stderr. The archive holds one directory,
# stretto-<version>/:
#
#   bin/stretto-proxy, bin/stretto, bin/stretto-mcp-demo   the checkout's launchers, as they are
#   bin/lib/launch, bin/lib/launcher.sh                    the distribution's launcher (never
#                                                          builds) and the launcher library
#   lib/*.jar, lib/<program>.classpath                     the jars, and each program's class path
#   lib/stretto-proxy.aot, lib/stretto-proxy-active.aot,
#   lib/stretto-mcp-demo.aot                               the start-up caches, trained here
#                                                          against runtime/
#   runtime/                                               a Java runtime made with jlink, holding
#                                                          the modules jdeps finds the jars use
#                                                          (java.desktop aside, see below)
#   install.sh, VERSION, docs/, examples/policies/         the installer, the version, the docs
#                                                          and what they link to (bin/lib/dist-docs)
#
# Uses $root, $jdk, say, write_aot_cache and the proxy_training_ variables of the launcher.

dist_out=$1
dist_fail() { say "bin/dist: $*"; exit 1; }

version=
while IFS= read -r line || [ -n "$line" ]; do
  case $line in version=*) version=${line#version=} ;; esac
done < "$root/proxy-cli/target/classes/dev/stretto/cli/version.properties" \
  || dist_fail "cannot read the built version (proxy-cli/target/classes/dev/stretto/cli/version.properties)"
[ -n "$version" ] || dist_fail "proxy-cli/target/classes/dev/stretto/cli/version.properties names no version"

case $(uname -s) in Linux) os=linux ;; Darwin) os=macos ;; *) os=$(uname -s | tr '[:upper:]' '[:lower:]') ;; esac
case $(uname -m) in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=aarch64 ;; *) arch=$(uname -m) ;; esac
name=stretto-$version
archive_name=$name-$os-$arch.tar.gz

mkdir -p "$dist_out" && dist_out=$(cd "$dist_out" && pwd -P) || dist_fail "cannot make the output directory $1"
# Built beside the archive and moved into place only when complete, so that an interrupted
# build leaves neither a half tree nor a half archive behind.
work=$(mktemp -d "$dist_out/.stretto-dist.XXXXXX") || dist_fail "cannot make a working directory in $dist_out"
trap 'rm -rf "$work"; [ -n "${scratch:-}" ] && rm -rf "$scratch"' EXIT
trap 'exit 130' INT; trap 'exit 143' TERM
tree=$work/$name
mkdir -p "$tree/bin/lib" "$tree/lib" || dist_fail "cannot make $tree"

say "bin/dist: $archive_name from the jars in proxy-cli/target and mcp-demo/target"
# One lib/ for both programs; a jar both use is there once (it must be the same file).
for jar in "$root/proxy-cli/target/proxy-cli.jar" "$root"/proxy-cli/target/lib/*.jar \
           "$root/mcp-demo/target/mcp-demo.jar" "$root"/mcp-demo/target/lib/*.jar; do
  jar_name=${jar##*/}
  if [ -e "$tree/lib/$jar_name" ]; then
    cmp -s "$jar" "$tree/lib/$jar_name" || dist_fail "proxy-cli and mcp-demo have two different $jar_name"
  else
    cp "$jar" "$tree/lib/$jar_name" || dist_fail "cannot copy $jar"
  fi
done
# class_path MODULE: the jar names of MODULE's program, its own jar first.
class_path() {
  c=$1.jar
  for jar in "$root/$1/target/lib/"*.jar; do c=$c:${jar##*/}; done
  echo "$c"
}
class_path proxy-cli > "$tree/lib/proxy-cli.classpath"
class_path mcp-demo > "$tree/lib/mcp-demo.classpath"

say "bin/dist: the modules the jars use (jdeps)"
modules=$("$jdk/bin/jdeps" --multi-release 25 --ignore-missing-deps --print-module-deps "$tree"/lib/*.jar) \
  || dist_fail "jdeps could not tell which modules the jars use"
case $modules in java.base*) ;; *) dist_fail "jdeps said '$modules', not a list of modules" ;; esac
# java.desktop (9 MB of the archive) is left out when jdeps names it only for the two classes
# below, which nothing the programs run loads: jackson-databind's ext.Java7SupportImpl reads
# the java.beans annotations @Transient and @ConstructorProperties and is loaded reflectively,
# databind going on without it where java.beans is missing (no type of ours uses either);
# snakeyaml's introspector.MethodProperty serves the JavaBean mapping of its Yaml class, which
# jackson-dataformat-yaml does not use (it reads and writes through snakeyaml's parser and
# emitter). Any other class that refers to java.desktop keeps the module in, and says so.
desktop_users=$("$jdk/bin/jdeps" --multi-release 25 --ignore-missing-deps -verbose:class "$tree"/lib/*.jar \
  | awk 'NF == 4 && $2 == "->" && $4 == "java.desktop" { print $1 }' | sort -u)
other_desktop_users=$(printf '%s\n' "$desktop_users" | {
  grep -vx -e '' -e com.fasterxml.jackson.databind.ext.Java7SupportImpl -e org.yaml.snakeyaml.introspector.MethodProperty \
    || true
})
if [ -n "$other_desktop_users" ]; then
  say "bin/dist: java.desktop stays in the runtime, for $(printf '%s\n' "$other_desktop_users" | paste -sd' ' -)"
else
  modules=$(printf '%s\n' "$modules" | tr ',' '\n' | grep -vx java.desktop | paste -sd, -)
fi
say "bin/dist: a Java runtime of $modules (jlink)"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --output "$tree/runtime" >&2 || dist_fail "jlink failed"

cp "$root/bin/stretto-proxy" "$root/bin/stretto" "$root/bin/stretto-mcp-demo" "$tree/bin/" \
  && cp "$root/bin/lib/launcher.sh" "$tree/bin/lib/launcher.sh" \
  && cp "$root/bin/lib/launch-dist" "$tree/bin/lib/launch" \
  && cp "$root/bin/lib/install.sh" "$tree/install.sh" \
  && chmod 755 "$tree/bin/stretto-proxy" "$tree/bin/stretto" "$tree/bin/stretto-mcp-demo" \
       "$tree/bin/lib/launch" "$tree/install.sh" \
  && printf '%s\n' "$version" > "$tree/VERSION" || dist_fail "cannot copy the launchers into $tree"
# The pages for people to read, and what they link to (bin/lib/dist-docs names them).
while IFS= read -r doc || [ -n "$doc" ]; do
  case $doc in '#'*|'') continue ;; esac
  case $doc in
    */) mkdir -p "$tree/$doc" && cp -R "$root/$doc." "$tree/$doc" ;;
    *) mkdir -p "$tree/${doc%/*}" && cp "$root/$doc" "$tree/$doc" ;;
  esac || dist_fail "cannot copy $doc (named in bin/lib/dist-docs) into $tree"
done < "$root/bin/lib/dist-docs"

# The caches are trained against the runtime just made, with the class path the
# distribution's launcher gives (the same jars, as absolute paths): the JVM maps a cache only
# for the runtime and the jars it was made with, and finds them again wherever the tree is
# unpacked.
in_tree() {
  p=
  old_ifs=$IFS
  IFS=:
  # shellcheck disable=SC2013
  for jar_name in $(cat "$tree/lib/$1.classpath"); do p=${p:+$p:}$tree/lib/$jar_name; done
  IFS=$old_ifs
  echo "$p"
}
say "bin/dist: training the start-up caches on a short session"
# shellcheck disable=SC2086
write_aot_cache "$tree/runtime/bin/java" "$(in_tree proxy-cli)" $proxy_training_main \
  "$tree/lib/stretto-proxy.aot" $proxy_passive_training_args || dist_fail "training the proxy's start-up cache failed"
# shellcheck disable=SC2086
write_aot_cache "$tree/runtime/bin/java" "$(in_tree proxy-cli)" $proxy_training_main \
  "$tree/lib/stretto-proxy-active.aot" $proxy_active_training_args \
  || dist_fail "training the proxy's start-up cache for active mode failed"
write_aot_cache "$tree/runtime/bin/java" "$(in_tree mcp-demo)" dev.stretto.demo.DemoMain \
  "$tree/lib/stretto-mcp-demo.aot" || dist_fail "training the demo's start-up cache failed"

# The tree as a user gets it: a session through its own launchers, with nothing on stderr (a
# cache the JVM would not map says so there).
check_out=$work/check.out check_err=$work/check.err
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"ping"}' \
  | (cd "$work" && env -u JAVA_HOME PATH=/usr/bin:/bin "$tree/bin/stretto-proxy" -- "$tree/bin/stretto-mcp-demo") \
    >"$check_out" 2>"$check_err"
[ "$(cat "$check_out")" = '{"id":1,"jsonrpc":"2.0","result":{}}' ] && ! [ -s "$check_err" ] || {
  cat "$check_err" >&2
  dist_fail "the tree's stretto-proxy did not answer a ping in front of its stretto-mcp-demo as it should"
}
rm -f "$check_out" "$check_err"

# Owned by root in the archive, whoever built it: an unpacked tree belongs to whoever unpacks it.
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
  tar_owner="--owner=0 --group=0 --numeric-owner"
else
  tar_owner="--uid 0 --gid 0"
fi
# shellcheck disable=SC2086
(cd "$work" && tar $tar_owner -czf "$work/$archive_name" "$name") || dist_fail "tar failed"
mv -f "$work/$archive_name" "$dist_out/$archive_name" || dist_fail "cannot move the archive into $dist_out"
size=$(wc -c < "$dist_out/$archive_name")
say "bin/dist: $dist_out/$archive_name ($(( (size + 524288) / 1048576 )) MB)"
echo "$dist_out/$archive_name"
