#!/usr/bin/env python3
"""validate_json.py SCHEMA.json < DOCUMENT.json: validates a tilexform JSON
document against its schema (local $refs resolved from the schema folder).
`validator(SCHEMA)` gives the same check to other tools."""
import json
import pathlib
import sys

import jsonschema


def validator(schema_path):
    schema_path = pathlib.Path(schema_path)
    store = {}
    for p in schema_path.parent.glob("*.schema.json"):
        s = json.loads(p.read_text())
        store[s["$id"]] = s
    schema = json.loads(schema_path.read_text())
    try:
        # jsonschema >= 4.18 resolves references through `referencing`.
        from referencing import Registry, Resource

        registry = Registry().with_resources(
            [(sid, Resource.from_contents(s)) for sid, s in store.items()])
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


if __name__ == "__main__":
    v = validator(sys.argv[1])
    v.validate(json.load(sys.stdin))
    print("valid", v.schema["$id"])
