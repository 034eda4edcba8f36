#!/usr/bin/env python3
"""Validate recipes (YAML) or cue sheets (JSON) against a JSON Schema (draft 2020-12).

usage: scripts/validate-schema.py SCHEMA FILE...

    scripts/validate-schema.py schema/recipe.schema.json recipes/*/*.yml
    scripts/validate-schema.py schema/cues.schema.json dist/*.cues.json

Prints `FILE: ok`, or one `FILE: <json path>: <message>` line per problem.
Exit status: 0 every file is valid, 1 some file is invalid (or not readable
as YAML/JSON), 2 usage error, a schema that is not a valid draft 2020-12
schema, a file that cannot be opened, or python3-jsonschema/python3-yaml missing.

Files ending in .json are read as JSON; anything else as YAML, the way the
renderer reads recipes: only `true`/`false` are booleans (`yes`, `on`, `off`
stay text), only plain decimals are numbers (`05:00`, `1:02:03.5`, `1e3`,
`0x10`, `.inf` stay text), integers are whole numbers without a point
(`48000.0` is not a sample rate), and duplicate keys, null keys and `<<`
merges are errors, not silently resolved.
"""

import difflib
import json
import re
import sys

USAGE = "usage: validate-schema.py SCHEMA FILE..."

try:
    import jsonschema
    import yaml
    from jsonschema import Draft202012Validator
except ImportError as problem:  # pragma: no cover - depends on the machine
    print(f"validate-schema.py: {problem} (install python3-jsonschema and python3-yaml)", file=sys.stderr)
    sys.exit(2)


class LoadError(Exception):
    """A file that is not readable as YAML or JSON (an invalid file, exit 1)."""


# MARK: - YAML as the renderer reads it


class RecipeYAMLLoader(yaml.SafeLoader):
    """A SafeLoader that types plain scalars like the renderer (recipe-v1), not like YAML 1.1.

    PyYAML's SafeLoader follows YAML 1.1: `05:00` is the sexagesimal int 300,
    `1:02:03.5` a float, `off`/`yes` booleans, `010` octal. The renderer reads
    every scalar as its text; here only plain scalars it reads as numbers or
    booleans get those types: `true`/`false`, `-?digits` and `-?digits.digits`.
    Everything else stays the text it is (`05:00`, `1e3`, `.5`, `+5`, `0x10`,
    `.inf`), and so do `016` and `-0`, which a number would misrepresent (the
    renderer rejects `bit_depth: 016` and `intro: -0`). Editors that read YAML 1.2
    differ only in such corners.
    """

    yaml_implicit_resolvers = {}


RecipeYAMLLoader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), None)
RecipeYAMLLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), None)
RecipeYAMLLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^-?[0-9]+$"), None)
RecipeYAMLLoader.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(r"^-?[0-9]+\.[0-9]*$"), None)


def _construct_int(loader, node):
    text = loader.construct_scalar(node)
    if re.match(r"^-?0[0-9]", text) or re.match(r"^-0+$", text):
        return text  # `016` is not the bit depth 16, and `-0` is a negative length: keep the text
    try:
        return int(text, 10)
    except ValueError:
        raise yaml.constructor.ConstructorError(None, None, f"not a whole number: {text!r}", node.start_mark)


def _construct_float(loader, node):
    text = loader.construct_scalar(node)
    try:
        value = float(text)
    except ValueError:
        raise yaml.constructor.ConstructorError(None, None, f"not a number: {text!r}", node.start_mark)
    return text if value == 0 and text.startswith("-") else value  # `-0.0` is a negative length


def _construct_bool(loader, node):
    return loader.construct_scalar(node) == "true"


def _construct_mapping(loader, node, deep=False):
    """A mapping keyed by each key's text as written; null, non-scalar and repeated keys are errors."""
    if not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(None, None, f"expected a mapping, found {node.id}", node.start_mark)
    mapping = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:null":
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, "keys must be words", key_node.start_mark
            )
        key = key_node.value
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, f"duplicate key {key!r}", key_node.start_mark
            )
        mapping[key] = loader.construct_object(value_node, deep=deep)
    return mapping


RecipeYAMLLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
RecipeYAMLLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)
RecipeYAMLLoader.add_constructor("tag:yaml.org,2002:bool", _construct_bool)
RecipeYAMLLoader.construct_mapping = _construct_mapping


def load_yaml(text):
    try:
        return yaml.load(text, Loader=RecipeYAMLLoader)
    except yaml.MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise LoadError(f"YAML: {problem.problem or problem.context}{where}")
    except yaml.YAMLError as problem:
        raise LoadError(f"YAML: {problem}")


# MARK: - JSON, strictly


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _unique_pairs(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def load_json(text):
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_pairs)
    except ValueError as problem:
        raise LoadError(f"JSON: {problem}")


# MARK: - Validation


def _is_integer(checker, instance):
    # Draft 2020-12 counts 48000.0 as an integer; the renderer reads `48000.0` as text that
    # is not a whole number, and the cue sheet writes frames without a point. Be as strict.
    return isinstance(instance, int) and not isinstance(instance, bool)


StrictValidator = jsonschema.validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def shown(value):
    """A value as the author wrote it (JSON spelling)."""
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return json.dumps(value, ensure_ascii=False)


def spelled(value):
    """An enum or const member as a recipe spells it."""
    return value if isinstance(value, str) else json.dumps(value)


# Failing one of these on the value itself means the value is not of that branch's kind at all.
MISMATCH = {"type", "const", "enum", "pattern", "minProperties", "maxProperties", "propertyNames"}


def fits(errors):
    """True when a branch of anyOf/oneOf failed only on details, not on the kind of value."""
    return not any(not e.relative_path and e.validator in MISMATCH for e in errors)


def branch_name(errors):
    schema = errors[0].schema if isinstance(errors[0].schema, dict) else {}
    if "title" in schema:
        return schema["title"]
    if "const" in schema:
        return spelled(schema["const"])
    if "enum" in schema:
        return ", ".join(dict.fromkeys(spelled(v) for v in schema["enum"]))
    return errors[0].message


def problems(error):
    """(json path, message) pairs for one validation error, in the words of the renderer's messages."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    found = shown(error.instance)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = list(schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key in known:
                continue
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (allowed: {', '.join(known)})"
            out.append((error.json_path, f"unknown key {key!r}{hint}"))
        if out:
            return out
    if "title" in schema and (error.validator == "not" or not isinstance(error.instance, (dict, list))):
        return [(error.json_path, f"expected {schema['title']}, found {found}")]
    if error.validator in ("anyOf", "oneOf"):
        branches = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        if all(set(b) == {"required"} for b in error.validator_value):
            # keys that must be there: one of them (oneOf), or any of them (anyOf)
            names = [b["required"][0] for b in error.validator_value]
            given = [n for n in names if isinstance(error.instance, dict) and n in error.instance]
            listed = " or ".join(repr(n) for n in names)
            if error.validator == "oneOf":
                return [(error.json_path, f"expected either {listed}, found {'both' if given else 'neither'}")]
            either = ", ".join(repr(n) for n in names[:-1]) + f" or {names[-1]!r}" if len(names) > 1 else listed
            return [(error.json_path, f"expected {either}, or {'both' if len(names) == 2 else 'several'}, found neither")]
        for index in sorted(branches):
            if fits(branches[index]):
                return [p for sub in branches[index] for p in problems(sub)]
        if not branches:  # oneOf: more than one branch matched
            return [(error.json_path, error.message)]
        if "title" in schema:
            return [(error.json_path, f"expected {schema['title']}, found {found}")]
        names = [branch_name(branches[i]) for i in sorted(branches)]
        return [(error.json_path, f"expected {' or '.join(names)}, found {found}")]
    if error.validator == "enum":
        values = ", ".join(dict.fromkeys(spelled(v) for v in error.validator_value))
        return [(error.json_path, f"expected one of {values}, found {found}")]
    return [(error.json_path, error.message)]


def validate(validator, path):
    """Prints the file's verdict; returns 0 valid, 1 invalid, 2 unreadable."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as problem:
        print(f"{path}: cannot read: {problem.strerror or problem}")
        return 2
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        print(f"{path}: $: not UTF-8 text: {problem}")
        return 1
    try:
        document = load_json(text) if path.endswith(".json") else load_yaml(text)
    except LoadError as problem:
        print(f"{path}: $: {problem}")
        return 1
    lines = []
    for error in validator.iter_errors(document):
        lines.extend(problems(error))
    if not lines:
        print(f"{path}: ok")
        return 0
    for where, message in sorted(set(lines)):
        print(f"{path}: {where}: {message}")
    return 1


def main(argv):
    if len(argv) >= 1 and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    schema_path, files = argv[0], argv[1:]
    try:
        with open(schema_path, encoding="utf-8") as handle:
            schema = json.load(handle)
    except (OSError, ValueError) as problem:
        print(f"{schema_path}: cannot read the schema: {problem}", file=sys.stderr)
        return 2
    try:
        Draft202012Validator.check_schema(schema)
    except jsonschema.exceptions.SchemaError as problem:
        print(f"{schema_path}: {problem.json_path}: not a valid draft 2020-12 schema: {problem.message}", file=sys.stderr)
        return 2
    validator = StrictValidator(schema)
    worst = 0
    for path in files:
        worst = max(worst, validate(validator, path))
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
