# test_generate.py - issue 28, finding 4: /generate with extra_regions
# answered "rules" without them, so its "rules" plus "puzzle" sent back to
# /solve had several solutions (422 multiple_solutions, 40 of 40). Each
# generated puzzle with extra regions, returned with exactly the answered
# rules, must be solved (200) to the answered solution.
import json

import hostile


def windows(n, br, count):
    """count box-shaped extra regions one cell in from the corners (for
    9x9 with count 4, the windoku windows)."""
    bc = n // br
    out = []
    for w in range(count):
        r0 = 1 if w in (0, 1) else n - 1 - br
        c0 = 1 if w in (0, 2) else n - 1 - bc
        if count == 2 and w == 1:
            r0, c0 = n - 1 - br, n - 1 - bc
        out.append([[r0 + k // bc, c0 + k % bc] for k in range(n)])
    return out


def post(port, path, body):
    data = json.dumps(body).encode()
    r, rd = hostile.exchange(port, hostile.request(
        "POST", path, [("Content-Type", "application/json"),
                       ("Content-Length", str(len(data))),
                       ("Connection", "close")], data), wait=10)
    rd.sock.close()
    return r


def run(binary, results):
    results.case = "generate answers every rule"
    cases = [({"size": 9, "extra_regions": windows(9, 3, 4)}, s)
             for s in range(1, 9)]
    cases += [({"size": 6, "extra_regions": windows(6, 2, 2)}, 3),
              ({"size": 9, "diagonals": True,
                "extra_regions": windows(9, 3, 4)}, 4)]
    with hostile.Daemon(binary, ["--access-log", "off"]) as d:
        for rules, seed in cases:
            g = post(d.port, "/generate", dict(rules, seed=seed))
            if not results.check(g.status == 200, "/generate answered",
                                 repr(g)):
                continue
            gen = g.json() or {}
            answered = gen.get("rules", {})
            results.check(answered.get("extra_regions") ==
                          rules["extra_regions"],
                          "rules carry the extra regions (seed %d)" % seed,
                          json.dumps(answered)[:200])
            body = dict(answered, board=gen.get("puzzle"))
            s = post(d.port, "/solve", body)
            results.check(s.status == 200 and (s.json() or {}).get(
                "solution") == gen.get("solution"),
                "rules plus puzzle solve to the solution (size %d, seed %d)"
                % (rules["size"], seed), repr(s))
