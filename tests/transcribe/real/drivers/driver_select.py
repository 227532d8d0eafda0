"""Which ops a driver runs: DRIVER_OPS=a,b runs only those, DRIVER_SKIP=a,b
leaves them out (a kernel that faults on the device can be checked in a
process of its own). The harness puts the drivers' folder on sys.path."""
import os


def selected(name):
    only = [x for x in os.environ.get("DRIVER_OPS", "").split(",") if x]
    skip = [x for x in os.environ.get("DRIVER_SKIP", "").split(",") if x]
    base = name.split("/")[0]
    return (not only or base in only) and base not in skip
