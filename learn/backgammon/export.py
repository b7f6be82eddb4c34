"""A trained net into the weights file both cores read (engine/games/backgammon_net.py, format 2), its
header naming the net, the data, the commit and the date; the checksum is the format's."""
import datetime

from engine.games import backgammon_net as net_module
from learn.backgammon.model import net_of
from learn.export import commit


def export(params: dict, path, kind: str, data: dict, comment: str = "") -> None:
    header = {"net": kind, "data": data, "commit": commit(), "trained": datetime.date.today().isoformat()}
    path.write_text(net_module.dump(net_of(params), header, comment))


def read(path):
    """``(header, net)`` of a weights file, verified."""
    text = path.read_text()
    return net_module.read_header(text), net_module.parse(text)
