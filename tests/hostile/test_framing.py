# test_framing.py - HTTP/1.1 framing cases of the hostile suite (issue 15,
# items 6-11): each request is sent as raw bytes on a connection of its own
# while a normal client is served on another.
import hostile
from hostile import request


def run(binary, res):
    with hostile.Daemon(binary, ["--access-log", "off"]) as d:
        normal = hostile.NormalClient(d.port)
        normal.start()
        res.case = "normal client"
        res.check(normal.wait_served(4), "normal client served", normal.errors)

        res.case = "baseline keep-alive"
        body = hostile.solve_body()
        r, rd = hostile.exchange(d.port, request(
            "POST", "/solve", [("Content-Type", "application/json"),
                               ("Content-Length", str(len(body)))], body))
        res.expect(r, 200, closed=False, rd=rd)
        rd.sock.close()

        normal.stop()
        res.case = "normal client"
        res.check(not normal.errors, "normal client saw no error", normal.errors)
        print("normal client: %d answers, worst %.1f ms" %
              (normal.served, normal.worst_ms), flush=True)
