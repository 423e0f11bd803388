"""The OpenAPI contract beyond what drf-spectacular infers: action and view schemas per game kind, one `Error`
component documented on every operation, paginated envelopes, bounded parameters and honest security.

Action components are named per kind (`SpiteAndMaliceDiscard`, `MuscioPlay`, ...) with `type` as a `const`;
each kind's union (`SpiteAndMaliceAction`) is a `oneOf` with a `type` discriminator, so an action matches
exactly one branch of its kind. Two kinds may share action shapes (Spite and Malice and Diavoletto do), so the
general `Action` is an `anyOf` of the kind unions: the game's `kind` says which one applies.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers

from api.base import MAX_INT_PARAM
from api.pagination import MAX_LIMIT
from games.engine import registry
from games.engine.protocol import Engine

JSON = dict[str, Any]
REF = "#/components/schemas/"

#: the highest seat index any game has (seat options and query parameters are bounded by it)
MAX_SEAT = max(engine.seats.stop - 1 for engine in registry.engines()) - 1


def ref(name: str) -> JSON:
    return {"$ref": REF + name}


def pascal(text: str) -> str:
    """`spite-and-malice` -> `SpiteAndMalice`, `no_scommessa` -> `NoScommessa`."""
    return "".join(part.capitalize() for part in text.replace("-", "_").split("_"))


# -- actions and views --------------------------------------------------------------------------------------
def action_schema(engine: Engine, name: str) -> JSON:
    """The whole action object of one type: the engine's fields and `type` fixed. Extra fields are not forbidden
    here (the server refuses them itself): a client generator would otherwise parse an action of another kind
    with the same `type` by dropping the fields it does not know, instead of rejecting it."""
    declared = engine.action_schemas[name]
    return {
        "type": "object",
        "title": f"{engine.title}: {name}",
        "properties": {"type": {"type": "string", "const": name}, **declared.get("properties", {})},
        "required": ["type", *declared.get("required", [])],
    }


def kind_components(engine: Engine) -> dict[str, JSON]:
    """`<Kind><Action>` per action type, the `<Kind>Action` union with its discriminator, and `<Kind>View`."""
    prefix = pascal(engine.kind)
    names = {name: f"{prefix}{pascal(name)}" for name in engine.action_schemas}
    components = {component: action_schema(engine, name) for name, component in names.items()}
    components[f"{prefix}Action"] = {
        "description": f"An action of {engine.title} (kind `{engine.kind}`).",
        "oneOf": [ref(component) for component in names.values()],
        "discriminator": {"propertyName": "type",
                          "mapping": {name: REF + component for name, component in names.items()}},
    }
    components[f"{prefix}View"] = {**engine.view_schema, "title": f"{engine.title} view"}
    return components


def game_components() -> dict[str, JSON]:
    """Every kind's components, and `Action` and `View`, which stand for the game's kind's."""
    components: dict[str, JSON] = {}
    for engine in registry.engines():
        components.update(kind_components(engine))
    prefixes = [pascal(kind) for kind in registry.kinds()]
    components["Action"] = {
        "description": "An action of the game's kind (`<Kind>Action`): an object with a `type` and its fields. "
                       "`legal_actions` in `/state/` holds complete actions that can be sent as they are.",
        "anyOf": [ref(f"{prefix}Action") for prefix in prefixes]}
    components["View"] = {
        "description": "The table as the caller may see it, in the shape of the game's kind (`<Kind>View`).",
        "anyOf": [ref(f"{prefix}View") for prefix in prefixes]}
    return components


# -- errors -------------------------------------------------------------------------------------------------
ERROR: JSON = {
    "type": "object",
    "description": "Every error: a stable machine-readable `code`, a human `detail`, sometimes more fields "
                   "(`errors` for invalid input, `version` for a conflict).",
    "properties": {"code": {"type": "string"}, "detail": {"type": "string"}},
    "required": ["code", "detail"],
    "additionalProperties": True,
}

#: status -> (description, the codes every endpoint may answer with it; None = the endpoint's own codes)
_GENERIC: dict[int, tuple[str, list[str] | None]] = {
    400: ("The request is malformed: `invalid_input` (with `errors` per field), `invalid_parameter`, "
          "`malformed_json`, or the endpoint's own (`invalid_seed`, `invalid_clock`, `invalid_name`, ...).", None),
    401: ("The token is missing or invalid.", ["not_authenticated", "invalid_token"]),
    403: ("The caller may not do this.", None),
    404: ("Nothing there.", ["not_found"]),
    409: ("The game or tournament is not in a state that allows this (or someone moved first).", None),
    413: ("The body is too large.", ["body_too_large"]),
    415: ("The body is not JSON.", ["unsupported_media_type"]),
    422: ("Well-formed but refused: by the rules of the game (the engine's code: `not_your_turn`, "
          "`card_not_in_hand`, `invalid_action`, ...), or options that cannot start one.", None),
    429: ("Too many requests: retry later.", ["throttled"]),
}

#: operationId -> {status: the codes it answers with that status (None: any code)}, on top of (or narrowing)
#: those every operation of its shape gets: 429; 400 with parameters or a body; 401 where a token is read; 404
#: with path parameters; 413 and 415 with a body; 403, 409 and 422 (any code) for a POST.
ERRORS: dict[str, dict[int, list[str] | None]] = {
    "player_create": {409: ["name_taken"]},
    "game_state": {403: ["game_sealed"], 409: ["game_pending", "game_not_started"]},
    "game_events": {403: ["game_sealed"]},
    "game_stream": {403: ["game_sealed"]},
    "game_replay": {403: ["game_sealed"]},
    "game_action": {403: ["not_seated", "not_your_seat"],
                    409: ["game_finished", "game_pending", "stale_version", "version_conflict"], 422: None},
    "game_accept": {403: ["not_seated"], 409: ["not_pending", "invitation_expired"]},
    "game_decline": {403: ["not_seated"], 409: ["not_pending"]},
    "game_export": {403: ["game_sealed"], 409: ["game_running", "game_not_started"]},
    "game_replay_step": {403: ["game_sealed"], 404: ["not_found", "no_such_step"]},
    "rating_leaderboard": {404: ["not_found", "unknown_kind"]},
    "tournament_create": {422: ["unknown_kind", "invalid_table_size", "invalid_rounds", "invalid_options",
                                "invalid_seats"]},
    "tournament_register": {403: ["not_organiser", "not_authenticated"],
                            409: ["registration_closed", "tournament_full", "already_registered", "seeded_tournament"],
                            422: ["unknown_bot"]},
    "tournament_start": {403: ["not_organiser"], 409: ["not_registering", "seeded_tournament"],
                         422: ["too_few_entrants"]},
    "tournament_cancel": {403: ["not_organiser"], 409: ["tournament_over"]},
}


def error_response(status: int, codes: list[str] | None) -> JSON:
    description, _ = _GENERIC.get(status, ("An error.", None))
    schema = ref("Error") if codes is None else {
        "allOf": [ref("Error")], "properties": {"code": {"type": "string", "enum": codes}}}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _statuses(method: str, operation: JSON) -> dict[int, list[str] | None]:
    """The error statuses an operation of this shape can answer with, and their codes."""
    parameters = operation.get("parameters", [])
    out: dict[int, list[str] | None] = {429: _GENERIC[429][1]}
    if method == "post":
        out.update({403: None, 409: None, 422: None})
    if parameters or "requestBody" in operation:
        out[400] = None
    if any("tokenAuth" in requirement for requirement in operation.get("security", [])):
        out[401] = _GENERIC[401][1]
    if any(parameter["in"] == "path" for parameter in parameters):
        out[404] = _GENERIC[404][1]
    if "requestBody" in operation:
        out[413] = _GENERIC[413][1]
        out[415] = _GENERIC[415][1]
    out.update(ERRORS.get(operation.get("operationId", ""), {}))
    return out


def _any_or_null(node: Any) -> None:
    """drf-spectacular writes a nullable JSONField as `oneOf: [{}, {type: null}]`, which null matches twice:
    `{}` (anything) is what is meant."""
    if isinstance(node, dict):
        if node.get("oneOf") == [{}, {"type": "null"}]:
            del node["oneOf"]
        for value in node.values():
            _any_or_null(value)
    elif isinstance(node, list):
        for value in node:
            _any_or_null(value)


def postprocess(result: JSON, generator, request, public) -> JSON:
    """drf-spectacular hook: add the game components and `Error`, and document each operation's errors."""
    _any_or_null(result)
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(game_components())
    schemas["Error"] = ERROR
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if operation.get("security") == [{}]:
                del operation["security"]  # no token involved at all
            responses = operation.setdefault("responses", {})
            for status, codes in sorted(_statuses(method, operation).items()):
                responses.setdefault(str(status), error_response(status, codes))
    return result


# -- building blocks for the views' decorators -----------------------------------------------------------------
def paginated(name: str, item: serializers.Serializer) -> serializers.Serializer:
    """The envelope `LimitOffsetPagination` answers with: `count`, `next`, `previous` and a page of `results`."""
    return inline_serializer(name, {
        "count": serializers.IntegerField(min_value=0, help_text="how many items match, over all pages"),
        "next": serializers.URLField(allow_null=True, help_text="the next page, null on the last"),
        "previous": serializers.URLField(allow_null=True, help_text="the previous page, null on the first"),
        "results": item,
    })


def integer(minimum: int | None = None, maximum: int | None = None) -> JSON:
    schema: JSON = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


PAGE = [OpenApiParameter("limit", integer(1, MAX_INT_PARAM), description=f"items per page, default 50; at most "
                         f"{MAX_LIMIT} are returned (a larger limit is cut to it)"),
        OpenApiParameter("offset", integer(0, MAX_INT_PARAM), description="items to skip")]
SEAT = OpenApiParameter("seat", integer(0, MAX_SEAT), required=False,
                        description="Which of your seats to look through (any seat once the game is over).")
