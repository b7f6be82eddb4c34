"""``GET /play``: the playground page and its assets (service/static/play: HTML, CSS and vanilla JS, no
build step, nothing fetched from elsewhere). The page only calls the public API."""
from pathlib import Path

from flask import Blueprint, send_from_directory

ASSETS = Path(__file__).resolve().parent.parent / "static" / "play"

blueprint = Blueprint("play", __name__, static_folder=str(ASSETS), static_url_path="/play/assets")


@blueprint.get("/play")
def play():
    return send_from_directory(ASSETS, "index.html", mimetype="text/html")
