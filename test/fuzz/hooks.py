"""Schemathesis hooks for test/fuzz/run.sh (loaded through SCHEMATHESIS_HOOKS)."""

import re

import schemathesis
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import CoverageScenario

# Letters, digits and hyphens: the header names every part of the HTTP layer reads. The HTTP server
# closes the connection without an answer on a name holding any other token character (`a_b`, `a.b`,
# `*`); that answer belongs to the HTTP layer's own tests (test/http), not to this fuzz.
PLAIN_HEADER_NAME = re.compile(r"[A-Za-z0-9-]+")


@schemathesis.hook
def filter_case(context, case):
    return all(PLAIN_HEADER_NAME.fullmatch(name) for name in (case.headers or {}))


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """Keeps every failure but "schema-violating request accepted" for an unknown header or query name.

    HTTP lets a client send headers and query parameters a route does not read, and every route
    ignores them; schemathesis counts one as a schema violation when the operation also has an
    integer header (`Last-Event-ID`), which it cannot tell apart on the wire.
    """
    data = case.meta.phase.data if case.meta is not None else None
    extra_name = (
        getattr(data, "scenario", None) == CoverageScenario.OBJECT_UNEXPECTED_PROPERTIES
        and getattr(data, "parameter_location", None) in (ParameterLocation.HEADER, ParameterLocation.QUERY)
    )
    return not (failure.code == "ST201" and extra_name)
