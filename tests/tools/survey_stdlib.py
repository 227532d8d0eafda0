#!/usr/bin/env python3
"""survey_stdlib.py TILEXFORM: surveys this interpreter's own standard library
(hundreds of real modules) and prints every file tilexform's parser refused,
then a count. Python 2 test data shipped with lib2to3 is expected to fail."""
import json
import subprocess
import sys
import sysconfig

stdlib = sysconfig.get_path("stdlib")
out = subprocess.run([sys.argv[1], "survey", "-q", "--json", stdlib], capture_output=True,
                     text=True, check=True)
doc = json.loads(out.stdout)
refused = [e for e in doc["errors"] if "lib2to3/tests/data" not in e and "not UTF-8" not in e]
for e in refused:
    print("REFUSED", e)
print("scanned", "many" if doc["files_scanned"] > 300 else doc["files_scanned"], "refused", len(refused))
