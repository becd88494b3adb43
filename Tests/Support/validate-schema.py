#!/usr/bin/python3
"""Checks JSON files against a JSON Schema (draft 2020-12) with Debian's python3-jsonschema, a
validator that shares no code with ours. Prints FILE: PATH: MESSAGE for each error; exit status 1
when a file is invalid, 2 when the schema itself is not a valid schema.
Usage: validate-schema.py SCHEMA FILE..."""
import json, sys
from jsonschema import Draft202012Validator, SchemaError

with open(sys.argv[1]) as f:
    schema = json.load(f)
try:
    Draft202012Validator.check_schema(schema)
except SchemaError as e:
    print(f"{sys.argv[1]}: not a valid schema: {e.message}")
    sys.exit(2)
validator = Draft202012Validator(schema)
invalid = False
for name in sys.argv[2:]:
    with open(name) as f:
        document = json.load(f)
    for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.path))):
        print(f"{name}: {'.'.join(map(str, error.path))}: {error.message}")
        invalid = True
sys.exit(1 if invalid else 0)
