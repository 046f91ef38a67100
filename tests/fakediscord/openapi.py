"""Discord's own description of its HTTP API, as the referee of every REST request the bot sends.

Discord publishes the v10 HTTP API as an OpenAPI 3.1 document; a copy lives in ``spec/`` beside
this module (see ``spec/README.md`` for where it came from and how to update it). The fake
server asks :func:`api` about each request before it handles it:

* the route: is ``METHOD /path`` (without the ``/api/v10`` prefix) an operation of the
  document? A path no template matches is ``undocumented_route``; a path that matches but not
  with this method is ``undocumented_method``;
* the path and query parameters, against their schemas (a ``None`` where a snowflake belongs,
  a query flag Discord does not know);
* the body: a JSON body, or the ``payload_json`` part of a ``multipart/form-data`` upload (the
  document describes a multipart body as the JSON schema's fields plus ``files[n]`` parts, so
  the JSON part is validated against the operation's ``application/json`` schema and the other
  parts must be ``files[0]`` to ``files[9]``); a body that does not parse is ``invalid_json``,
  one the schema refuses is ``schema_violation``.

OpenAPI 3.1 schemas are JSON Schema 2020-12, so the ``jsonschema`` library validates them; every
``$ref`` (``#/components/schemas/...``) resolves through a ``referencing`` registry holding the
whole document. The document is parsed and prepared once per process, on first use (about
70 ms of CPU), and a validator is compiled once per operation and kept.

Preparing it makes validation fast and its messages precise without changing what is accepted
(each rewrite is applied only where it is an exact equivalent):

* a ``oneOf`` whose branches are all ``{"const": ...}`` (how the document spells an enum such
  as ``ButtonStyleTypes``) becomes an ``enum``;
* ``oneOf: [{"type": "null"}, X]`` (a nullable object) becomes ``x-fake-nullable: X``;
* a ``oneOf``/``anyOf`` of object schemas that each require ``type`` with their own disjoint
  values (components, interaction callbacks) becomes ``x-fake-by-type``: the branch named by
  the instance's ``type`` is the only one checked;
* each ``$ref`` is resolved through the registry once, when the document is prepared, rather
  than looked up again at every use; an ``allOf`` that only repeats an ``enum`` is dropped;
* each object schema a ``$ref`` names (an embed, a button, an action row) is wrapped in
  ``x-fake-valid-once``: an object it accepted is accepted again by its JSON text, without a
  second look (a bot sends the same rows and fields inside bodies that differ); errors are
  never kept;
* routes are found through a tree of path segments (a literal before a parameter).

Without this, ``oneOf`` validates every branch of every component and its error is "not valid
under any of the given schemas". Measured (CPU time, this 2-core machine): a plain message
0.12 ms instead of 0.55; a hand view (an embed with four fields, four rows of buttons) 1.1 ms
instead of 9.7; the largest message the bot could send (5 rows, 25 options, an embed) 4 ms
instead of 28. A body text already checked is not checked again (2 us): a bot re-sends many
identical bodies (a third of them in ``tests/e2e/test_games.py``).

What it costs the tests, per request, as they run (``benchmarks/bench_spec_validation.py``:
the requests of two whole 4-seat matches, 796 of them, on the thread's CPU clock, this shared
2-core machine at load 16-18): route 0.065 ms, checks (the document and the limits) 1.2 ms,
median; 1.3 s in all, 14.5% of the process's CPU over the matches. The same requests replayed
against a fresh document with nothing kept: 0.35 ms each (median), loading it 94 ms.

What Discord accepts beyond the document is listed in :data:`DEVIATIONS`, the one place for
them: each widens one schema at one JSON pointer, and says why.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import relevance
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_DIR = Path(__file__).resolve().with_name("spec")
DOCUMENT_PATH = SPEC_DIR / "openapi.json"
#: The name the document is registered under (a name only: nothing is fetched from it).
DOCUMENT_URI = "urn:discord-api-spec:openapi.json"
#: The API version the document describes; the bot's requests go to ``/api/v10/...``.
API_VERSION = "10"

# Violation kinds (``Violation.kind``) this module reports.
UNDOCUMENTED_ROUTE = "undocumented_route"
UNDOCUMENTED_METHOD = "undocumented_method"
INVALID_JSON = "invalid_json"
SCHEMA_VIOLATION = "schema_violation"

JSON = "application/json"
MULTIPART = "multipart/form-data"
#: Discord's "Uploading Files": up to 10 files per message, as parts named ``files[n]``.
FILE_PARTS = frozenset(f"files[{n}]" for n in range(10))
#: Discord's "Boolean Query Strings": ``True``/``true``/``1`` and ``False``/``false``/``0``
#: (discord.py sends ``int(flag)`` for some, ``"true"`` for others).
QUERY_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}
#: How many verdicts on body texts (and on parameter values) are remembered, then forgotten
#: all at once.
CHECKED_BODIES = 4096


@dataclass(frozen=True)
class Deviation:
    """Something Discord accepts that the document refuses, at one place of the document.

    ``where`` is a JSON pointer into the document (a property's schema, an array's items);
    the schema there is kept, and ``also`` is accepted as well. ``why`` says where the
    difference comes from (which client sends it, which Discord page documents it).
    ``example`` is a value the document refuses there and Discord accepts, ``refused`` one
    that stays refused (`tests/test_fakediscord_spec.py` checks both, so an entry the
    document no longer needs, or one that lets too much through, shows up).
    """

    where: str
    also: Mapping[str, Any]
    why: str
    example: Any
    refused: Any


_SNOWFLAKE_INT: Mapping[str, Any] = {"type": "integer", "minimum": 0}

#: Known differences between the document and what Discord accepts, each as narrow as it can
#: be: one schema location, one extra shape. Add one only for something the real Discord is
#: known to accept, with the reason; a bot bug is fixed in the bot instead.
DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "/components/schemas/MessageAttachmentRequest/properties/id",
        _SNOWFLAKE_INT,
        "discord.py numbers new uploads by their part index (`File.to_dict(index)` sends "
        "`{'id': 0, ...}` for `files[0]`, discord/file.py) and keeps old attachments by their "
        "integer id (`Attachment.to_dict`, discord/message.py); Discord reads both as the id "
        "of a `files[n]` part or an existing attachment. The document types every id as a "
        "snowflake string.",
        example=0,
        refused=-1,
    ),
    Deviation(
        "/components/schemas/MessageAllowedMentionsRequest/properties/users/items",
        _SNOWFLAKE_INT,
        "discord.py sends `AllowedMentions(users=[...])` as integer ids "
        "(`AllowedMentions.to_dict`, discord/mentions.py); Discord reads a snowflake from an "
        "integer as from a string (its API reference, 'Snowflakes'). The bot itself only "
        "says `users=True`; the fake's self-check bot names users "
        "(tests/test_fakediscord_selfcheck.py, the allowed_mentions test).",
        example=1234567890123,
        refused="alice",
    ),
    Deviation(
        "/components/schemas/CreatePrivateChannelRequest/properties/recipient_id",
        _SNOWFLAKE_INT,
        "discord.py opens a DM with the user's integer id (`HTTPClient.start_private_message` "
        "sends `{'recipient_id': user_id}`, discord/http.py, under `User.send` / `create_dm`); "
        "Discord reads a snowflake from an integer as from a string (its API reference, "
        "'Snowflakes'). The bot DMs a tournament's players who were left out at check-in.",
        example=1234567890123,
        refused="alice",
    ),
)


@dataclass(frozen=True)
class Problem:
    """One way a request breaks the document: a violation kind and a short description."""

    kind: str
    detail: str


@dataclass(frozen=True)
class Body:
    """What a request carried, as the fake read it.

    ``media_type`` is None for no body. For JSON, ``payload`` is the parsed document; for
    multipart, ``payload`` is the parsed ``payload_json`` part (None without one) and ``parts``
    names every part in order. ``text`` is the JSON as sent (the body, or ``payload_json``):
    the same text is the same verdict, so it is checked once (a bot re-sends many bodies).
    """

    media_type: str | None = None
    payload: Any = None
    parts: tuple[str, ...] = ()
    text: str | None = None


@dataclass(frozen=True)
class Parameter:
    """A path or query parameter of an operation: where its schema is, and whether it must be
    there."""

    name: str
    location: str
    pointer: str
    required: bool
    kind: str | None  # the schema's JSON type, for turning the query string into a value


@dataclass
class Operation:
    """One method of one path template, with what the document says about its request."""

    method: str
    template: str
    operation_id: str
    pointer: str
    body_required: bool
    bodies: Mapping[str, str]  # media type -> JSON pointer of its schema
    parameters: Mapping[tuple[str, str], Parameter]  # (location, name) -> parameter
    _validators: dict[str, Validator] = field(default_factory=dict, repr=False)


def _escape(token: str) -> str:
    """One JSON pointer token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer_of(path: Sequence[str | int]) -> str:
    """The JSON pointer of an instance path (``("embeds", 0, "title")`` -> ``/embeds/0/title``)."""
    return "".join("/" + _escape(str(part)) for part in path)


def _resolve_pointer(document: Any, pointer: str) -> Any:
    node = document
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def _set_pointer(document: Any, pointer: str, value: Any) -> None:
    parent_pointer, _, last = pointer.rpartition("/")
    parent = _resolve_pointer(document, parent_pointer)
    parent[last.replace("~1", "/").replace("~0", "~")] = value


# ---------------------------------------------------------------------- schema rewrites

_NULL = {"type": "null"}
_ENUM_BRANCH_KEYS = frozenset({"const", "title", "description"})
_ENUM_KEYS = frozenset({"format", "title", "description"})
_SCHEMAS_REF = "#/components/schemas/"


def _type_values(schemas: Mapping[str, Any], branch: Any) -> list[Any] | None:
    """The ``type`` values an object schema (a ``$ref`` to a component schema) requires, or
    None if it does not pin ``type`` down."""
    if not isinstance(branch, dict) or set(branch) != {"$ref"}:
        return None
    ref = branch["$ref"]
    if not isinstance(ref, str) or not ref.startswith(_SCHEMAS_REF):
        return None
    target = schemas.get(ref[len(_SCHEMAS_REF) :])
    if not isinstance(target, dict) or "type" not in target.get("required", ()):
        return None
    prop = target.get("properties", {}).get("type", {})
    if "const" in prop:
        return [prop["const"]]
    values = prop.get("enum")
    return list(values) if isinstance(values, list) and values else None


def _rejects_null(schema: Any, schemas: Mapping[str, Any]) -> bool:
    """Does this schema (or the component it names) certainly refuse ``null``? Then
    ``oneOf: [null, it]`` is the same as "null, or else it"."""
    if not isinstance(schema, dict):
        return False
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(_SCHEMAS_REF) and len(schema) == 1:
        schema = schemas.get(ref[len(_SCHEMAS_REF) :])
        if not isinstance(schema, dict):
            return False
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind != "null"
    if isinstance(kind, list):
        return "null" not in kind
    return False


def _implied_enum(node: Mapping[str, Any], other: Any) -> bool:
    """Is ``other`` (a plain enum schema) implied by ``node``'s own ``type`` and ``enum``?"""
    if not isinstance(other, dict) or not set(other) <= _ENUM_KEYS | {"type", "enum"}:
        return False
    if "enum" not in node or "enum" not in other or node.get("type") != other.get("type"):
        return False
    return all(any(_same_value(v, w) for w in other["enum"]) for v in node["enum"])


def _rewrite(node: Any, schemas: Mapping[str, Any]) -> None:
    """Apply the module docstring's three equivalence-preserving rewrites, in place."""
    if isinstance(node, list):
        for item in node:
            _rewrite(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _rewrite(value, schemas)
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        if keyword == "oneOf" and all(
            isinstance(b, dict) and "const" in b and set(b) <= _ENUM_BRANCH_KEYS for b in branches
        ):
            values = [b["const"] for b in branches]
            if len({json.dumps(v) for v in values}) == len(values) and "enum" not in node:
                del node[keyword]
                node["enum"] = values
            continue
        if keyword == "oneOf" and len(branches) == 2 and _NULL in branches:
            other = branches[1] if branches[0] == _NULL else branches[0]
            if _rejects_null(other, schemas):
                del node[keyword]
                node["x-fake-nullable"] = other
            continue
        nullable = _NULL in branches
        objects = [b for b in branches if b != _NULL]
        typed = [(_type_values(schemas, b), b) for b in objects]
        values = [v for vs, _ in typed if vs is not None for v in vs]
        if len(objects) < 2 or any(vs is None for vs, _ in typed):
            continue
        if len({json.dumps(v) for v in values}) != len(values):
            continue  # overlapping branches: oneOf/anyOf semantics differ, keep the original
        del node[keyword]
        node["x-fake-by-type"] = {
            "nullable": nullable,
            "branches": [{"values": vs, "schema": b} for vs, b in typed],
        }


# ---------------------------------------------------------------------- custom keywords


def _same_value(a: Any, b: Any) -> bool:
    """JSON equality (``True`` is not ``1``)."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def _by_type(
    validator: Validator, spec: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if instance is None and spec["nullable"]:
        return
    if not isinstance(instance, dict):
        kinds = "'object', 'null'" if spec["nullable"] else "'object'"
        yield ValidationError(f"{_short(instance)} is not of type {kinds}")
        return
    if "type" not in instance:
        yield ValidationError("'type' is a required property")
        return
    value = instance["type"]
    for index, branch in enumerate(spec["branches"]):
        if any(_same_value(value, v) for v in branch["values"]):
            yield from validator.descend(instance, branch["schema"], schema_path=index)
            return
    known = [v for branch in spec["branches"] for v in branch["values"]]
    yield ValidationError(f"{value!r} is not one of {known}", path=["type"])


def _nullable(
    validator: Validator, inner: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if instance is not None:
        yield from validator.descend(instance, inner)


def _deviation(
    validator: Validator, spec: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """The documented schema, or else the deviation's extra shape; errors are the document's."""
    errors = list(validator.descend(instance, spec["documented"]))
    if errors and next(validator.descend(instance, spec["also"]), None) is not None:
        yield from errors


_VALID_ONCE = "x-fake-valid-once"


def _valid_once(
    validator: Validator, memo: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """A component schema (an embed, a button, an action row...), checked once per object:
    the JSON text of each object it accepted is remembered, and the same text again is
    accepted at once. A bot sends the same parts over and over (a hand view's rows of
    buttons, the table's controls, an embed's unchanged fields) inside bodies that differ.
    Exact: a JSON text is one value, and the document has no keyword (``unevaluated*``,
    ``$dynamicRef``) whose outcome depends on where a schema is used. Errors are never
    remembered: a refused object is checked again, so its errors are the schema's own."""
    inner = memo["schema"]
    if not isinstance(instance, dict):
        yield from validator.descend(instance, inner)
        return
    try:
        key: str | None = json.dumps(instance, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        key = None
    valid: set[str] = memo["valid"]
    if key is not None and key in valid:
        return
    errors = list(validator.descend(instance, inner))
    if not errors and key is not None:
        if len(valid) >= CHECKED_BODIES:
            valid.clear()
        valid.add(key)
    yield from errors


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def most_relevant(errors: Iterator[ValidationError]) -> ValidationError | None:
    """The error to report: jsonschema's ``best_match`` heuristic (the shallowest error of
    the instance, then the deepest inside an ``anyOf``/``oneOf``), except that inside a union
    it keeps to the branch with the fewest errors and always descends. ``best_match`` stops at
    "is not valid under any of the given schemas" when branches fail alike (a followup may be
    either of two webhook schemas sharing their fields), and may pick a branch that fails
    everywhere (26 autocomplete choices read as integer choices: 26 type errors) over the one
    that fails once, for the one reason that matters (``choices``: 26 items)."""
    best = max(errors, key=relevance, default=None)
    while best is not None and best.context:
        branches: dict[Any, list[ValidationError]] = {}
        for error in best.context:
            branch = error.relative_schema_path[0] if error.relative_schema_path else None
            branches.setdefault(branch, []).append(error)
        best = min(min(branches.values(), key=len), key=relevance)
    return best


def describe(error: ValidationError) -> str:
    """``/pointer: message`` for the most relevant error, with sizes instead of long reprs."""
    where = pointer_of(list(error.absolute_path)) or "/"
    keyword, value, instance = error.validator, error.validator_value, error.instance
    if keyword in ("maxLength", "minLength") and isinstance(instance, str):
        bound = "at most" if keyword == "maxLength" else "at least"
        message = f"{len(instance)} characters (documented: {bound} {value})"
    elif keyword in ("maxItems", "minItems") and isinstance(instance, list):
        bound = "at most" if keyword == "maxItems" else "at least"
        message = f"{len(instance)} items (documented: {bound} {value})"
    else:
        message = error.message
        if len(message) > 200:
            message = message[:197] + "..."
    return f"{where}: {message}"


# ---------------------------------------------------------------------- the document


@dataclass
class _Node:
    """The path templates below one segment: by their next segment (None: a parameter),
    and the template ending here, if any."""

    children: dict[str | None, _Node] = field(default_factory=dict)
    template: str | None = None

    def match(self, segments: Sequence[str], at: int = 0) -> Iterator[str]:
        """The templates matching ``segments[at:]``, most specific first: at each segment
        a literal before a parameter (the order Discord's router tries them in)."""
        if at == len(segments):
            if self.template is not None:
                yield self.template
            return
        literal = self.children.get(segments[at])
        if literal is not None:
            yield from literal.match(segments, at + 1)
        parameter = self.children.get(None)
        if parameter is not None:
            yield from parameter.match(segments, at + 1)


class OpenAPI:
    """The prepared document: its operations by route, and a validator per request schema."""

    def __init__(
        self,
        document: dict[str, Any],
        deviations: Sequence[Deviation] = DEVIATIONS,
        *,
        rewrite: bool = True,
    ) -> None:
        self.document = document
        self._rewrite = rewrite
        for deviation in deviations:
            documented = _resolve_pointer(document, deviation.where)
            _set_pointer(
                document,
                deviation.where,
                {"x-fake-deviation": {"documented": documented, "also": dict(deviation.also)}},
            )
        schemas = document["components"]["schemas"]
        self._prepare(schemas, schemas)
        self.registry: Registry[Any] = Registry().with_resource(
            DOCUMENT_URI, DRAFT202012.create_resource(document)
        )
        self._resolver = self.registry.resolver(DOCUMENT_URI)
        self._targets: dict[str, Any] = {}
        self.operations: dict[str, dict[str, Operation]] = {}
        # The templates as a tree of segments (a parameter is the key None), walked literal
        # segment first: Discord's router prefers `/users/@me` to `/users/{id}`.
        self._tree: _Node = _Node()
        for template, item in document["paths"].items():
            self.operations[template] = self._operations(template, item, schemas)
            node = self._tree
            for segment in template.strip("/").split("/"):
                key = None if segment.startswith("{") else segment
                node = node.children.setdefault(key, _Node())
            node.template = template
        if rewrite:
            seen: set[int] = set()
            self._resolve_refs(schemas, seen)
            for ops in self.operations.values():
                for op in ops.values():
                    for pointer in [
                        *op.bodies.values(),
                        *(p.pointer for p in op.parameters.values()),
                    ]:
                        parent = pointer.rpartition("/")[0]
                        self._resolve_refs(_resolve_pointer(document, parent), seen)
        self._validators_at: dict[str, Validator] = {}
        self._checked: dict[tuple[str, str], list[str]] = {}
        self._checked_parameters: dict[tuple[str, str], str | None] = {}
        self.validator_class = validators.extend(
            Draft202012Validator,
            {
                "x-fake-by-type": _by_type,
                "x-fake-nullable": _nullable,
                "x-fake-deviation": _deviation,
                _VALID_ONCE: _valid_once,
            },
        )

    def _operations(
        self, template: str, item: Mapping[str, Any], schemas: Mapping[str, Any]
    ) -> dict[str, Operation]:
        escaped = _escape(template)
        shared = {(p["in"], p["name"]): p for p in item.get("parameters", ())}
        found: dict[str, Operation] = {}
        for method, op in item.items():
            if method == "parameters" or not isinstance(op, dict):
                continue
            pointer = f"/paths/{escaped}/{method}"
            params: dict[tuple[str, str], Parameter] = {}
            own = {(p["in"], p["name"]): p for p in op.get("parameters", ())}
            for key, param in {**shared, **own}.items():
                where = (
                    f"{pointer}/parameters/{list(own).index(key)}/schema"
                    if key in own
                    else f"/paths/{escaped}/parameters/{list(shared).index(key)}/schema"
                )
                self._prepare(param["schema"], schemas)
                params[key] = Parameter(
                    name=key[1],
                    location=key[0],
                    pointer=where,
                    required=bool(param.get("required")),
                    kind=self._json_type(param["schema"], schemas),
                )
            body = op.get("requestBody") or {}
            content = body.get("content") or {}
            for media in content.values():
                self._prepare(media.get("schema"), schemas)
            found[method.upper()] = Operation(
                method=method.upper(),
                template=template,
                operation_id=op.get("operationId", f"{method} {template}"),
                pointer=pointer,
                body_required=bool(body.get("required")),
                bodies={
                    media: f"{pointer}/requestBody/content/{_escape(media)}/schema"
                    for media in content
                },
                parameters=params,
            )
        return found

    def _prepare(self, node: Any, schemas: Mapping[str, Any]) -> None:
        if self._rewrite:
            _rewrite(node, schemas)

    @staticmethod
    def _json_type(schema: Mapping[str, Any], schemas: Mapping[str, Any]) -> str | None:
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(_SCHEMAS_REF):
            schema = schemas[ref[len(_SCHEMAS_REF) :]]
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        return kind if isinstance(kind, str) else None

    def _target(self, schema: Any) -> Any:
        """The schema a ``{"$ref": "#/components/schemas/..."}`` names, through the
        registry (an object schema wrapped in ``x-fake-valid-once``, one wrapper per schema);
        None for anything else."""
        if not isinstance(schema, dict) or set(schema) != {"$ref"}:
            return None
        ref = schema["$ref"]
        if not isinstance(ref, str) or not ref.startswith(_SCHEMAS_REF):
            return None
        if ref not in self._targets:
            target = self._resolver.lookup(ref).contents
            if isinstance(target, dict) and "properties" in target:
                target = {_VALID_ONCE: {"schema": target, "valid": set()}}
            self._targets[ref] = target
        return self._targets[ref]

    def _resolve_refs(self, node: Any, seen: set[int]) -> None:
        """Replace each ``{"$ref": "#/components/schemas/X"}`` by the schema the registry
        resolves it to (the same object, so a recursive schema stays a cycle), once, here:
        jsonschema would otherwise look every reference up again at each use, a further
        validation step per component (a third of the time). Exact, as the document has no
        ``$id``, ``$anchor`` or ``$dynamicRef`` that could change what a reference means.
        An ``allOf: [enum schema]`` beside an ``enum`` it contains (every component's
        ``type``: ``enum: [2]`` and ``allOf: [MessageComponentTypes]``) is dropped: it
        cannot refuse what the ``enum`` accepts."""
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, list):
            for i, item in enumerate(node):
                target = self._target(item)
                if target is not None:
                    node[i] = target
                self._resolve_refs(node[i], seen)
            return
        if not isinstance(node, dict):
            return
        for key, value in list(node.items()):
            target = self._target(value)
            if target is not None:
                node[key] = target
            self._resolve_refs(node[key], seen)
        both = node.get("allOf")
        if isinstance(both, list) and len(both) == 1 and _implied_enum(node, both[0]):
            del node["allOf"]

    def forget(self) -> None:
        """Forget every verdict kept (on body texts, parameter values and component
        objects): the next checks validate everything again (for measuring)."""
        self._checked.clear()
        self._checked_parameters.clear()
        for target in self._targets.values():
            if isinstance(target, dict) and _VALID_ONCE in target:
                target[_VALID_ONCE]["valid"].clear()

    def _validator(self, pointer: str) -> Validator:
        schema = {"$ref": f"{DOCUMENT_URI}#{pointer}"}
        return self.validator_class(schema, registry=self.registry)  # type: ignore[call-arg]

    def is_valid_at(self, pointer: str, instance: Any) -> bool:
        """Does the schema at this JSON pointer of the document accept ``instance``?"""
        validator = self._validators_at.get(pointer)
        if validator is None:
            validator = self._validators_at[pointer] = self._validator(pointer)
        return next(validator.iter_errors(instance), None) is None

    # ------------------------------------------------------------------ routes

    def resolve(self, method: str, path: str) -> Operation | Problem:
        """The operation ``METHOD /path`` (no ``/api/v10``) is, or why there is none."""
        segments = path.strip("/").split("/")
        candidates = list(self._tree.match(segments)) if all(segments) else []
        for template in candidates:
            op = self.operations[template].get(method.upper())
            if op is not None:
                return op
        if not candidates:
            return Problem(UNDOCUMENTED_ROUTE, f"{method} {path}: no such route in Discord's API")
        allowed = sorted(self.operations[candidates[0]])
        return Problem(
            UNDOCUMENTED_METHOD,
            f"{method} {path}: {candidates[0]} takes only {', '.join(allowed)}",
        )

    @staticmethod
    def path_values(op: Operation, path: str) -> dict[str, str]:
        """The path parameters of ``path`` by the document's names (``channel_id``, ...)."""
        names = op.template.strip("/").split("/")
        values = path.strip("/").split("/")
        return {n[1:-1]: v for n, v in zip(names, values, strict=True) if n.startswith("{")}

    # ------------------------------------------------------------------ checks

    def check(
        self, op: Operation, path: str, query: Mapping[str, str], body: Body
    ) -> list[Problem]:
        """Every problem of one request to a documented operation: parameters and body."""
        return self.check_parameters(op, path, query) + self.check_body(op, body)

    def check_parameters(self, op: Operation, path: str, query: Mapping[str, str]) -> list[Problem]:
        problems: list[str] = []
        values: dict[tuple[str, str], Any] = {
            ("path", k): v for k, v in self.path_values(op, path).items()
        }
        for name in query:
            if ("query", name) not in op.parameters:
                problems.append(f"query {name}: not a parameter of this route")
                continue
            param = op.parameters[("query", name)]
            values[("query", name)] = _query_value(query[name], param.kind)
        for key, param in op.parameters.items():
            if key not in values:
                if param.required and param.location in ("path", "query"):
                    problems.append(f"{param.location} {param.name}: required")
                continue
            verdict = self._parameter_verdict(param.pointer, values[key])
            if verdict is not None:
                problems.append(f"{param.location} {param.name}={values[key]!r}: {verdict}")
        return [Problem(SCHEMA_VIOLATION, f"{op.method} {op.template}: {p}") for p in problems]

    def _parameter_verdict(self, pointer: str, value: Any) -> str | None:
        """What the parameter schema at ``pointer`` says of ``value`` (None: fine), once per
        value: the same channel ids and tokens come back on every call."""
        key = (pointer, f"{type(value).__name__}:{value}")
        if key not in self._checked_parameters:
            validator = self._validators_at.get(pointer)
            if validator is None:
                validator = self._validators_at[pointer] = self._validator(pointer)
            error = most_relevant(validator.iter_errors(value))
            if len(self._checked_parameters) >= CHECKED_BODIES:
                self._checked_parameters.clear()
            self._checked_parameters[key] = None if error is None else error.message
        return self._checked_parameters[key]

    def check_body(self, op: Operation, body: Body) -> list[Problem]:
        where = f"{op.method} {op.template}"
        if body.media_type is None:
            if op.body_required:
                return [Problem(SCHEMA_VIOLATION, f"{where}: a request body is required")]
            return []
        if not op.bodies:
            return [Problem(SCHEMA_VIOLATION, f"{where}: takes no request body")]
        if body.media_type not in op.bodies:
            return [
                Problem(
                    SCHEMA_VIOLATION,
                    f"{where}: {body.media_type} body, documented: {', '.join(op.bodies)}",
                )
            ]
        problems: list[Problem] = []
        payload = body.payload
        if body.media_type == MULTIPART:
            extra = [p for p in body.parts if p != "payload_json" and p not in FILE_PARTS]
            if extra:
                problems.append(
                    Problem(
                        SCHEMA_VIOLATION,
                        f"{where}: multipart parts {extra} (payload_json and files[0] to "
                        "files[9] only)",
                    )
                )
            if "payload_json" not in body.parts:
                return problems  # the fields as parts: discord.py never sends that
            where += " payload_json"
        media = JSON if JSON in op.bodies else body.media_type
        key = (op.bodies[media], body.text) if body.text is not None else None
        found = self._checked.get(key) if key is not None else None
        if found is None:
            validator = op._validators.get(media)
            if validator is None:
                validator = op._validators[media] = self._validator(op.bodies[media])
            error = most_relevant(validator.iter_errors(payload))
            found = [] if error is None else [describe(error)]
            if key is not None:
                if len(self._checked) >= CHECKED_BODIES:
                    self._checked.clear()
                self._checked[key] = found
        problems.extend(Problem(SCHEMA_VIOLATION, f"{where}: {e}") for e in found)
        return problems


def _query_value(text: str, kind: str | None) -> Any:
    """A query string value as the JSON value its schema describes (left as text when it
    does not read as one, so the schema reports it)."""
    if kind == "boolean":
        return QUERY_BOOLEANS.get(text.lower() if text in ("True", "False") else text, text)
    if kind in ("integer", "number"):
        try:
            return int(text) if kind == "integer" else float(text)
        except ValueError:
            return text
    return text


def load(deviations: Sequence[Deviation] = DEVIATIONS, *, rewrite: bool = True) -> OpenAPI:
    """Parse and prepare the document (with these deviations; ``rewrite=False``: without the
    speed-ups, to compare with); :func:`api` keeps one."""
    with DOCUMENT_PATH.open("rb") as handle:
        document = json.load(handle)
    return OpenAPI(document, deviations, rewrite=rewrite)


@functools.cache
def api() -> OpenAPI:
    """The document, parsed and prepared once per process on first use."""
    return load()


__all__ = [
    "DEVIATIONS",
    "INVALID_JSON",
    "SCHEMA_VIOLATION",
    "UNDOCUMENTED_METHOD",
    "UNDOCUMENTED_ROUTE",
    "Body",
    "Deviation",
    "OpenAPI",
    "Operation",
    "Problem",
    "api",
    "describe",
    "load",
]
