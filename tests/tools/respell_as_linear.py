#!/usr/bin/env python3
"""respell_as_linear.py TOOL DUMP ALIAS SHAPE: prints DUMP with every alias
renamed (#x -> #x_r) and ALIAS's definition replaced by the #ttg.linear that
`tilexform layout` computes for it at SHAPE, named #layout_a."""
import json
import re
import subprocess
import sys

tool, dump, alias, shape = sys.argv[1:5]
text = open(dump).read()
definition = re.search(r"^" + re.escape(alias) + r" = (.*)$", text, re.M).group(1)
doc = json.loads(subprocess.run([tool, "layout", "--json", "--attr", definition, "--shape", shape],
                                capture_output=True, text=True, check=True).stdout)
lin = doc["linear"]


def bases(name):
    return "[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in lin.get(name, [])) + "]"


linear = ("#ttg.linear<{register = %s, lane = %s, warp = %s, block = %s}>"
          % (bases("register"), bases("lane"), bases("warp"), bases("block")))
names = sorted(set(re.findall(r"^(#[A-Za-z_][\w]*) = #ttg\.", text, re.M)), key=len, reverse=True)
for n in names:
    new = "#layout_a" if n == alias else n + "_r"
    text = re.sub(re.escape(n) + r"(?![\w])", new, text)
text = re.sub(r"^#layout_a = .*$", "#layout_a = " + linear, text, count=1, flags=re.M)
sys.stdout.write(text)
