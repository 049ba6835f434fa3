#!/bin/sh
# The distribution's installer (bin/dist puts it at the top of the archive as install.sh):
# copies the unpacked tree to PREFIX/share/stretto/<version>, points PREFIX/share/stretto/current
# at it and PREFIX/bin/{stretto-proxy,stretto,stretto-mcp-demo} at current/bin/. See
# docs/install.md.
PATH=${PATH:+$PATH:}/usr/bin:/bin
commands="stretto-proxy stretto stretto-mcp-demo"

say() { printf '%s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
usage() { printf 'install.sh: %s (see ./install.sh --help)\n' "$*" >&2; exit 2; }

uninstall=
prefix=
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help)
      cat <<'USAGE'
Usage: ./install.sh [PREFIX]
       ./install.sh --uninstall [PREFIX]

Installs this stretto distribution under PREFIX (default ~/.local): the tree goes to
PREFIX/share/stretto/<version>, PREFIX/share/stretto/current points at it, and
PREFIX/bin/stretto-proxy, PREFIX/bin/stretto and PREFIX/bin/stretto-mcp-demo are links
through current. Installing another version over an installed one switches current to it
in one step, keeps the version it replaces (sessions still running on it go on) and
removes the ones before that. Before anything changes, the copied tree's stretto-proxy
must print its version on this machine.

  --uninstall  remove what an install made under PREFIX: the three links in PREFIX/bin
               and PREFIX/share/stretto (session logs in ~/.stretto stay)
  -h, --help   show this help

Exit status: 0 when done; 1 when it could not be done (nothing was changed: a file that
is not a link is where a command's link would go, the runtime does not run here, a
directory cannot be written); 2 for a usage error.
USAGE
      exit 0 ;;
    --uninstall) uninstall=yes; shift ;;
    -*) usage "unknown option $1" ;;
    *)
      [ -z "$prefix" ] || usage "one PREFIX at most"
      prefix=$1; shift ;;
  esac
done
if [ -z "$prefix" ]; then
  [ -n "${HOME:-}" ] || fail "HOME is not set; give the PREFIX to install into"
  prefix=$HOME/.local
fi
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
share=$prefix/share/stretto

# is_ours LINK: LINK is a symbolic link into some share/stretto/ (one an install made).
is_ours() {
  [ -L "$1" ] || return 1
  case $(readlink "$1") in */share/stretto/*) return 0 ;; *) return 1 ;; esac
}

# replace_link TARGET LINK: LINK becomes a link to TARGET in one step (a host starting a
# command at that moment finds the old link or the new one, never none).
replace_link() {
  ln -s "$1" "$2.new.$$" || return 1
  mv -Tf "$2.new.$$" "$2" 2>/dev/null || mv -hf "$2.new.$$" "$2" 2>/dev/null \
    || { rm -f "$2"; mv -f "$2.new.$$" "$2"; } || { rm -f "$2.new.$$"; return 1; }
}

if [ "$uninstall" = yes ]; then
  removed=
  for c in $commands; do
    if is_ours "$prefix/bin/$c"; then rm -f "$prefix/bin/$c" && removed="$removed $c"; fi
  done
  if [ -d "$share" ]; then
    [ -L "$share/current" ] || [ -z "$(ls -A "$share")" ] \
      || fail "$share has no 'current' link: it was not made by install.sh; remove it by hand"
    rm -rf "$share" || fail "cannot remove $share"
    say "removed $share"
  fi
  [ -n "$removed" ] && say "removed from $prefix/bin:$removed"
  [ -z "$removed" ] && ! [ -e "$share" ] && say "nothing of stretto was installed under $prefix"
  say "session logs and other files in ~/.stretto are left as they are"
  exit 0
fi

src=$(cd "$(dirname "$0")" && pwd -P) || fail "cannot find the directory of install.sh"
version=
{ IFS= read -r version < "$src/VERSION"; } 2>/dev/null
[ -n "$version" ] || fail "$src/VERSION is missing: run the install.sh of an unpacked distribution"
[ -x "$src/bin/stretto-proxy" ] && [ -x "$src/runtime/bin/java" ] \
  || fail "$src is not a complete distribution (no bin/stretto-proxy or runtime/bin/java); unpack the archive again"

# Everything that could stop the install is checked before anything changes.
for c in $commands; do
  if [ -e "$prefix/bin/$c" ] || [ -L "$prefix/bin/$c" ]; then
    [ -L "$prefix/bin/$c" ] || fail "$prefix/bin/$c is a file, not a link an install made; move it away or choose another PREFIX"
  fi
done
if [ -e "$share/current" ] && ! [ -L "$share/current" ]; then
  fail "$share/current is not a link an install made; move $share away or choose another PREFIX"
fi
mkdir -p "$prefix/bin" "$share" || fail "cannot make $prefix/bin and $share"
previous=$(readlink "$share/current" 2>/dev/null)
dest=$share/$version

if [ "$(cd "$dest" 2>/dev/null && pwd -P)" != "$src" ]; then
  staged=$share/.install-$version.$$
  trap 'rm -rf "$staged"' EXIT
  trap 'exit 130' INT; trap 'exit 143' TERM
  # -p keeps the files' times: the start-up caches are valid only for jars as they were made.
  cp -pR "$src" "$staged" || fail "cannot copy $src to $staged"
  # The copy must run on this machine before anything is switched over to it.
  check=$("$staged/bin/stretto-proxy" --version 2>&1)
  [ "$check" = "stretto-proxy $version" ] || fail "the copied stretto-proxy does not run here: $check"
  if [ -d "$dest" ]; then
    # The same version again: the copy replaces it.
    mv "$dest" "$share/.replaced-$version.$$" || fail "cannot move the installed $dest aside"
    mv "$staged" "$dest" || { mv "$share/.replaced-$version.$$" "$dest"; fail "cannot move $staged to $dest"; }
    rm -rf "$share/.replaced-$version.$$"
  else
    mv "$staged" "$dest" || fail "cannot move $staged to $dest"
  fi
  trap - EXIT INT TERM
fi

replace_link "$version" "$share/current" || fail "cannot point $share/current at $version"
for c in $commands; do
  replace_link "../share/stretto/current/bin/$c" "$prefix/bin/$c" || fail "cannot make the link $prefix/bin/$c"
done

# Kept: this version and the one it replaced. Earlier ones go.
for d in "$share"/*; do
  [ -d "$d" ] && ! [ -L "$d" ] && [ -f "$d/VERSION" ] || continue
  case ${d##*/} in "$version"|"$previous") ;; *) rm -rf "$d" ;; esac
done

if [ -n "$previous" ] && [ "$previous" != "$version" ]; then
  say "upgraded stretto from $previous to $version in $share ($previous is kept for sessions still running on it)"
else
  say "installed stretto $version in $dest"
fi
say "commands: $prefix/bin/stretto-proxy, $prefix/bin/stretto, $prefix/bin/stretto-mcp-demo"
case ":${PATH}:" in
  *":$prefix/bin:"*) ;;
  *) say "$prefix/bin is not on your PATH; add it (e.g. in ~/.profile: PATH=\"$prefix/bin:\$PATH\"), or call the commands by their full path" ;;
esac
say "next: stretto init --help (the entry for your MCP host)"
