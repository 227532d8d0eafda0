#!/usr/bin/env bash
# complete.sh SCRIPT < CASES: loads a generated bash completion script and
# calls its function as bash does for each line of CASES (the words typed, the
# last one being completed; '' an empty word), printing `WORDS => REPLIES`.
# Runs in the folder of CASES' files (the caller's working directory).
source "$1"
while IFS= read -r line; do
  [ -z "$line" ] && continue
  eval "COMP_WORDS=($line)"
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _tilexform
  echo "$line => ${COMPREPLY[*]}"
done
