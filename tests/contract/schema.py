"""The generated OpenAPI document, and JSON Schema validators for its components (2020-12, as OpenAPI 3.1)."""

from __future__ import annotations

import functools

from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT = "urn:tavolo:openapi"


@functools.cache
def openapi() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


@functools.cache
def _registry() -> Registry:
    return Registry().with_resource(DOCUMENT, Resource.from_contents(openapi(), default_specification=DRAFT202012))


def validator(component: str) -> Draft202012Validator:
    """A validator for `#/components/schemas/<component>`, its references resolved in the document."""
    return Draft202012Validator({"$ref": f"{DOCUMENT}#/components/schemas/{component}"}, registry=_registry(),
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def component(name: str) -> dict:
    return openapi()["components"]["schemas"][name]
