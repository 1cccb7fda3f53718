#!/usr/bin/env python3
# mix.py - the mixed load of issue 28: easy POST /solve on kept-alive
# connections while other clients send the dearest work the service takes
# (/explain on the hardest puzzles, 25x25 /generate, NDJSON batches of
# heavy boards, heavy variant /solve, /grade). Prints the easy /solve
# latency (p50, p99, max), every request that got no answer, and the
# daemon's RSS and open descriptors sampled along the way (they must stay
# flat). With --sigterm the daemon gets SIGTERM halfway: every request it
# took in must still be answered (200, or 503 with Retry-After), and it
# must exit 0. Exit status 1 when a request went unanswered.
#
# Usage: mix.py SUDOKUD PUZZLES [--seconds N] [--sigterm]
#   PUZZLES: a file of 81-character puzzles (the forum's hardest).
import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time

EXAMPLE = ("9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687"
           ".........8.9.4.9...5.")
HEAVY = json.dumps({"board": "." * 625, "diagonals": True,
                    "anti_knight": True})


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.easy = []          # latencies of the easy /solve, ms
        self.by_kind = {}       # kind -> {status: count}
        self.unanswered = []    # (kind, what happened)

    def add(self, kind, status):
        with self.lock:
            d = self.by_kind.setdefault(kind, {})
            d[status] = d.get(status, 0) + 1

    def lost(self, kind, why):
        with self.lock:
            self.unanswered.append((kind, why))


def start(binary, args):
    proc = subprocess.Popen([binary, "--port", "0", "--bind", "127.0.0.1",
                             "--access-log", "off", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    # The first line that names the port: read on, line by line, from a
    # pipe that exists (the daemon writes it once it listens).
    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace")
        if '"msg":"listening"' in line:
            port = json.loads(line)["port"]
            threading.Thread(target=lambda: [None for _ in proc.stdout],
                             daemon=True).start()
            return proc, port
    raise SystemExit("sudokud did not start")


def client(port, stop, stats, kind, make, draining):
    """One kept-alive connection sending make() until stop; a new
    connection after a close the server announced (Connection: close)."""
    conn = None
    i = 0
    while not stop.is_set():
        path, body, ctype = make(i)
        i += 1
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        t0 = time.monotonic()
        try:
            conn.request("POST", path, body=body,
                         headers={"Content-Type": ctype})
            r = conn.getresponse()
            r.read()
        except (ConnectionError, http.client.HTTPException, OSError) as e:
            # Refused at connect while draining is the server saying no;
            # a request sent and not answered is what must never happen.
            if not (draining.is_set() and isinstance(e, ConnectionRefusedError)):
                stats.lost(kind, repr(e))
            conn.close()
            conn = None
            if draining.is_set():
                return
            continue
        ms = (time.monotonic() - t0) * 1000.0
        stats.add(kind, r.status)
        if kind == "easy /solve" and r.status == 200:
            with stats.lock:
                stats.easy.append(ms)
        if r.getheader("Connection", "").lower() == "close":
            conn.close()
            conn = None
            if draining.is_set():
                return
        if r.status == 503:
            time.sleep(float(r.getheader("Retry-After", "1")))


def sample(pid):
    """(RSS in MB, open descriptors) of pid."""
    with open("/proc/%d/status" % pid) as f:
        rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    return rss / 1024.0, len(os.listdir("/proc/%d/fd" % pid))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p / 100.0))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("puzzles")
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--sigterm", action="store_true")
    a = ap.parse_args()
    hard = [l.strip() for l in open(a.puzzles)
            if len(l.strip()) == 81 and not l.startswith("#")][:200]
    proc, port = start(a.binary, [])
    stats, stop, draining = Stats(), threading.Event(), threading.Event()
    json_type, nd_type = "application/json", "application/x-ndjson"
    kinds = [
        ("easy /solve", 4,
         lambda i: ("/solve", json.dumps({"board": EXAMPLE}), json_type)),
        ("/explain hard", 2,
         lambda i: ("/explain", json.dumps({"board": hard[i % len(hard)]}),
                    json_type)),
        ("/grade hard", 1,
         lambda i: ("/grade", json.dumps({"board": hard[-1 - i % len(hard)]}),
                    json_type)),
        ("/generate 25x25", 1,
         lambda i: ("/generate", json.dumps({"size": 25, "seed": i}),
                    json_type)),
        ("batch heavy", 1,
         lambda i: ("/solve/batch", "\n".join([HEAVY] * 20) + "\n", nd_type)),
        ("heavy variant /solve", 2,
         lambda i: ("/solve", HEAVY, json_type)),
    ]
    threads = []
    for kind, n, make in kinds:
        for _ in range(n):
            t = threading.Thread(target=client,
                                 args=(port, stop, stats, kind, make, draining),
                                 daemon=True)
            t.start()
            threads.append(t)
    samples = []
    end = time.monotonic() + a.seconds
    termed = False
    while time.monotonic() < end:
        time.sleep(min(2.0, max(0.0, end - time.monotonic())))
        if proc.poll() is None:
            samples.append(sample(proc.pid))
        if a.sigterm and not termed and time.monotonic() > end - a.seconds / 2:
            draining.set()
            proc.send_signal(signal.SIGTERM)
            termed = True
    stop.set()
    for t in threads:
        t.join(timeout=150)
    if proc.poll() is None and not a.sigterm:
        proc.send_signal(signal.SIGTERM)
    rc = proc.wait(timeout=60)
    e = stats.easy
    print("mix: %.0f s%s; easy /solve: %d answered, p50 %.1f ms, p99 %.1f ms, "
          "max %.1f ms" % (a.seconds, ", SIGTERM halfway" if a.sigterm else "",
                           len(e), pct(e, 50), pct(e, 99), max(e or [0])))
    for kind, d in stats.by_kind.items():
        print("  %-22s %s" % (kind, " ".join("%s:%d" % kv for kv in sorted(d.items()))))
    if samples:
        rss = [s[0] for s in samples]
        fds = [s[1] for s in samples]
        print("  rss MB first %.1f max %.1f last %.1f; fds first %d max %d last %d"
              % (rss[0], max(rss), rss[-1], fds[0], max(fds), fds[-1]))
    print("  unanswered: %d; daemon exit status %d" % (len(stats.unanswered), rc))
    for kind, why in stats.unanswered[:10]:
        print("    %s: %s" % (kind, why))
    return 1 if stats.unanswered or rc != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
