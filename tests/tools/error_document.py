#!/usr/bin/env python3
"""error_document.py FILE: the error document a JSON run wrote on a failure
(docs/json.md), summed up as `COMMAND VERDICT EXIT_CODE: FILE:LINE:COL: MESSAGE`
per error; fails unless FILE holds exactly one such document."""
import json
import sys

doc = json.loads(open(sys.argv[1]).read())
assert doc["verdict"] == "ERROR", doc["verdict"]
for e in doc["errors"]:
    place = ":".join(str(x) for x in (e["file"], e["line"], e["col"]) if x is not None)
    print(f'{doc["command"]} {doc["verdict"]} {doc["exit_code"]}: {place}: {e["message"]}')
