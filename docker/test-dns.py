#!/usr/bin/env python3
"""docker/test-dns.py - a tiny DNS server for docker/test-gateway.sh: it
answers A queries on 127.0.0.1:PORT (UDP) from HOSTS, a file of
"NAME ADDRESS" lines read again on every query, so that the test moves a
replica to a new address by rewriting the file, as Docker's embedded DNS
does when a container is recreated. TTL 1 s; other names are NXDOMAIN,
other types of a known name an empty answer. Prints its port, then serves
until killed.
    docker/test-dns.py HOSTS"""
import socket
import struct
import sys


def records(path, name):
    found, addrs = False, []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[0].lower() == name:
                found = True
                addrs.append(socket.inet_aton(parts[1]))
    return found, addrs


def answer(query, path):
    qid, flags, qdcount = struct.unpack(">HHH", query[:6])
    if qdcount != 1:
        return None
    i, labels = 12, []
    while query[i]:
        labels.append(query[i + 1:i + 1 + query[i]].decode("ascii", "replace"))
        i += 1 + query[i]
    qtype, qclass = struct.unpack(">HH", query[i + 1:i + 5])
    question = query[12:i + 5]
    found, addrs = records(path, ".".join(labels).lower())
    if qtype != 1:
        addrs = []
    rcode = 0 if found else 3
    head = struct.pack(">HHHHHH", qid, 0x8180 | rcode | (flags & 0x0100), 1, len(addrs), 0, 0)
    body = b"".join(struct.pack(">HHHIH", 0xC00C, 1, 1, 1, 4) + a for a in addrs)
    return head + question + body


def main():
    path = sys.argv[1]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    print(s.getsockname()[1], flush=True)
    while True:
        query, peer = s.recvfrom(512)
        try:
            reply = answer(query, path)
        except (IndexError, struct.error, OSError):
            reply = None
        if reply:
            s.sendto(reply, peer)


main()
