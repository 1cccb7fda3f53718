# test_busy.py - a server kept busy by expensive requests must still answer
# every request that has arrived: the event loops never run long work (it
# goes to the worker pools), so neither the header deadline nor the idle
# timeout can close a connection whose request sits unread while the server
# works; and a client that hangs up stops its batch's work.
import json
import socket
import threading
import time

import hostile

# An expensive body: a blank 25x25 board with two rules, which uses a
# whole search budget (about half a second of CPU) and does not settle.
HEAVY = json.dumps({"board": "." * 625, "diagonals": True,
                    "anti_knight": True}).encode()
HEAVY_CONNECTIONS = 16
BYSTANDER_MS = 1000  # the easy request's answer, however busy the server


def post(path, body, ctype="application/json"):
    return hostile.request("POST", path, [("Content-Type", ctype),
                                          ("Content-Length", str(len(body)))],
                           body)


def check_heavy_load(res, binary, flags, label):
    """16 kept-alive connections each send a heavy /solve at once to a
    server with one event loop; a bystander that was answered before sends
    an easy one meanwhile. Each of the 17 gets an answer: the bystander's
    at once, the heavy ones when workers get to them (or 503 busy)."""
    res.case = "busy server (%s): bystander answered" % label
    with hostile.Daemon(binary, ["--threads", "1", *flags]) as d:
        by = hostile.connect(d.port)
        by_rd = hostile.Reader(by)
        hostile.send(by, post("/solve", hostile.solve_body()))
        first = by_rd.response()
        res.check(first.status == 200, "bystander's first /solve", repr(first))
        heavy = []
        for _ in range(HEAVY_CONNECTIONS):
            s = hostile.connect(d.port)
            heavy.append((s, hostile.Reader(s)))
        started = time.monotonic()
        for s, _ in heavy:
            hostile.send(s, post("/solve", HEAVY))
        # The heavy requests are in (started, not answered) before the
        # easy one goes out.
        end = time.monotonic() + 10
        while hostile.count(hostile.metrics(d.port), "http_requests_in_flight") \
                < HEAVY_CONNECTIONS + 1 and time.monotonic() < end:
            time.sleep(0.01)
        by_started = time.monotonic()
        hostile.send(by, post("/solve", hostile.solve_body()))
        r = by_rd.response(by_started, wait=30)
        res.check(r.status == 200 and r.ms is not None and
                  r.ms <= BYSTANDER_MS,
                  "easy /solve answered 200 within %d ms while 16 heavy "
                  "ones run" % BYSTANDER_MS, repr(r))
        res.case = "busy server (%s): every heavy request answered" % label
        statuses = []
        for s, rd in heavy:
            h = rd.response(started, wait=60)
            statuses.append(h.status)
            s.close()
        by.close()
        res.check(all(st in (200, 422, 503) for st in statuses),
                  "all %d answered (200, 422, or 503 busy)" % len(statuses),
                  repr(statuses))


def check_hangup_stops_batch(res, binary):
    """A client sends a batch of heavy boards and hangs up half a second
    later: the server stops the batch within about a second of CPU, not
    after judging every board."""
    res.case = "batch whose client hangs up"
    lines = b"\n".join([HEAVY] * 60) + b"\n"
    with hostile.Daemon(binary) as d:
        s = hostile.connect(d.port)
        hostile.send(s, post("/solve/batch", lines, "application/x-ndjson"))
        time.sleep(0.5)
        s.close()
        gone = hostile.cpu_s(d.proc.pid)
        # Wait for the daemon to go quiet (no CPU in a quarter second), for
        # at most 20 s (a loaded machine gives it little CPU): a batch that
        # ran on would take about 25 s of CPU.
        last, end = gone, time.monotonic() + 20
        while time.monotonic() < end:
            time.sleep(0.25)
            now = hostile.cpu_s(d.proc.pid)
            if now == last:
                break
            last = now
        spent = last - gone
        res.check(spent <= 1.5,
                  "at most 1.5 s of CPU after the hang-up", "%.2f s" % spent)
        r = hostile.get(d.port, "/livez")
        res.check(r.status == 200, "still serving", repr(r))


def run(binary, res):
    # The header deadline used to close the bystander, its request unread.
    check_heavy_load(res, binary, ["--header-timeout", "1"], "header timeout")
    # libmicrohttpd's --timeout used to, with a longer header deadline.
    check_heavy_load(res, binary, ["--timeout", "1", "--header-timeout", "30"],
                     "idle timeout")
    check_hangup_stops_batch(res, binary)
