#!/usr/bin/env python3
"""Prints `name attr` for each layout of an `inspect --json` document (stdin)."""
import json
import sys

for layout in json.load(sys.stdin)["layouts"]:
    print(layout["name"], layout["attr"])
