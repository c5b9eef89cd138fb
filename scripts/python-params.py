"""Writes the Python client's query parameters (clients/python/src/wallpaper_catalogue/params.py) as
TypedDicts, one per operation, from openapi/openapi.json: what `**params` of the client's methods
takes, so a type checker catches a misspelt filter or a value of the wrong kind. The schemas the
parameters use come from models.py (scripts/python-models.sh, which runs this too and checks both).

Usage: python3 scripts/python-params.py OUTPUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# The operations the client takes `**params` for, and the parameters its methods take by name
# instead (a search's q, the feed's cursor): a TypedDict that held them too would clash with them.
OPERATIONS = {
    "listWallpapers": ("ListParams", ()),
    "searchWallpapers": ("SearchParams", ("q",)),
    "getSimilarWallpapers": ("SimilarParams", ()),
    "listChanges": ("ChangesParams", ("cursor",)),
}
SCALARS = {"integer": "int", "string": "str", "boolean": "bool", "number": "float"}


def resolve(document: dict[str, Any], ref: str) -> dict[str, Any]:
    node: Any = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return dict(node)


def python_type(schema: dict[str, Any], models: set[str]) -> str:
    """A value's type: a schema models.py names is used by that name; a list is any iterable of its
    items, or one of them alone (the client joins lists with commas). A mapping is an iterable to a
    type checker, though the client sends it as one value: typing cannot say "but not a mapping"."""
    if "$ref" in schema:
        name = str(schema["$ref"]).split("/")[-1]
        if name not in models:
            raise SystemExit(f"python-params: {name} is not in models.py")
        return name
    if schema.get("type") == "array":
        # None in a list is left out, as the client has always read it.
        item = python_type(schema["items"], models)
        return f"{item} | Iterable[{item} | None]"
    if "enum" in schema:
        return "Literal[" + ", ".join(json.dumps(value) for value in schema["enum"]) + "]"
    return SCALARS[str(schema["type"])]


# Parameters that these operations take alike, held once in a class both derive from.
SHARED = ("Filters", ("listWallpapers", "searchWallpapers"))


def fields_of(document: dict[str, Any], operation: dict[str, Any], by_name: tuple[str, ...], models: set[str]) -> dict[str, str]:
    """Each query parameter's name and its type, in the contract's order."""
    fields: dict[str, str] = {}
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            parameter = resolve(document, parameter["$ref"])
        if parameter["in"] == "query" and parameter["name"] not in by_name:
            # None is left out of the query, as the client has always read it.
            fields[parameter["name"]] = f"{python_type(parameter['schema'], models)} | None"
    return fields


def typed_dict(name: str, base: str, doc: str, fields: dict[str, str]) -> str:
    return "\n".join([f"class {name}({base}, total=False):", f'    """{doc}"""', "", *(f"    {field}: {kind}" for field, kind in fields.items())])


def render(document: dict[str, Any], models: set[str]) -> str:
    operations = {op["operationId"]: op for path in document["paths"].values() for op in path.values() if isinstance(op, dict) and "operationId" in op}
    fields = {operation_id: fields_of(document, operations[operation_id], by_name, models) for operation_id, (_name, by_name) in OPERATIONS.items()}
    shared_name, sharing = SHARED
    first, *others = (fields[operation_id] for operation_id in sharing)
    shared = {field: kind for field, kind in first.items() if all(other.get(field) == kind for other in others)}
    classes = [typed_dict(shared_name, "TypedDict", f"The query parameters {' and '.join(sharing)} take alike.", shared)]
    for operation_id, (name, by_name) in OPERATIONS.items():
        base = shared_name if operation_id in sharing else "TypedDict"
        own = {field: kind for field, kind in fields[operation_id].items() if base == "TypedDict" or field not in shared}
        but = f", but {', '.join(by_name)}" if by_name else ""
        classes.append(typed_dict(name, base, f"The query parameters of {operation_id}{but}.", own))
    words = {word for kinds in fields.values() for kind in kinds.values() for word in kind.replace("[", " ").replace("]", " ").replace("|", " ").split()}
    used = sorted(models & words)
    imports = f"from .models import {', '.join(used)}\n" if used else ""
    names = [shared_name, *(name for name, _ in OPERATIONS.values())]
    return (
        '"""The query parameters of the API\'s operations as TypedDicts, generated from openapi/openapi.json by\n'
        'scripts/python-params.py: do not edit."""\n\n'
        "from __future__ import annotations\n\n"
        "from collections.abc import Iterable\n"
        "from typing import Literal\n\n"
        "from typing_extensions import TypedDict\n\n"
        f"{imports}\n\n" + "\n\n\n".join(classes) + "\n\n\n__all__ = [" + ", ".join(json.dumps(name) for name in names) + "]\n"
    )


def main() -> None:
    document = json.loads((ROOT / "openapi/openapi.json").read_text())
    models_source = (ROOT / "clients/python/src/wallpaper_catalogue/models.py").read_text()
    models = {line.split(":")[0].split("(")[0].replace("class ", "").strip() for line in models_source.splitlines() if line and not line[0].isspace()}
    Path(sys.argv[1]).write_text(render(document, {name for name in models if name.isidentifier()}))


if __name__ == "__main__":
    main()
