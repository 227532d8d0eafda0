#!/usr/bin/env bash
# Builds tilexform in Release, packages it as a .deb (CPack), installs it with
# dpkg, checks the installed binary, man pages and completions, and removes it;
# then runs the lit suite over that Release binary (the static executable with
# its own operator new, which the sanitizer build does not have).
#   scripts/package-check.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-release}
# The executable and its man pages, and the lit configuration (no unit tests).
TILEXFORM_BUILD_TARGETS="tilexform tilexform_docs" \
  "$here/scripts/setup.sh" "$build" -DTILEXFORM_TESTS=ON >/dev/null
for p in man-db dpkg-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$p"
  fi
done
(cd "$build" && rm -f tilexform_*.deb && cpack -G DEB >/dev/null)
deb=$(ls "$build"/tilexform_*.deb)
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo dpkg -i "$deb" >/dev/null
trap '$sudo dpkg -r tilexform >/dev/null' EXIT
set -x
test "$(command -v tilexform)" = /usr/bin/tilexform
tilexform --version
man -w tilexform-recover
man -w tilexform
test -s /usr/share/bash-completion/completions/tilexform
test -s /usr/share/zsh/vendor-completions/_tilexform
test -s /usr/share/tilexform/schema/recover.schema.json
test -s /usr/share/doc/tilexform/copyright
# Stripped: no symbol table left.
! readelf -S /usr/bin/tilexform | grep -q '\.symtab'
# The bash completion completes a command and its flags.
bash -c 'source /usr/share/bash-completion/completions/tilexform
  COMP_WORDS=(tilexform rec); COMP_CWORD=1; _tilexform; [ "${COMPREPLY[*]}" = recover ]
  COMP_WORDS=(tilexform recover --max-s); COMP_CWORD=2; _tilexform; [ "${COMPREPLY[*]}" = --max-sites ]'
# The man pages show each command's examples, which run from the installed
# documentation folder; completions offer an option's values.
man tilexform-recover | grep -q '^EXAMPLES'
man tilexform-recover | grep -q 'tilexform recover examples/'
bash -c 'source /usr/share/bash-completion/completions/tilexform
  COMP_WORDS=(tilexform recover --format ""); COMP_CWORD=3; _tilexform; [ "${COMPREPLY[*]}" = "text json jsonl" ]'
test -s /usr/share/doc/tilexform/docs/lint.md
(cd /usr/share/doc/tilexform && tilexform recover examples/sm90_matmul_f16_128x128x64_w4_s3.ttgir >/dev/null)
{ tilexform lint --format sarif /usr/share/doc/tilexform/examples/lint/proxy_fence_bad.ttgir || true; } |
  grep -q '"helpUri": "file:///usr/share/doc/tilexform/docs/lint.md#proxy-fence"'
tilexform recover "$here/examples/"*.ttgir >/dev/null || [ $? -eq 1 ]
set +x
$sudo dpkg -r tilexform >/dev/null
trap - EXIT
! command -v tilexform >/dev/null
echo "package-check: $(basename "$deb") installed, checked and removed"
/usr/lib/llvm-22/bin/lit -s "$build/tests/lit"
