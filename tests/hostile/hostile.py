# hostile.py - the raw-socket harness of the hostile suite (Python 3,
# standard library only): starts a sudokud on a free port, speaks bytes to
# it on plain sockets (no HTTP library in between that would fix the input
# up), reads whole answers against a deadline, tells a closed connection
# from an open one, and keeps a normal client busy on its own connection.
# A module tests/hostile/test_<name>.py defines run(binary, results): it
# starts its own Daemon, sets results.case before its checks, and calls
# results.check / results.expect; run.py runs every module in name order.
import json
import os
import select
import signal
import socket
import subprocess
import threading
import time

# How long a hostile case may take to be answered, and how long a reader
# waits at most before it calls the server hung (the idle timeout is 10 s).
ANSWER_MS = float(os.environ.get("HOSTILE_ANSWER_MS", "100"))
WAIT_S = float(os.environ.get("HOSTILE_WAIT_S", "3"))

EXAMPLE = ("9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687"
           ".........8.9.4.9...5.")
EXAMPLE_SOLUTION = ("957214386824736591361859742495372618786491235132568974"
                    "519687423273145869648923157")


# ---------------------------------------------------------------------------
# The daemon
# ---------------------------------------------------------------------------

class Daemon:
    """A sudokud on 127.0.0.1 and a port of the kernel's choosing. Its
    stdout and stderr are read by a thread all along (a full pipe would block
    its log writes) and kept in self.log."""

    def __init__(self, binary, args=()):
        self.binary = binary
        self.args = ["--port", "0", "--bind", "127.0.0.1", "--threads", "2",
                     *args]
        self.proc = None
        self.port = None
        self.log = []
        self._lock = threading.Lock()
        self._seen = threading.Condition(self._lock)

    def _pump(self, stream):
        for line in iter(stream.readline, b""):
            with self._lock:
                self.log.append(line.decode("utf-8", "replace"))
                self._seen.notify_all()

    def start(self, timeout=5.0):
        self.proc = subprocess.Popen([self.binary, *self.args],
                                     stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        for s in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self._pump, args=(s,), daemon=True).start()
        line = self.wait_log('"msg":"listening"', timeout)
        if line is None:
            self.stop()
            raise RuntimeError("sudokud did not start: " + "".join(self.log))
        self.port = json.loads(line)["port"]
        return self

    def wait_log(self, needle, timeout):
        """The first log line holding needle, waiting up to timeout s; None
        when none came."""
        end = time.monotonic() + timeout
        with self._lock:
            while True:
                for line in self.log:
                    if needle in line:
                        return line
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return None
                self._seen.wait(left)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=10.0):
        """SIGTERM, then the exit status (None if it had to be killed)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# ---------------------------------------------------------------------------
# Raw sockets
# ---------------------------------------------------------------------------

def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def send(sock, data):
    """Sends all of data; False when the server has reset the connection
    (it may close on a bad request before reading the rest)."""
    try:
        sock.sendall(data)
        return True
    except (BrokenPipeError, ConnectionResetError):
        return False


class Response:
    """One answer as read off the wire: status, headers (names lowered,
    repeated ones all kept), body, and when it was complete (ms after the
    deadline's start). status is None when nothing whole arrived."""

    def __init__(self):
        self.status = None
        self.reason = ""
        self.headers = []
        self.body = b""
        self.ms = None
        self.interim = []   # 1xx status codes seen before it
        self.closed = False  # the server closed while it was read
        self.error = None    # why no whole answer arrived

    def header(self, name):
        name = name.lower()
        for k, v in self.headers:
            if k == name:
                return v
        return None

    def header_all(self, name):
        return [v for k, v in self.headers if k == name.lower()]

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def __repr__(self):
        if self.status is None:
            return "<no answer: %s>" % self.error
        return "<%d %s, %.1f ms, %d body bytes%s>" % (
            self.status, self.reason, self.ms, len(self.body),
            ", closed" if self.closed else "")


class Reader:
    """Reads answers off one socket; bytes past one answer are kept for the
    next (pipelined answers)."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.eof = False

    def _fill(self, deadline):
        """More bytes into buf; False at EOF or when the deadline passed."""
        if self.eof:
            return False
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        # poll, not select: the memory cases hold over 1,024 descriptors.
        p = select.poll()
        p.register(self.sock, select.POLLIN)
        if not p.poll(left * 1000):
            return False
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            data = b""
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def _line(self, deadline):
        while b"\n" not in self.buf:
            if not self._fill(deadline):
                return None
        line, self.buf = self.buf.split(b"\n", 1)
        return line.rstrip(b"\r")

    def _take(self, n, deadline):
        while len(self.buf) < n:
            if not self._fill(deadline):
                return None
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def response(self, started=None, wait=WAIT_S, head=False):
        """The next whole answer (1xx interim answers are skipped and noted).
        started: time.monotonic() when the request went out (now if None).
        head: the answer has no body (a HEAD request)."""
        started = time.monotonic() if started is None else started
        deadline = started + wait
        r = Response()
        while True:
            line = self._line(deadline)
            if line is None:
                r.error = "closed" if self.eof else "timeout"
                r.closed = self.eof
                return r
            parts = line.decode("latin-1").split(" ", 2)
            if len(parts) < 2 or not parts[0].startswith("HTTP/") or \
                    not parts[1].isdigit():
                r.error = "bad status line %r" % line
                return r
            status = int(parts[1])
            headers = []
            while True:
                h = self._line(deadline)
                if h is None:
                    r.error = "headers cut (%s)" % ("closed" if self.eof else "timeout")
                    r.closed = self.eof
                    return r
                if h == b"":
                    break
                k, _, v = h.decode("latin-1").partition(":")
                headers.append((k.strip().lower(), v.strip()))
            if 100 <= status < 200:
                r.interim.append(status)
                continue
            r.status, r.reason, r.headers = status, parts[2] if len(parts) > 2 else "", headers
            break
        te = r.header("transfer-encoding")
        cl = r.header("content-length")
        if head or status in (204, 304):
            pass
        elif te is not None and "chunked" in te.lower():
            body = b""
            while True:
                size = self._line(deadline)
                if size is None:
                    r.error = "chunked body cut"
                    return r
                n = int(size.split(b";")[0], 16)
                if n == 0:
                    while (t := self._line(deadline)) not in (b"", None):
                        pass
                    break
                chunk = self._take(n + 2, deadline)
                if chunk is None:
                    r.error = "chunked body cut"
                    return r
                body += chunk[:-2]
            r.body = body
        elif cl is not None:
            body = self._take(int(cl), deadline)
            if body is None:
                r.error = "body cut"
                return r
            r.body = body
        else:
            while self._fill(deadline):
                pass
            r.body, self.buf = self.buf, b""
        r.ms = (time.monotonic() - started) * 1000.0
        r.closed = self.eof
        return r

    def closed(self, wait=1.0):
        """True when the server closes the connection within wait s with
        nothing more sent; False when it stays open (or sends more: see
        self.buf)."""
        if self.buf:
            return False
        deadline = time.monotonic() + wait
        while self._fill(deadline):
            return False
        return self.eof


def read_all(rd, started=None, wait=WAIT_S):
    """Every byte the server sends until it closes the connection, for
    answers too broken to parse; (bytes, ms until the close or None when it
    stayed open past wait, ms until the first byte or None)."""
    started = time.monotonic() if started is None else started
    deadline = started + wait
    first = (time.monotonic() - started) * 1000.0 if rd.buf else None
    while rd._fill(deadline):
        if first is None:
            first = (time.monotonic() - started) * 1000.0
    data, rd.buf = rd.buf, b""
    closed = (time.monotonic() - started) * 1000.0 if rd.eof else None
    return data, closed, first


def cpu_s(pid):
    """The process's user + system CPU time in seconds (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def exchange(port, data, wait=WAIT_S, head=False):
    """Sends data on a new connection and reads one answer. Returns the
    answer and the connection's Reader (whose socket the caller closes)."""
    s = connect(port)
    rd = Reader(s)
    started = time.monotonic()
    send(s, data)
    return rd.response(started, wait, head), rd


# ---------------------------------------------------------------------------
# Requests and metrics
# ---------------------------------------------------------------------------

def request(method, path, headers=(), body=b"", host=True):
    """An HTTP/1.1 request's bytes; headers are (name, value) pairs or raw
    bytes lines, written as given (nothing is added but Host)."""
    out = b"%s %s HTTP/1.1\r\n" % (method.encode(), path.encode())
    if host:
        out += b"Host: 127.0.0.1\r\n"
    for h in headers:
        out += h + b"\r\n" if isinstance(h, bytes) else \
            ("%s: %s\r\n" % h).encode("latin-1")
    return out + b"\r\n" + body


def solve_body():
    return json.dumps({"board": EXAMPLE}).encode()


def get(port, path):
    """A plain GET on a new connection (a well-behaved client)."""
    r, rd = exchange(port, request("GET", path, [("Connection", "close")]))
    rd.sock.close()
    return r


def metrics(port):
    """The samples of GET /metrics: {'name{labels}': value}."""
    r = get(port, "/metrics")
    out = {}
    for line in r.body.decode().splitlines():
        if line and not line.startswith("#"):
            k, _, v = line.rpartition(" ")
            try:
                out[k] = float(v)
            except ValueError:
                pass
    return out


def count(samples, prefix, **labels):
    """The sum of the samples of a metric whose labels include labels."""
    total = 0.0
    want = ['%s="%s"' % kv for kv in labels.items()]
    for k, v in samples.items():
        name = k.split("{", 1)[0]
        if name == prefix and all(w in k for w in want):
            total += v
    return total


# ---------------------------------------------------------------------------
# A normal client
# ---------------------------------------------------------------------------

class NormalClient(threading.Thread):
    """Keeps one keep-alive connection busy with GET /livez and POST /solve
    while the hostile cases run on others; checks every answer and records
    the slowest. A closed connection is opened again (and counted)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.stop_flag = threading.Event()
        self.served = 0
        self.worst_ms = 0.0
        self.errors = []
        self.reconnects = 0

    def _one(self, rd, i):
        if i % 2:
            data = request("GET", "/livez")
        else:
            body = solve_body()
            data = request("POST", "/solve",
                           [("Content-Type", "application/json"),
                            ("Content-Length", str(len(body)))], body)
        started = time.monotonic()
        if not send(rd.sock, data):
            return "send failed"
        r = rd.response(started)
        if r.status != 200:
            return "%s on %s" % (r, "livez" if i % 2 else "solve")
        if not i % 2 and (r.json() or {}).get("solution") != EXAMPLE_SOLUTION:
            return "wrong /solve answer: %r" % r.body[:200]
        self.worst_ms = max(self.worst_ms, r.ms)
        self.served += 1
        return None

    def run(self):
        rd = None
        i = 0
        while not self.stop_flag.is_set():
            if rd is None:
                try:
                    rd = Reader(connect(self.port))
                except OSError as e:
                    self.errors.append("connect: %s" % e)
                    return
            err = self._one(rd, i)
            i += 1
            if err is not None:
                self.errors.append(err)
                rd.sock.close()
                rd = None
                if len(self.errors) > 20:
                    return
            elif rd.eof:
                self.reconnects += 1
                rd.sock.close()
                rd = None
            # About 200 requests a second: steady traffic, not a benchmark.
            self.stop_flag.wait(0.005)
        if rd is not None:
            rd.sock.close()

    def wait_served(self, n, timeout=2.0):
        """Waits until at least n answers were served in all."""
        end = time.monotonic() + timeout
        while self.served < n and time.monotonic() < end and self.is_alive():
            time.sleep(0.002)
        return self.served >= n

    def stop(self):
        self.stop_flag.set()
        self.join(5)


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

class Results:
    """Counts checks; each failure is printed with its detail at once."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.case = ""

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s: %s%s" % (self.case, what,
                                     (" (%s)" % detail) if detail else ""),
                  flush=True)
        return ok

    def expect(self, r, status, closed=None, rd=None, code=None,
               ms=ANSWER_MS):
        """The usual checks of one answer: its status, within ms, as
        problem+json with that code and an X-Request-Id when code is given,
        and the connection closed (True) or kept open (False) after it when
        closed is not None (rd: the connection's Reader)."""
        ok = self.check(r.status == status, "status %s" % status, repr(r))
        if r.status is None:
            return False
        ok &= self.check(r.ms <= ms, "answered within %g ms" % ms, repr(r))
        if code is not None:
            p = r.json() or {}
            ok &= self.check(
                r.header("content-type") == "application/problem+json" and
                p.get("code") == code and p.get("status") == status,
                "problem+json with code %s" % code,
                "%s %r" % (r.header("content-type"), r.body[:300]))
            ok &= self.check(bool(r.header("x-request-id")) and
                             p.get("request_id") == r.header("x-request-id"),
                             "X-Request-Id", repr(r.headers))
        if closed is not None:
            is_closed = rd.closed()
            ok &= self.check(is_closed == closed,
                             "connection %s" % ("closed" if closed else "open"),
                             "buffered %r" % rd.buf[:200])
        return ok

    def summary(self):
        print("hostile: %d passed, %d failed" % (self.passed, self.failed),
              flush=True)
        return 1 if self.failed else 0
