#!/usr/bin/env python3
"""validate_json.py SCHEMA.json < DOCUMENT.json: validates a tilexform JSON
document against its schema (local $refs resolved from the schema folder)."""
import json
import pathlib
import sys

import jsonschema

schema_path = pathlib.Path(sys.argv[1])
store = {}
for p in schema_path.parent.glob("*.schema.json"):
    s = json.loads(p.read_text())
    store[s["$id"]] = s
schema = json.loads(schema_path.read_text())
resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
doc = json.load(sys.stdin)
jsonschema.Draft202012Validator(schema, resolver=resolver).validate(doc)
print("valid", schema["$id"])
