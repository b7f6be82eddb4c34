"""Slow clients for the load and abuse scenarios (bench/load) and their regression test."""
import socket


def slow_clients(port: int, count: int = 50) -> list:
    """``count`` connections to a local server that never finish their requests: idle ones, half-sent
    headers and half-sent bodies, a third each. The caller closes them."""
    socks = []
    for i in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if i % 3 == 1:
            sock.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n")
        elif i % 3 == 2:
            sock.sendall(b"POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 500\r\n\r\n{\"game\"")
        socks.append(sock)
    return socks
