# The JSON Schemas of every `--json` output and every deal record (docs/schemas/, listed in
# docs/schemas.md): find an output's schema by the name it carries, and validate it. A
# schema's name is "tapis.<what>/<version>"; its file is docs/schemas/tapis.<what>-<version>.json.
# A deal record names its schema by a number (its "schema": 2, which byte-identical records
# keep): it is "tapis.record/2". The tests use this (tests/host/test_schemas.py); no command
# validates at run time, so the jsonschema package is a development dependency only.
import json
import re
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "docs" / "schemas"
NAME = re.compile(r"^tapis\.[a-z][a-z0-9_.]*/[0-9]+$")
RECORD = "tapis.record"  # the deal records' schema name, before the version


class SchemaError(ValueError):
    """An output that names no schema, names one there is no file for, or breaks its schema."""


def file_of(name):
    """The file of the schema called `name` ("tapis.eval.piquet/2")."""
    if not NAME.match(name):
        raise SchemaError("%r is not a schema name (tapis.<what>/<version>)" % (name,))
    base, version = name.rsplit("/", 1)
    return HERE / ("%s-%s.json" % (base, version))


def name_of_file(path):
    """file_of, undone: the schema name a file in docs/schemas/ holds."""
    base, version = Path(path).stem.rsplit("-", 1)
    return "%s/%s" % (base, version)


def names():
    """Every schema name with a file, sorted."""
    return sorted(name_of_file(p) for p in HERE.glob("tapis.*.json"))


def name_of(output):
    """The schema name an output carries: its "schema" string, or for a deal record (an
    object with a "game", its "schema" a number) tapis.record/N."""
    if not isinstance(output, dict) or "schema" not in output:
        raise SchemaError("the output carries no schema name: %.200r" % (output,))
    s = output["schema"]
    if isinstance(s, int) and not isinstance(s, bool) and "game" in output:
        return "%s/%d" % (RECORD, s)
    if isinstance(s, str):
        return s
    raise SchemaError("the output's schema %r is not a schema name" % (s,))


@lru_cache(maxsize=None)
def load(name):
    """The schema called `name`, as a dict (SchemaError if there is no file for it)."""
    path = file_of(name)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SchemaError("no schema file for %s (docs/schemas/%s)" % (name, path.name)) from None


@lru_cache(maxsize=None)
def validator(name, part=None):
    """A Draft 2020-12 validator of the schema `name`, or of its $defs `part` (a capture's
    lines after the header: validator("tapis.shoe.capture/1", "read"))."""
    from jsonschema import Draft202012Validator

    schema = load(name)
    if part is not None:
        schema = dict(schema["$defs"][part], **{"$defs": schema.get("$defs", {})})
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def errors(output, name=None, part=None):
    """What is wrong with `output` under its schema (or `name`), as readable lines; [] if nothing."""
    name = name or name_of(output)
    found = sorted(validator(name, part).iter_errors(output), key=lambda e: list(e.absolute_path))
    return ["%s at /%s: %s" % (name, "/".join(str(p) for p in e.absolute_path), e.message) for e in found]


def validate(output, name=None, part=None):
    """The output's schema name, once `output` is valid under it (SchemaError saying what is not)."""
    name = name or name_of(output)
    wrong = errors(output, name, part)
    if wrong:
        raise SchemaError("; ".join(wrong[:5]) + ("" if len(wrong) <= 5 else " (and %d more)" % (len(wrong) - 5)))
    return name


def validate_lines(text):
    """Validate every line of a command's JSON-lines output; the names, in order. Strict
    JSON (RFC 8259): NaN and Infinity, which Python's json writes and other parsers refuse,
    are an error."""
    return [validate(json.loads(line, parse_constant=_not_json)) for line in text.splitlines() if line.strip()]


def _not_json(constant):
    raise ValueError("not JSON: %s (RFC 8259 has no NaN or Infinity)" % constant)
