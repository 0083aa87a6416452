"""Schemathesis hooks for test/fuzz/run.sh (loaded through SCHEMATHESIS_HOOKS).

Each drops requests whose answer belongs to the HTTP server's own handling of the request head,
tested in test/http, not to the routes this fuzz is about.
"""

import re

import schemathesis

# Letters, digits and hyphens: the header names every part of the HTTP layer reads. The HTTP server
# closes the connection without an answer on a name holding any other token character (`a_b`, `a.b`,
# `*`).
PLAIN_HEADER_NAME = re.compile(r"[A-Za-z0-9-]+")
# The HTTP server drops a header value's bytes above 0x7F before any route reads it
# (`Last-Event-ID: 1\x84` reads as `1`), so a route cannot refuse them.
ASCII_VALUE = re.compile(r"[\x00-\x7f]*")


@schemathesis.hook
def filter_case(context, case):
    headers = case.headers or {}
    return all(PLAIN_HEADER_NAME.fullmatch(name) and ASCII_VALUE.fullmatch(str(value)) for name, value in headers.items())
