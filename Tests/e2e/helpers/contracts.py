"""docs/openapi.yaml and docs/asyncapi.yaml as validators of real traffic.

Both documents are loaded into one `referencing` registry under file-like URIs, so the AsyncAPI
document's `openapi.yaml#/components/schemas/...` references resolve as a tool reading the docs
folder would resolve them. Schemas are JSON Schema 2020-12 (OpenAPI 3.1's dialect; AsyncAPI 3
takes it as a schema format).
"""
import json
import re
from functools import lru_cache

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .cli import REPO

DOCS = REPO / "docs"
BASE = "https://live-draw.invalid/docs/"


@lru_cache(maxsize=None)
def load(name: str) -> dict:
    return yaml.safe_load((DOCS / name).read_text())


@lru_cache(maxsize=None)
def _registry() -> Registry:
    resources = [(BASE + name, Resource.from_contents(load(name), default_specification=DRAFT202012))
                 for name in ("openapi.yaml", "asyncapi.yaml")]
    return Registry().with_resources(resources)


def validator(document: str, pointer: str) -> Draft202012Validator:
    """A validator for the schema at `pointer` (e.g. `#/components/schemas/Error`) of `document`."""
    return Draft202012Validator({"$ref": BASE + document + pointer}, registry=_registry())


def errors(document: str, pointer: str, instance) -> list[str]:
    """Why `instance` does not match (the most relevant error of each, not the whole value)."""
    out = []
    for e in validator(document, pointer).iter_errors(instance):
        deepest = best_match([e])
        if deepest.context:
            deepest = best_match(deepest.context)
        where = "/".join(map(str, deepest.absolute_path)) or "<root>"
        out.append(f"{where}: {deepest.message[:200]}")
    return out


# -- OpenAPI ----------------------------------------------------------------------------------

def operations() -> set[tuple[str, str]]:
    """Every (METHOD, path template) of openapi.yaml."""
    return {(method.upper(), path) for path, item in load("openapi.yaml")["paths"].items()
            for method in item if method in ("get", "post", "put", "delete", "patch")}


def template_of(path: str) -> str:
    """The openapi.yaml path template a concrete request path falls under (query dropped)."""
    path = path.split("?")[0]
    for template in load("openapi.yaml")["paths"]:
        pattern = "/".join("[^/]+" if seg.startswith("{") else re.escape(seg) for seg in template.split("/"))
        if re.fullmatch(pattern, path):
            return template
    raise AssertionError(f"{path} is not in docs/openapi.yaml")


def response_errors(method: str, path: str, status: int, content_type: str, body: bytes) -> list[str]:
    """Why the response does not match openapi.yaml ([] when it does)."""
    template = template_of(path)
    operation = load("openapi.yaml")["paths"][template].get(method.lower())
    assert operation is not None, f"{method} {template} is not in docs/openapi.yaml"
    responses = operation["responses"]
    if str(status) not in responses:
        return [f"{method} {template}: status {status} is not documented ({sorted(responses)})"]
    response = responses[str(status)]
    pointer = f"#/paths/{_escape(template)}/{method.lower()}/responses/{status}"
    if "$ref" in response:
        pointer = response["$ref"]
        response = _resolve(pointer)
    content = response.get("content")
    if not content:
        return [] if not body else [f"{method} {template} {status}: a body where none is documented"]
    media = content_type.split(";")[0].strip()
    if media not in content:
        return [f"{method} {template} {status}: content type {media} is not documented ({list(content)})"]
    if media != "application/json":
        return []
    return errors("openapi.yaml", f"{pointer}/content/application~1json/schema", json.loads(body))


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _resolve(pointer: str):
    node = load("openapi.yaml")
    for part in pointer.lstrip("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


# -- AsyncAPI ---------------------------------------------------------------------------------

def message_payloads() -> dict:
    """Message name (its `type`) → the pointer of its payload schema."""
    messages = load("asyncapi.yaml")["components"]["messages"]
    return {name: m["payload"]["$ref"] for name, m in messages.items()}


def operation_messages(action: str) -> set[str]:
    """The message names of the `receive` (server → client) or `send` operations."""
    names = set()
    for op in load("asyncapi.yaml")["operations"].values():
        if op["action"] == action:
            names |= {m["$ref"].rsplit("/", 1)[1] for m in op["messages"]}
    return names


def message_errors(message: dict) -> list[str]:
    payloads = message_payloads()
    kind = message.get("type")
    if kind not in payloads:
        return [f"message type {kind!r} is not in docs/asyncapi.yaml"]
    return [f"{kind}: {e}" for e in errors("asyncapi.yaml", payloads[kind], message)]


def close_codes() -> set[int]:
    return {c["code"] for c in load("asyncapi.yaml")["channels"]["room"]["x-close-codes"]}
