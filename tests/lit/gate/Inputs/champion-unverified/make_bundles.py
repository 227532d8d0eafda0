"""Writes variants of a good champion bundle into a directory: samples_ms of
every JSON type but a list, a config without constexprs, another kernel."""
import copy
import json
import sys

good = json.load(open(sys.argv[1]))
out = sys.argv[2]


def write(name, bundle):
    with open(f"{out}/{name}.json", "w") as f:
        json.dump(bundle, f, indent=1)


write("good", good)
for name, value in [("object", {}), ("string", "abc"), ("null", None), ("number", 5),
                    ("bool", True)]:
    b = copy.deepcopy(good)
    b["samples_ms"] = value
    write(f"samples-{name}", b)
b = copy.deepcopy(good)
del b["config"]["constexprs"]
write("no-constexprs", b)
b = copy.deepcopy(good)
b["kernel"] = "softmax"
write("other-kernel", b)
