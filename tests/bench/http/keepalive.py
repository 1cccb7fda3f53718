#!/usr/bin/env python3
"""keepalive.py - a plain client for callgrind.sh: CONNS keep-alive
connections to 127.0.0.1:PORT, ROUNDS rounds of one POST /solve (the README's
example board) on every connection, each round sent on all of them before
any answer is read, so the server finds many connections ready at once as
under wrk. Checks every answer is a 200 with the body's length.
   usage: keepalive.py PORT CONNS ROUNDS"""
import socket
import sys

BODY = (b'{"board": ["9.7.....6", "824.3....", "..1..9..2", ".9...2.18", '
        b'"...4....5", "1325.8...", "...687...", "......8.9", ".4.9...5."]}')
REQ = (b"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
       b"Content-Type: application/json\r\nContent-Length: "
       + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)


def read_answer(s, buf):
    """Reads one answer off s (buf: bytes already read); returns the rest."""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("connection closed")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise SystemExit("not 200: %r" % head[:80])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit("connection closed in a body")
        rest += chunk
    return rest[length:]


def main():
    port, conns, rounds = (int(a) for a in sys.argv[1:4])
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(conns)]
    for s in socks:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    bufs = [b""] * conns
    for _ in range(rounds):
        for s in socks:
            s.sendall(REQ)
        for i, s in enumerate(socks):
            bufs[i] = read_answer(s, bufs[i])
    for s in socks:
        s.close()


main()
