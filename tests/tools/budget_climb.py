#!/usr/bin/env python3
# budget_climb.py - hill-climbs the costliest bodies per engine and size
# against a running sudokud, as the budget-busting classic board was found
# (docs/operations.md, "CPU of one search"): from a start body, one random
# change at a time (a given set, cleared or changed; a rule switched; a cell
# of an extra region moved; a cage dropped or some of its sum moved to
# another), kept when the daemon's CPU for
# the request (utime + stime of /proc/<pid>/stat, never wall time) does not
# go down. Then, with --batch, the costliest body of each profile fills a
# batch (up to --max-batch boards and --max-batch-body bytes, padded with
# one-character boards where its JSON values need them) and that batch's
# CPU is measured too. One line per profile; --json writes them all.
#
# Usage: budget_climb.py BINARY [--steps N] [--seed S] [--batch]
#                        [--profile NAME ...] [--json FILE] [-- DAEMON FLAGS]
# e.g.   tests/tools/budget_climb.py build/sudokud --steps 20 --batch
import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys

TCK = os.sysconf("SC_CLK_TCK")
HERE = os.path.dirname(os.path.abspath(__file__))
KILLERS = os.path.join(HERE, "..", "data", "killer_puzzles")
# The tests' 17-given classic board without a solution (200,998 nodes).
HARD = ("41...9.8...................3..1.8........47.........69.47....3..83.4..."
        ".1........")
DIGITS = "123456789ABCDEFGHIJKLMNOP"
SIZES = (4, 6, 8, 9, 12, 16, 25)
RULES = ("none", "diagonals", "anti_knight", "anti_king", "extra", "all")


def cpu_s(pid):
    """The process's CPU time so far (user + system), in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TCK


class Daemon:
    def __init__(self, binary, flags):
        self.proc = subprocess.Popen(
            [binary, "--port", "0", "--bind", "127.0.0.1", "--access-log",
             "off", "--drain-timeout", "1", *flags],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.port = json.loads(self.proc.stdout.readline())["port"]

    def cost(self, path, body, ctype="application/json"):
        """(CPU seconds the daemon spent on one request, the answer's
        body)."""
        s = socket.create_connection(("127.0.0.1", self.port))
        head = ("POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                "Content-Type: %s\r\nContent-Length: %d\r\n\r\n"
                % (path, ctype, len(body))).encode()
        c0 = cpu_s(self.proc.pid)
        s.sendall(head + body)
        out = b""
        while True:
            d = s.recv(1 << 16)
            if not d:
                break
            out += d
        s.close()  # read to the server's close: the request is complete
        return cpu_s(self.proc.pid) - c0, out.partition(b"\r\n\r\n")[2]

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


# ---------------------------------------------------------------------------
# Bodies: a dict the mutations change, turned into JSON to send
# ---------------------------------------------------------------------------

def heavy_cells(n=625, count=24 + 32, x=12345):
    """The fixed pseudo-random walk of tests/test_budget.c's heavy_rules."""
    seen, out = set(), []
    while len(out) < count:
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        c = (x >> 8) % n
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def start_body(profile, rng):
    if profile == "classic":
        return {"board": HARD}
    if profile == "killer":
        lines = [l for l in open(KILLERS) if not l.startswith("#")]
        board, cages, _ = rng.choice(lines).strip().split("|")
        out = []
        for cage in cages.split(";"):
            total, cells = cage.split(":")
            out.append({"sum": int(total), "cells": [
                [int(c[0]) - 1, int(c[1]) - 1] for c in cells.split(",")]})
        return {"board": board, "cages": out}
    n, rule = profile.split(":")
    n = int(n[5:])
    body = {"board": "." * (n * n)}
    if rule in ("diagonals", "all"):
        body["diagonals"] = True
    if rule in ("anti_knight", "all"):
        body["anti_knight"] = True
    if rule == "anti_king":
        body["anti_king"] = True
    if rule in ("extra", "all"):
        # 32 groups of n cells sharing n - 1 (fewer where the grid has not
        # room for 32 cells of their own): the costliest shape found.
        groups = min(32, n * n - (n - 1))
        cells = heavy_cells(n * n, n - 1 + groups)
        shared = cells[:n - 1]
        body["extra_regions"] = [
            [[c // n, c % n] for c in shared + [own]] for own in cells[n - 1:]]
    return body


def mutate(profile, body, rng):
    b = json.loads(json.dumps(body))
    if profile == "killer":
        roll = rng.random()
        if len(b["cages"]) > 1 and roll < 0.6:
            # Moves some of one cage's sum to another: the total stays 405,
            # and the puzzle usually loses its solution in a way only the
            # search can show.
            x, y = rng.sample(range(len(b["cages"])), 2)
            k = rng.choice((1, 2, 3))
            b["cages"][x]["sum"] += k
            b["cages"][y]["sum"] -= k
        elif b["cages"] and roll < 0.8:
            b["cages"].pop(rng.randrange(len(b["cages"])))
        else:
            cells = list(b["board"])
            i = rng.randrange(81)
            cells[i] = "." if cells[i] != "." else rng.choice("123456789")
            b["board"] = "".join(cells)
        return b
    n = int(len(b["board"]) ** 0.5)
    roll = rng.random()
    if profile != "classic" and roll < 0.1:
        flag = rng.choice(("diagonals", "anti_knight", "anti_king"))
        if b.get(flag):
            del b[flag]
        else:
            b[flag] = True
    elif "extra_regions" in b and roll < 0.5:
        g = rng.choice(b["extra_regions"])
        taken = {tuple(c) for c in g}
        while True:
            c = [rng.randrange(n), rng.randrange(n)]
            if tuple(c) not in taken:
                break
        g[rng.randrange(len(g))] = c
    else:
        cells = list(b["board"])
        i = rng.randrange(n * n)
        cells[i] = "." if cells[i] != "." and rng.random() < 0.5 \
            else rng.choice(DIGITS[:n])
        b["board"] = "".join(cells)
    return b


def encode(body):
    return json.dumps(body, separators=(",", ":")).encode()


# Answers of a body that reached the search; others (a conflict, a bad
# cage) are refused before it and never kept.
SEARCHED = ("solved", "search_limit", "no_solution", "multiple_solutions")


def answer_code(out):
    try:
        return json.loads(out).get("code", "solved")
    except ValueError:
        return "?"


def climb(d, profile, steps, rng):
    best = start_body(profile, rng)
    best_cpu, out = d.cost("/solve", encode(best))
    code = answer_code(out)
    for _ in range(steps):
        cand = mutate(profile, best, rng)
        cpu, out = d.cost("/solve", encode(cand))
        if cpu >= best_cpu and answer_code(out) in SEARCHED:
            best, best_cpu, code = cand, cpu, answer_code(out)
    return best, best_cpu, code


def values(v):
    """JSON values in v, as the batch decoder counts them."""
    if isinstance(v, dict):
        return 1 + sum(values(x) for x in v.values())
    if isinstance(v, list):
        return 1 + sum(values(x) for x in v)
    return 1


def batch_cost(d, body, max_batch, max_bytes):
    """Fills a JSON batch with body (k times), padded with one-character
    boards where body has more JSON values than a batch allows per board
    (10 n + 32 for n boards: an extra region is many values)."""
    # A 9x9 board without rules is a plain string in a batch; an object
    # there is for the generic engine.
    item = encode(body["board"] if list(body) == ["board"] else body)
    v = values(body) if list(body) != ["board"] else 1
    # Pad boards per copy of body; the decoder's count runs a little above
    # values(), hence the tenth more.
    pads = max(0, v - 10) * 1.1 / 9.0
    per = len(item) + 1 + pads * 4
    k = max(1, min(int(max_batch / (1 + pads)), int((max_bytes - 16) / per)))
    p = min(max_batch - k, int(k * pads) + 4) if pads else 0
    data = b'{"boards":[' + b",".join([item] * k + [b'"1"'] * p) + b"]}"
    cpu, out = d.cost("/solve/batch", data)
    return k, len(data), cpu, out.count(b'"code":"batch_budget_exhausted"')


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--steps", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", action="store_true")
    ap.add_argument("--profile", action="append")
    ap.add_argument("--json")
    ap.add_argument("--max-batch", type=int, default=10000)
    ap.add_argument("--max-batch-body", type=int, default=4 << 20)
    ap.add_argument("flags", nargs="*")
    a = ap.parse_args(argv)
    profiles = a.profile or (["classic", "killer"] + [
        "cover%d:%s" % (n, r) for n in SIZES for r in RULES])
    rng = random.Random(a.seed)
    d = Daemon(a.binary, a.flags)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # runs finally
    rows = []
    try:
        for p in profiles:
            body, cpu, code = climb(d, p, a.steps, rng)
            row = {"profile": p, "request_cpu_s": cpu, "answer": code,
                   "body_bytes": len(encode(body)), "body": body}
            line = "%-24s request %.2f s (%s, %d bytes)" % (
                p, cpu, code, row["body_bytes"])
            if a.batch and p == "killer":
                line += "; not taken in batches"
            elif a.batch:
                k, size, bcpu, left = batch_cost(d, body, a.max_batch,
                                                 a.max_batch_body)
                row.update(batch_boards=k, batch_bytes=size, batch_cpu_s=bcpu,
                           batch_exhausted=left)
                line += "; batch of %d (%d bytes) %.2f s, %d exhausted" % (
                    k, size, bcpu, left)
            print(line, flush=True)
            rows.append(row)
    finally:
        d.stop()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
