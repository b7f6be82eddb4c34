"""Tactician's HTTP layer: a Flask app that turns JSON into engine calls and back, and the gunicorn
worker, admission and search placement that keep it responsive while it searches.

The routes, fields, defaults and errors are those of ``openapi.yaml``; the marshmallow schemas in
:mod:`service.schemas` mirror it by hand and a test proves that the two agree.
"""
