# test_slow.py - slow clients: hundreds of connections trickling their
# headers or their bodies a byte at a time, while a normal client keeps
# being served within a second, on a kept-alive connection and on new ones.
# The slow connections must all be closed (header deadline, body rate, or
# evicted for a new client) and counted in the metrics.
import socket
import threading
import time

import hostile

HEADER_TIMEOUT = 2   # --header-timeout for these cases, seconds
SLOW_HEADERS = 300   # more than --max-connections below: eviction needed
SLOW_BODIES = 100
MAX_CONNECTIONS = 200


class Tricklers:
    """n connections, each sent `head` then one byte of `drip` every
    `every` seconds from one thread, until stopped. Counts the ones the
    server closed (end of stream or reset)."""

    def __init__(self, port, n, head, drip=b"a", every=0.5):
        self.socks = []
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(head)
            s.setblocking(False)
            self.socks.append(s)
        self.open = set(range(n))
        self.drip, self.every = drip, every
        self.stop_flag = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop_flag.is_set():
            for i in list(self.open):
                s = self.socks[i]
                try:
                    if s.recv(4096) == b"":
                        self.open.discard(i)
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    self.open.discard(i)
                    continue
                try:
                    s.send(self.drip)
                except BlockingIOError:
                    pass
                except OSError:
                    self.open.discard(i)
            self.stop_flag.wait(self.every)

    def wait_all_closed(self, timeout):
        end = time.monotonic() + timeout
        while self.open and time.monotonic() < end:
            time.sleep(0.05)
        return not self.open

    def stop(self):
        self.stop_flag.set()
        self.thread.join(5)
        for s in self.socks:
            s.close()


def fresh_requests(port, seconds, results, what):
    """A new connection per request, ten a second, for `seconds`: every one
    must be answered 200 within a second."""
    worst, failures, n = 0.0, [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        body = hostile.solve_body()
        r, rd = hostile.exchange(port, hostile.request(
            "POST", "/solve", [("Content-Type", "application/json"),
                               ("Content-Length", str(len(body))),
                               ("Connection", "close")], body), wait=2)
        rd.sock.close()
        n += 1
        if r.status != 200:
            failures.append(repr(r))
        else:
            worst = max(worst, r.ms)
        time.sleep(0.1)
    results.check(not failures, "%s: %d new clients all served" % (what, n),
                  "; ".join(failures[:5]))
    results.check(worst < 1000, "%s: new clients answered within 1 s" % what,
                  "worst %.0f ms" % worst)


def attack(binary, results, case, args, tricklers, fresh_s, close_s):
    """Runs a daemon with args and a normal client on it, starts the slow
    connections (tricklers(port)), checks new clients for fresh_s seconds,
    waits up to close_s for every slow one to be closed; checks the normal
    client throughout. Returns the seconds the closing took and /metrics."""
    results.case = case
    with hostile.Daemon(binary, [*args, "--access-log", "off"]) as d:
        normal = hostile.NormalClient(d.port)
        normal.start()
        results.check(normal.wait_served(10), "normal client served before")
        t0 = time.monotonic()
        slow = tricklers(d.port)
        fresh_requests(d.port, fresh_s, results, case)
        closed = slow.wait_all_closed(close_s)
        took = time.monotonic() - t0
        slow.stop()
        normal.stop()
        results.check(closed, "all %d slow connections closed" % len(slow.socks),
                      "%d still open after %.1f s" % (len(slow.open), took))
        results.check(not normal.errors and normal.worst_ms < 1000,
                      "kept-alive normal client served within 1 s throughout",
                      "errors %s, worst %.0f ms, served %d" % (
                          normal.errors[:3], normal.worst_ms, normal.served))
        return took, hostile.metrics(d.port)


def slow_headers(binary, results):
    _, m = attack(binary, results, "slow headers",
                  ["--header-timeout", str(HEADER_TIMEOUT),
                   "--max-connections", str(MAX_CONNECTIONS)],
                  lambda port: Tricklers(port, SLOW_HEADERS,
                                         b"GET /livez HTTP/1.1\r\nHost: x\r\nX-Slow: "),
                  HEADER_TIMEOUT + 1, HEADER_TIMEOUT + 2)
    n = sum(hostile.count(m, "http_connections_closed_total", reason=r)
            for r in ("header_timeout", "evicted"))
    results.check(n >= SLOW_HEADERS, "closes counted in the metrics",
                  "header_timeout + evicted = %d" % n)


def slow_bodies(binary, results):
    # A body below 1 KiB/s is closed at the end of the grace (the header
    # timeout) plus one look (0.25 s).
    took, m = attack(binary, results, "slow bodies",
                     ["--header-timeout", str(HEADER_TIMEOUT),
                      "--body-min-rate", "1K",
                      "--max-connections", str(MAX_CONNECTIONS)],
                     lambda port: Tricklers(port, SLOW_BODIES, hostile.request(
                         "POST", "/solve/batch",
                         [("Content-Type", "application/json"),
                          ("Content-Length", "100000")]),
                         drip=b"[", every=0.5),
                     1.5, HEADER_TIMEOUT + 2)
    results.check(took < HEADER_TIMEOUT + 1.5, "closed at the grace's end",
                  "%.1f s" % took)
    n = hostile.count(m, "http_connections_closed_total", reason="body_too_slow")
    results.check(n >= SLOW_BODIES, "closes counted in the metrics",
                  "body_too_slow = %d" % n)


def run(binary, results):
    slow_headers(binary, results)
    slow_bodies(binary, results)
