"""Tactician's HTTP layer: a thin Flask app that turns JSON into engine calls and back.

The routes, fields, defaults and errors are those of ``openapi.yaml``; the marshmallow schemas in
:mod:`service.schemas` mirror it by hand and a test proves that the two agree.
"""
