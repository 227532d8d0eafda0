#!/usr/bin/env bash
# Installs tilexform's build dependencies (Debian 12 packages only) and builds
# it. Usage: scripts/setup.sh [BUILD_DIR] [--strict] [extra cmake args...]
# TILEXFORM_BUILD_TARGETS (space-separated) builds only those targets.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
# --strict: the build CI tests and fuzzes (scripts/test.sh --strict,
# scripts/fuzz.sh): clang-22, warnings as errors, ASan/UBSan, libFuzzer.
strict=0
if [ "${1:-}" = "--strict" ]; then
  strict=1
  shift
  set -- -DTILEXFORM_WERROR=ON -DTILEXFORM_SANITIZE=ON -DTILEXFORM_FUZZ=ON -DTILEXFORM_TESTS=ON "$@"
  export CC=clang-22 CXX=clang++-22
fi

packages=(cmake ninja-build g++ python3
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev libgtest-dev libgmock-dev libzstd-dev zlib1g-dev
  python3-jsonschema)
# The report tests open tilexform's HTML pages in headless Chromium. CI always
# installs it and runs them (tests/lit/lit.cfg.py fails a CI run without it);
# elsewhere TILEXFORM_BROWSER=1 installs it, and without it those tests are
# reported unsupported.
if [ "${CI:-}" = "true" ] || [ "${TILEXFORM_BROWSER:-}" = "1" ]; then
  packages+=(chromium)
fi
if [ $strict -eq 1 ]; then
  packages+=(clang-22 libclang-rt-22-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "tilexform: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
# shellcheck disable=SC2086 # a list of target names
ninja -C "$build" ${TILEXFORM_BUILD_TARGETS:-}
