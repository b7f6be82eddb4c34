"""``/openapi.yaml`` and ``/docs``, Swagger UI from the flask-swagger-ui package: no CDN, no validator
badge (which would send the spec to a public validator)."""
from flask import Blueprint, Flask, Response, current_app
from flask_swagger_ui import get_swaggerui_blueprint

blueprint = Blueprint("openapi", __name__)
SPEC_URL = "/openapi.yaml"
DOCS_URL = "/docs"


@blueprint.get(SPEC_URL)
def openapi_yaml():
    return Response(current_app.config["OPENAPI_YAML"], mimetype="application/yaml")


def register(app: Flask) -> None:
    app.register_blueprint(blueprint)
    swagger = get_swaggerui_blueprint(DOCS_URL, SPEC_URL, config={
        "app_name": "Tactician API", "validatorUrl": None, "oauth2RedirectUrl": f"{DOCS_URL}/oauth2-redirect.html"})
    app.register_blueprint(swagger)
    # The blueprint answers /docs/ and its assets; answer /docs itself too rather than redirect.
    app.add_url_rule(DOCS_URL, endpoint="docs", view_func=app.view_functions[f"{swagger.name}.show"])
