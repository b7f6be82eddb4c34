"""The worker's main thread (service/worker.py, ``Worker.at_door``) with stand-in connections: what it
deals with itself, without handing the connection to a thread."""
import socket

from service.worker import Worker


class StandInConnection:
    def __init__(self, sock):
        self.sock, self.parser, self.initialized, self.data_ready, self.closed = sock, None, True, False, False

    def close(self, graceful=False):
        self.closed = True
        self.sock.close()


def stand_in_worker(connections: int) -> Worker:
    worker = object.__new__(Worker)  # no arbiter, no app: at_door needs neither for a closed connection
    worker.nr_conns = connections
    return worker


def test_a_connection_its_client_closed_is_closed_at_the_door_without_a_thread():
    ours, theirs = socket.socketpair()
    theirs.close()  # a kept-alive client that read its answer and went
    conn, worker = StandInConnection(ours), stand_in_worker(3)
    assert worker.at_door(conn) is True
    assert conn.closed and worker.nr_conns == 2


def test_a_request_sent_before_its_client_shut_its_side_still_goes_to_a_thread(app):
    """A request, then the client's side shut (a half-close): the request is still answered."""
    ours, theirs = socket.socketpair()
    theirs.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
    theirs.shutdown(socket.SHUT_WR)
    conn, worker = StandInConnection(ours), stand_in_worker(1)
    worker.flask_app = app
    try:
        assert worker.at_door(conn) is False
        assert not conn.closed and worker.nr_conns == 1
    finally:
        ours.close()
        theirs.close()
