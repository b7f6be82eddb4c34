"""A worker's admission (service/admission.py): tickets count a search from the moment it is let in."""
import pytest
from werkzeug.exceptions import ServiceUnavailable

from service.admission import Admission


def test_searches_are_let_in_up_to_the_slots_and_the_waiting_line_then_refused():
    gate = Admission(slots=1, max_waiting=2, retry_after_s=3)
    tickets = [gate.let_in() for _ in range(3)]
    assert all(tickets) and gate.let_in() is None and not gate.has_room()
    with pytest.raises(ServiceUnavailable) as refused:
        gate.check()
    assert refused.value.retry_after == 3 and "3 searches running or waiting" in refused.value.description
    tickets[0].release()
    tickets[0].release()        # a second release changes nothing
    assert gate.tickets == 2 and gate.has_room()


def test_a_ticket_becomes_its_searchs_place_in_the_line():
    gate = Admission(slots=1, max_waiting=1, retry_after_s=1)
    ticket = gate.let_in()
    assert gate.enter(ticket) is ticket
    with gate.search(5.0, ticket):
        assert (gate.tickets, gate.waiting, gate.running) == (0, 0, 1)
        ticket.release()        # the request's end: its ticket is spent already
        assert gate.tickets == 0
        waiting = gate.let_in()  # the one place left in the line
        assert waiting is not None and gate.let_in() is None
        with pytest.raises(ServiceUnavailable):
            with gate.search(1.0):
                pass
        waiting.release()
    assert (gate.tickets, gate.waiting, gate.running) == (0, 0, 0)


def test_a_draining_worker_lets_nothing_in_even_with_a_ticket():
    gate = Admission(slots=2, max_waiting=2, retry_after_s=1)
    ticket = gate.let_in()
    gate.drain()
    assert gate.let_in() is None
    with pytest.raises(ServiceUnavailable) as refused:
        gate.enter(ticket)
    assert "shutting down" in refused.value.description
