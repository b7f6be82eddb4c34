"""``GET /play`` and its assets come from the package, and the page fetches nothing from elsewhere."""
import re

from service.routes.play import ASSETS
from tests.service.support import ValidatingClient, make_app

EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//|(?:fetch|import)\s*\(\s*["'](?:https?:)?//|"""
                      r"""from\s+["'](?:https?:)?//""")


def test_the_page_and_every_asset_are_served_from_the_package():
    client = ValidatingClient(make_app())
    page = client.get("/play")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert '<script type="module" src="/play/assets/main.js">' in html
    names = sorted(p.name for p in ASSETS.iterdir())
    assert {"index.html", "main.js", "style.css"} <= set(names)
    for name in names:
        asset = client.client.get(f"/play/assets/{name}")
        assert asset.status_code == 200, name
        text = asset.get_data(as_text=True)
        assert not EXTERNAL.search(text), name
        for imported in re.findall(r"""from\\s+["']\\./([\\w.]+)["']""", text):
            assert imported in names, (name, imported)
    assert client.client.get("/play/assets/nothing.js").status_code == 404
