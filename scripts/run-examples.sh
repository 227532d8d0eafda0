#!/usr/bin/env bash
# Sets up, builds, and runs every command on the shipped examples: the entries
# of examples/commands.txt (the same ones the man pages show and
# tests/lit/cli/examples.test checks), each printed with its output. A line
# `(exit N, as intended: ...)` follows a command whose "no" is the point.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh" "$here/build" -DTILEXFORM_TESTS=OFF
python3 "$here/scripts/examples.py" run "$here/build/tools/tilexform/tilexform"
