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
doc = json.load(sys.stdin)
try:
    # jsonschema >= 4.18 resolves references through `referencing`.
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        [(sid, Resource.from_contents(s)) for sid, s in store.items()])
    jsonschema.Draft202012Validator(schema, registry=registry).validate(doc)
except ImportError:
    resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
    jsonschema.Draft202012Validator(schema, resolver=resolver).validate(doc)
print("valid", schema["$id"])
