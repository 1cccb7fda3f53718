# test_framing.py - HTTP/1.1 framing cases of the hostile suite (issue 15,
# items 6-11): each request goes out as raw bytes on a connection of its own
# while a normal client is served on another, and each must be answered at
# once (hostile.ANSWER_MS) and, where it must, the connection closed.
# Expectations come from RFC 9112 and the table of problems in docs/api.md; what
# libmicrohttpd 0.9.75 answers by itself is checked for its status and the
# close only (docs/operations.md, Security: what stays the library's).
import time

import hostile
from hostile import request

TIMEOUT_S = 2  # the daemon's --timeout, for the cases only it can end
BODY = hostile.solve_body()


def post(headers, body=BODY, version="HTTP/1.1", host=True):
    out = request("POST", "/solve", [("Content-Type", "application/json")] +
                  list(headers), body, host=host)
    if version != "HTTP/1.1":
        out = out.replace(b"HTTP/1.1\r\n", version.encode() + b"\r\n", 1)
    return out


def chunked(body, size=None):
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body) if size is None else size,
                                       body)


def query(n):
    return "/livez?" + "&".join("a%d=1" % i for i in range(n))


TE = ("Transfer-Encoding", "chunked")
SMUGGLED = b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"


# ---------------------------------------------------------------------------
# The cases: (name, bytes, what must happen)
#   ("ok", status, closed)             an answer of the service, not refused
#   ("problem", status, code[, closed]) a problem+json answer, then closed
#                                       (unless closed is False)
#   ("library", status[, "uncounted"]) libmicrohttpd's own answer, then
#                                       closed (and counted in the metrics)
#   ("bounded",)                       only the idle timeout ends it
# ---------------------------------------------------------------------------

CASES = [
    # Item 6: two Content-Length values; the rest was read as a second
    # request (a 404 for the smuggled GET).
    ("Content-Length 119 and 30", post([("Content-Length", "119"),
                                        ("Content-Length", "30")],
                                       BODY + SMUGGLED),
     ("problem", 400, "bad_framing")),
    ("two equal Content-Length (folded)",
     post([("Content-Length", str(len(BODY)))] * 2), ("ok", 200, False)),
    ("Content-Length 5 and 05", post([("Content-Length", "5"),
                                      ("Content-Length", "05")], b"{}   "),
     ("problem", 400, "bad_framing")),
    # Item 7: Content-Length with chunked (lead's choice: refuse, close).
    ("Content-Length with chunked",
     post([("Content-Length", str(len(BODY))), TE], chunked(BODY)),
     ("problem", 400, "bad_framing")),
    ("CL.TE smuggling", post([("Content-Length", "4"), TE],
                             b"0\r\n\r\n" + SMUGGLED),
     ("problem", 400, "bad_framing")),
    ("chunked before Content-Length",
     post([TE, ("Content-Length", str(len(BODY)))], chunked(BODY)),
     ("problem", 400, "bad_framing")),
    # Item 8: codings the library does not take for chunked (it read the
    # body until the client closed).
    ("Transfer-Encoding: gzip, chunked",
     post([("Transfer-Encoding", "gzip, chunked")], chunked(BODY)),
     ("problem", 501, "unsupported_transfer_coding")),
    ("Transfer-Encoding: chunked, identity",
     post([("Transfer-Encoding", "chunked, identity")], chunked(BODY)),
     ("problem", 501, "unsupported_transfer_coding")),
    ("Transfer-Encoding: xchunked",
     post([("Transfer-Encoding", "xchunked")], chunked(BODY)),
     ("problem", 501, "unsupported_transfer_coding")),
    ("Transfer-Encoding: identity",
     post([("Transfer-Encoding", "identity")], BODY),
     ("problem", 501, "unsupported_transfer_coding")),
    ("Transfer-Encoding twice", post([TE, TE], chunked(BODY)),
     ("problem", 400, "bad_framing")),
    ("Transfer-Encoding in HTTP/1.0",
     post([TE], chunked(BODY), version="HTTP/1.0"),
     ("problem", 400, "bad_framing")),
    ("Transfer-Encoding: Chunked (names ignore case)",
     post([("Transfer-Encoding", "Chunked")], chunked(BODY)),
     ("ok", 200, False)),
    # Item 8: URLs. The service takes 32 query parameters and 2048 bytes.
    ("32 query parameters", request("GET", query(32)), ("ok", 200, False)),
    ("33 query parameters", request("GET", query(33)),
     ("problem", 414, "uri_too_long")),
    ("200 query parameters", request("GET", query(200)),
     ("problem", 414, "uri_too_long")),
    ("250 query parameters", request("GET", query(250)),
     ("problem", 414, "uri_too_long")),
    ("1000 query parameters", request("GET", query(1000)),
     ("problem", 414, "uri_too_long")),
    ("URL of 2048 bytes", request("GET", "/livez?a=" + "x" * (2048 - 9)),
     ("ok", 200, False)),
    ("URL of 2049 bytes", request("GET", "/livez?a=" + "x" * (2049 - 9)),
     ("problem", 414, "uri_too_long")),
    ("path of 3000 bytes", request("GET", "/" + "x" * 2999),
     ("problem", 414, "uri_too_long")),
    # A request line longer than the library's buffer never reaches us,
    # not even the URI log callback: it is not counted in the metrics.
    ("10000 query parameters", request("GET", query(10000)),
     ("library", 414, "uncounted")),
    # Item 8: chunk sizes. 17 f's overflow 64 bits (the library's 413);
    # 16 f's is 2^64-1, which the library takes as a size and waits for.
    ("chunk size of 17 f's", post([TE], b"fffffffffffffffff\r\nabc"),
     ("library", 413)),
    ("chunk size of 16 f's", post([TE], b"ffffffffffffffff\r\nabc"),
     ("bounded",)),
    ("chunk size larger than the chunk", post([TE],
                                             chunked(BODY, len(BODY) + 10)),
     ("bounded",)),
    ("chunk size smaller than the chunk", post([TE], chunked(BODY, 5)),
     ("library", 400)),
    ("chunk size not hex", post([TE], b"xyz\r\n" + BODY + b"\r\n0\r\n\r\n"),
     ("library", 400)),
    ("chunk extension", post([TE], b"%x;name=value\r\n%s\r\n0\r\n\r\n"
                             % (len(BODY), BODY)), ("ok", 200, False)),
    # Item 9/10: Content-Length values the library refuses before the
    # handler (its answer has its headers twice).
    ("Content-Length: -1", post([("Content-Length", "-1")]), ("library", 400)),
    ("Content-Length: +5", post([("Content-Length", "+5")]), ("library", 400)),
    ("Content-Length: 0x10", post([("Content-Length", "0x10")]),
     ("library", 400)),
    ("Content-Length: 12 34", post([("Content-Length", "12 34")]),
     ("library", 400)),
    ("Content-Length with a trailing space", post([b"Content-Length: 5 "],
                                                  b"{}   "),
     ("library", 400)),
    ("Content-Length: 2^64", post([("Content-Length", str(2 ** 64))]),
     ("library", 413)),
    ("Content-Length: 2^64-1", post([("Content-Length", str(2 ** 64 - 1))]),
     ("problem", 413, "body_too_large")),
    # Item 9/11: header and request-line bytes the library dropped.
    ("obsolete line folding", post([("Content-Length", str(len(BODY))),
                                    b"X-Folded: a", b" b"]),
     ("problem", 400, "bad_header")),
    ("bare LF as line end", b"GET /livez HTTP/1.1\nHost: x\n\n",
     ("problem", 400, "bad_header")),
    ("bare LF ending the headers", b"GET /livez HTTP/1.1\r\nHost: x\r\n\n",
     ("problem", 400, "bad_header")),
    ("NUL in a header value", request("GET", "/livez", [b"X-A: a\x00b"]),
     ("problem", 400, "bad_header")),
    ("NUL in a header name (no colon left: the library's)",
     request("GET", "/livez", [b"X-\x00A: a"]), ("library", 400)),
    ("NUL hiding a Content-Length",
     post([b"X-A: a\x00\r\nContent-Length: 5", ("Content-Length",
                                                 str(len(BODY)))]),
     ("problem", 400, "bad_header")),
    ("bare CR in a header value", request("GET", "/livez", [b"X-A: a\rb"]),
     ("problem", 400, "bad_header")),
    ("space before the colon", post([b"Content-Length : 5"], b"{}   "),
     ("problem", 400, "bad_header")),
    ("NUL in the path", request("GET", "/livez\x00"),
     ("problem", 400, "bad_request_line")),
    ("NUL in the method", b"GET\x00X /livez HTTP/1.1\r\nHost: x\r\n\r\n",
     ("problem", 400, "bad_request_line")),
    ("bare CR in the path", request("GET", "/livez\rx"),
     ("problem", 400, "bad_request_line")),
    ("%00 in the path (decoded: no route)", request("GET", "/livez%00"),
     ("problem", 404, "not_found", False)),
    ("HTTP/1.1 without Host", request("GET", "/livez", host=False),
     ("problem", 400, "missing_host")),
    ("Host twice", request("GET", "/livez", [("Host", "other")]),
     ("problem", 400, "bad_header")),
    ("HTTP/1.0 without Host",
     b"GET /livez HTTP/1.0\r\n\r\n", ("ok", 200, True)),
    # Item 11: an oversized chunked body is read, answered 413 and closed.
    ("oversized chunked body", post([TE], chunked(b" " * 20000)),
     ("problem", 413, "body_too_large")),
]


def check_case(res, d, name, data, want):
    res.case = name
    s = hostile.connect(d.port)
    rd = hostile.Reader(s)
    started = time.monotonic()
    hostile.send(s, data)
    kind = want[0]
    if kind == "problem":
        res.expect(rd.response(started), want[1],
                   closed=want[3] if len(want) > 3 else True, rd=rd,
                   code=want[2])
    elif kind == "ok":
        r = rd.response(started)
        res.expect(r, want[1], closed=want[2], rd=rd)
    elif kind == "library":
        raw, closed_ms, first_ms = hostile.read_all(rd, started)
        res.check(raw.startswith(b"HTTP/1.1 %d " % want[1]),
                  "the library's %d" % want[1], repr(raw[:120]))
        res.check(first_ms is not None and first_ms <= hostile.ANSWER_MS,
                  "answered within %g ms" % hostile.ANSWER_MS, first_ms)
        res.check(closed_ms is not None, "connection closed", repr(raw[-80:]))
    else:  # bounded: the idle timeout closes it, with no answer
        raw, closed_ms, _ = hostile.read_all(rd, started,
                                             wait=TIMEOUT_S + 1.5)
        res.check(closed_ms is not None and raw == b"",
                  "closed by --timeout %d s without an answer" % TIMEOUT_S,
                  "%r after %s ms" % (raw[:80], closed_ms))
    s.close()


def check_expect_continue(res, d):
    """Expect: 100-continue: a body over the limit is refused before it is
    sent (no 100), a small one is invited (100) and answered."""
    res.case = "Expect: 100-continue, oversized"
    r, rd = hostile.exchange(d.port, post([("Content-Length", "100000"),
                                           ("Expect", "100-continue")], b""))
    res.check(r.interim == [], "no 100 Continue", r.interim)
    res.expect(r, 413, closed=True, rd=rd, code="body_too_large")
    rd.sock.close()

    res.case = "Expect: 100-continue, small"
    s = hostile.connect(d.port)
    rd = hostile.Reader(s)
    hostile.send(s, post([("Content-Length", str(len(BODY))),
                          ("Expect", "100-continue")], b""))
    line = rd._line(time.monotonic() + hostile.WAIT_S)
    res.check(line is not None and line.startswith(b"HTTP/1.1 100"),
              "100 Continue first", line)
    rd._line(time.monotonic() + hostile.WAIT_S)  # the empty line after it
    started = time.monotonic()
    hostile.send(s, BODY)
    res.expect(rd.response(started), 200, closed=False, rd=rd)
    s.close()


def check_pipelined(res, d):
    """Requests behind a refused one on the same connection are never
    answered; behind good ones they are (so the refusal is what stops
    them)."""
    res.case = "pipelined behind two good ones"
    s = hostile.connect(d.port)
    rd = hostile.Reader(s)
    started = time.monotonic()
    hostile.send(s, request("GET", "/livez") * 2 + request("GET", "/readyz"))
    for want in (200, 200, 200):
        res.expect(rd.response(started), want)
    s.close()

    res.case = "pipelined behind a refused one"
    s = hostile.connect(d.port)
    rd = hostile.Reader(s)
    started = time.monotonic()
    hostile.send(s, post([("Content-Length", str(len(BODY))), TE],
                         chunked(BODY)) + request("GET", "/livez"))
    res.expect(rd.response(started), 400, closed=True, rd=rd,
               code="bad_framing")
    s.close()

    res.case = "pipelined behind the library's refusal"
    s = hostile.connect(d.port)
    rd = hostile.Reader(s)
    started = time.monotonic()
    hostile.send(s, post([("Content-Length", "-1")]) +
                 request("GET", "/livez"))
    raw, closed_ms, _ = hostile.read_all(rd, started)
    res.check(raw.startswith(b"HTTP/1.1 400 ") and b"200 OK" not in raw,
              "only the library's 400", repr(raw[:200]))
    res.check(closed_ms is not None, "connection closed")
    s.close()


def check_left_mid_request(res, d):
    """Clients that leave within the request line, the headers or the body:
    the request made for them at the request line is let go (under ASan,
    LeakSanitizer fails the exit status otherwise)."""
    res.case = "clients leaving mid-request"
    for part in (b"GET /livez?a=1", b"GET /livez HTTP/1.1\r\nHost: x\r\nX-A: ",
                 post([("Content-Length", str(len(BODY)))], BODY[:10]),
                 post([TE], b"10\r\nabc")):
        s = hostile.connect(d.port)
        hostile.send(s, part)
        s.close()
    res.check(hostile.get(d.port, "/livez").status == 200,
              "served after they left")


# Answers the pipelined and Expect cases add to the counts of CASES.
EXTRA_CODES = {"400": 2, "413": 1}


def expected_codes():
    """How many answers of each refusal status the cases must have made:
    http_requests_total must have counted each (the library's included)."""
    want = dict(EXTRA_CODES)
    for _, _, w in CASES:
        if w[0] in ("problem", "library") and "uncounted" not in w:
            code = str(w[1])
            want[code] = want.get(code, 0) + 1
    return want


def run(binary, res):
    with hostile.Daemon(binary, ["--timeout", str(TIMEOUT_S)]) as d:
        before = hostile.metrics(d.port)
        normal = hostile.NormalClient(d.port)
        normal.start()
        res.case = "normal client"
        res.check(normal.wait_served(4), "normal client served",
                  normal.errors)
        for name, data, want in CASES:
            served = normal.served
            check_case(res, d, name, data, want)
            res.check(normal.wait_served(served + 1),
                      "normal client served meanwhile", normal.errors)
        check_expect_continue(res, d)
        check_pipelined(res, d)
        check_left_mid_request(res, d)

        res.case = "metrics"
        after = hostile.metrics(d.port)
        for code, n in sorted(expected_codes().items()):
            got = hostile.count(after, "http_requests_total", code=code) - \
                hostile.count(before, "http_requests_total", code=code)
            res.check(got == n, "http_requests_total code=%s counted %d" %
                      (code, n), "counted %g" % got)

        normal.stop()
        res.case = "normal client"
        res.check(not normal.errors, "no error", normal.errors)
        res.check(normal.worst_ms <= hostile.ANSWER_MS,
                  "worst answer within %g ms" % hostile.ANSWER_MS,
                  "%.1f ms" % normal.worst_ms)
        print("normal client: %d answers, %d reconnects, worst %.1f ms" %
              (normal.served, normal.reconnects, normal.worst_ms), flush=True)
        res.case = "daemon"
        res.check(d.alive(), "still running")
        status = d.stop()
        res.check(status == 0, "exit status 0 on SIGTERM",
                  "%s: %s" % (status, "".join(d.log[-5:])))
