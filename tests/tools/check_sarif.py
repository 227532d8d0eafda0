#!/usr/bin/env python3
"""check_sarif.py < DOC.sarif: checks the SARIF 2.1.0 structure code-scanning
services read (version, driver and rules, results with rule ids, messages and
physical locations), and prints one line per result."""
import json
import pathlib
import re
import sys
import urllib.parse

doc = json.load(sys.stdin)
assert doc["version"] == "2.1.0", doc.get("version")
assert "sarif-2.1.0" in doc["$schema"]
assert len(doc["runs"]) == 1
run = doc["runs"][0]
driver = run["tool"]["driver"]
assert driver["name"] == "tilexform"
rules = driver["rules"]
ids = [r["id"] for r in rules]
assert len(set(ids)) == len(ids)
for r in rules:
    assert r["shortDescription"]["text"] and r["fullDescription"]["text"]
    # helpUri: an absolute file: URI of a page of the manual that has the
    # rule's anchor.
    uri = urllib.parse.urlparse(r["helpUri"])
    assert uri.scheme == "file" and uri.path.startswith("/") and uri.fragment, r["helpUri"]
    page = pathlib.Path(urllib.parse.unquote(uri.path))
    assert page.is_file(), r["helpUri"]
    assert re.search(r'id="%s"' % re.escape(uri.fragment), page.read_text()), r["helpUri"]
for res in run["results"]:
    assert res["ruleId"] in ids, res["ruleId"]
    assert ids[res["ruleIndex"]] == res["ruleId"]
    assert res["level"] in ("warning", "error", "note")
    assert res["message"]["text"]
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"]
    assert loc["region"]["startLine"] >= 1 and loc["region"]["startColumn"] >= 1
    print(f'{res["ruleId"]} {loc["artifactLocation"]["uri"].rsplit("/", 1)[-1]}:{loc["region"]["startLine"]}')
for n in run["invocations"][0]["toolExecutionNotifications"]:
    print("notification", n["level"], n["message"]["text"].split(": error: ")[-1])
print("sarif ok:", len(run["results"]), "results,", len(rules), "rules")
