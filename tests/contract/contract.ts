// contract.ts - openapi.yaml as a contract. A client generated from the
// spec (openapi-typescript types, openapi-fetch calls; compiled with
// tsc --strict, so a member the spec makes required that the service does
// not need breaks the build) calls every route of real sudokud daemons with
// good and bad bodies; every answer is checked against the spec: its status
// is documented for that operation, its media type is one the response
// lists, and its body validates against that schema (ajv, JSON Schema
// 2020-12). Requests a generated client cannot make (bad framing, undeclared
// methods, a body cut short) go over raw sockets and are checked alike.
// Usage: node out/contract.js SUDOKUD_BINARY OPENAPI_YAML
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import * as net from "node:net";
import { parse as parseYaml } from "yaml";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// The CommonJS default exports, as ESM sees them.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type SolveRequest = components["schemas"]["SolveRequest"];
type BatchRequest = components["schemas"]["BatchRequest"];
type GenerateRequest = components["schemas"]["GenerateRequest"];
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const [binary, specPath] = process.argv.slice(2);
if (binary === undefined || specPath === undefined) {
    console.error("usage: node out/contract.js SUDOKUD_BINARY OPENAPI_YAML");
    process.exit(2);
}
const spec = parseYaml(readFileSync(specPath, "utf8")) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};
const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, "openapi");

let passed = 0;
let failed = 0;
const seen = new Set<string>(); // "METHOD path status code"

function ok(cond: boolean, what: string, detail = ""): boolean {
    if (cond) passed++;
    else {
        failed++;
        console.log(`FAIL ${what}${detail ? ` (${detail})` : ""}`);
    }
    return cond;
}

// ---------------------------------------------------------------------------
// The spec's answer for (path, method, status)
// ---------------------------------------------------------------------------

const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

function at(ptr: string): unknown {
    let node: unknown = spec;
    for (const part of ptr.replace(/^#\//, "").split("/")) {
        const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
        node = (node as Record<string, unknown> | undefined)?.[key];
    }
    return node;
}

/* The response object (its JSON pointer, $refs followed) that documents
 * this answer, or null. A method the path does not declare is the 405 the
 * spec shows under SolveMethodNotAllowed / ReadMethodNotAllowed; a path that
 * is no endpoint, ClientProblem's 404. */
function documented(path: string, method: string, status: number) {
    const item = spec.paths[path];
    let ptr: string | null = null;
    if (item === undefined) {
        ptr = status === 404 ? "#/components/responses/ClientProblem" : null;
    } else if (item[method.toLowerCase()] === undefined) {
        if (status === 405)
            ptr = item["post"] !== undefined
                ? "#/components/responses/SolveMethodNotAllowed"
                : "#/components/responses/ReadMethodNotAllowed";
    } else {
        const rs = item[method.toLowerCase()]!.responses;
        const key = [String(status), `${String(status)[0]}XX`, "default"]
            .find((k) => k in rs);
        if (key !== undefined)
            ptr = `#/paths/${esc(path)}/${method.toLowerCase()}/responses/${key}`;
    }
    for (let i = 0; ptr !== null && i < 8; i++) {
        const obj = at(ptr) as { $ref?: string } | undefined;
        if (obj === undefined) return null;
        if (obj.$ref === undefined) return { ptr, obj: obj as { content?: Record<string, unknown> } };
        ptr = obj.$ref;
    }
    return null;
}

interface Answer {
    status: number;
    headers: Headers;
    text: string;
}

/* Checks one answer against the spec; `code` is the problem code expected
 * (or undefined for a success). */
function check(label: string, path: string, method: string, a: Answer,
               want: number, code?: string): void {
    const header = a.headers.get("content-type") ?? "";
    const base = (t: string) => t.split(";")[0]!.trim().toLowerCase();
    const ctype = base(header);
    const key = `${method} ${path} ${a.status}${code ? " " + code : ""}`;
    seen.add(key);
    if (!ok(a.status === want, `${label}: status ${want}`, `got ${a.status}: ${a.text.slice(0, 200)}`))
        return;
    const doc = documented(path, method, a.status);
    if (!ok(doc !== null, `${label}: ${a.status} documented for ${method} ${path}`))
        return;
    const rid = a.headers.get("x-request-id");
    ok(rid !== null && rid.length > 0, `${label}: X-Request-Id`);
    if (method === "HEAD" || a.status === 204) {
        ok(a.text.length === 0, `${label}: no body`);
        return;
    }
    const content = doc!.obj.content;
    if (content === undefined) {
        ok(a.text.length === 0, `${label}: the spec documents no body`, a.text.slice(0, 100));
        return;
    }
    const media = Object.keys(content).find((k) => k === header) ??
        Object.keys(content).find((k) => base(k) === ctype);
    if (!ok(media !== undefined, `${label}: media type ${header} documented`,
            Object.keys(content).join(", ")))
        return;
    const validate = ajv.getSchema(`openapi${doc!.ptr}/content/${esc(media!)}/schema`);
    if (!ok(validate !== undefined, `${label}: a schema for ${ctype}`))
        return;
    let value: Json = a.text;
    if (ctype === "application/x-ndjson") {
        // The schema says text; each line is one result.
        const line = ajv.getSchema("openapi#/components/schemas/BatchResult")!;
        for (const l of a.text.split("\n").filter((x) => x !== ""))
            ok(line(JSON.parse(l)) === true, `${label}: NDJSON line valid`, l.slice(0, 200));
    } else if (ctype.endsWith("json")) {
        try {
            value = JSON.parse(a.text) as Json;
        } catch {
            ok(false, `${label}: the body is JSON`, a.text.slice(0, 100));
            return;
        }
    }
    ok(validate!(value) === true, `${label}: body valid against ${doc!.ptr}`,
       JSON.stringify(validate!.errors ?? []).slice(0, 400));
    if (code !== undefined) {
        const p = value as { code?: string; request_id?: string };
        ok(p.code === code, `${label}: code ${code}`, `got ${String(p.code)}`);
        ok(p.request_id === rid, `${label}: request_id is the X-Request-Id`);
    }
}

// ---------------------------------------------------------------------------
// Daemons and raw sockets
// ---------------------------------------------------------------------------

interface Daemon {
    proc: ChildProcess;
    port: number;
    base: string;
    log: string[]; /* its stdout so far */
}

const running: ChildProcess[] = []; /* killed if the test ends early */
process.on("exit", () => running.forEach((p) => p.exitCode === null && p.kill("SIGKILL")));

function start(args: string[]): Promise<Daemon> {
    return new Promise((resolve, reject) => {
        const proc = spawn(binary!, ["--port", "0", "--bind", "127.0.0.1",
                                     "--access-log", "off", ...args],
                           { stdio: ["ignore", "pipe", "inherit"] });
        running.push(proc);
        const log: string[] = [];
        let started = false;
        const timer = setTimeout(() => reject(new Error("no listening line")), 5000);
        proc.stdout!.on("data", (d: Buffer) => {
            log.push(d.toString());
            const m = /"msg":"listening".*?"port":(\d+)/.exec(log.join(""));
            if (m !== null && !started) {
                started = true;
                clearTimeout(timer);
                const port = Number(m[1]);
                resolve({ proc, port, base: `http://127.0.0.1:${port}`, log });
            }
        });
        proc.on("exit", () => reject(new Error("sudokud exited")));
    });
}

/* Waits (5 s at most) until the daemon has logged `needle`. */
async function logged(d: Daemon, needle: string): Promise<boolean> {
    for (let i = 0; i < 500; i++) {
        if (d.log.join("").includes(needle)) return true;
        await new Promise((r) => setTimeout(r, 10));
    }
    return false;
}

/* A request whose headers the server has taken in (its "100 Continue"
 * came) and whose body is not sent yet. */
function held(port: number, head: string): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
        const sock = net.connect(port, "127.0.0.1");
        let got = "";
        sock.on("connect", () => sock.write(`${head}\r\nExpect: 100-continue\r\n\r\n`));
        sock.on("data", (d: Buffer) => {
            got += d.toString("latin1");
            if (got.includes("\r\n\r\n")) {
                sock.removeAllListeners("data");
                if (got.startsWith("HTTP/1.1 100")) resolve(sock);
                else reject(new Error(`no 100 Continue: ${got.slice(0, 80)}`));
            }
        });
        sock.on("error", reject);
    });
}

/* Sends the rest of a held request and reads its answer. */
function finish(sock: net.Socket, body: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
        let got = Buffer.alloc(0);
        const done = () => {
            const a = parseRaw(got);
            if (a !== null) { sock.destroy(); resolve(a); return true; }
            return false;
        };
        sock.on("data", (d: Buffer) => { got = Buffer.concat([got, d]); done(); });
        sock.on("close", () => { if (!done()) reject(new Error("no answer")); });
        sock.write(body);
    });
}

function stop(d: Daemon): Promise<number | null> {
    return new Promise((resolve) => {
        if (d.proc.exitCode !== null) return resolve(d.proc.exitCode);
        d.proc.on("exit", (code) => resolve(code));
        d.proc.kill("SIGTERM");
    });
}

/* One answer read off a socket: the status line, headers, and the body
 * (Content-Length, or until the server closes). */
function parseRaw(raw: Buffer): Answer | null {
    const end = raw.indexOf("\r\n\r\n");
    if (end < 0) return null;
    const head = raw.subarray(0, end).toString("latin1").split("\r\n");
    const m = /^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? "");
    if (m === null) return null;
    const headers = new Headers();
    for (const line of head.slice(1)) {
        const i = line.indexOf(":");
        headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
    }
    const cl = headers.get("content-length");
    const body = raw.subarray(end + 4, cl === null ? undefined : end + 4 + Number(cl));
    if (cl !== null && body.length < Number(cl)) return null;
    return { status: Number(m[1]), headers, text: body.toString("utf8") };
}

/* Sends `parts` on a new connection (awaiting `between` after each but the
 * last) and resolves with the first whole answer. */
function raw(port: number, parts: (string | Buffer)[],
             between: (i: number) => Promise<void> = async () => {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
        const sock = net.connect(port, "127.0.0.1");
        let got = Buffer.alloc(0);
        let done = false;
        const finish = () => {
            const a = parseRaw(got);
            if (a !== null && !done) {
                done = true;
                sock.destroy();
                resolve(a);
            }
        };
        sock.on("data", (d: Buffer) => { got = Buffer.concat([got, d]); finish(); });
        sock.on("error", () => finish());
        sock.on("close", () => { finish(); if (!done) reject(new Error("no answer")); });
        sock.on("connect", async () => {
            for (let i = 0; i < parts.length; i++) {
                if (sock.destroyed) return;
                sock.write(parts[i]!);
                if (i + 1 < parts.length) await between(i);
            }
        });
        setTimeout(() => { if (!done) { sock.destroy(); reject(new Error("timeout")); } }, 5000);
    });
}

// ---------------------------------------------------------------------------
// The calls
// ---------------------------------------------------------------------------

const EXAMPLE = "9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687.........8.9.4.9...5.";
const ROWS = EXAMPLE.match(/.{9}/g)!;
// No solution, and the solver needs 200,998 nodes to show it: over any
// small budget, and twice the default one (17 givens, found by
// hill-climbing the solver's node count over random boards).
const EXHAUSTING = "41...9.8...................3..1.8........47.........69.47....3..83.4....1........";
const SOLVED = "957214386824736591361859742495372618786491235132568974519687423273145869648923157";
const EMPTY = ".".repeat(81);
const bad = <T>(v: unknown) => v as T; // a body the types rightly refuse

type Client = ReturnType<typeof createClient<paths>>;

/* The bytes of every answer the client got, as they came (openapi-fetch
 * parses an error's body itself). */
const bodies = new WeakMap<Response, string>();
async function recording(req: Request): Promise<Response> {
    const r = await fetch(req);
    bodies.set(r, await r.clone().text());
    return r;
}

/* An openapi-fetch call's answer, its body as it came. */
async function answer(p: Promise<{ response: Response }>): Promise<Answer> {
    const { response } = await p;
    return { status: response.status, headers: response.headers, text: bodies.get(response) ?? "" };
}

// A 6x6 puzzle, and a 9x9 jigsaw with its region map (both from
// POST /generate, seeds 4 and 5).
const SIX = ".51..6........4.6.1......1.......34.";
const JIGSAW = ["AAAABBCCC", "AAABBBCCC", "AABBBBCCC", "DDDEEEEFF", "DDDEEFFFF",
                "DDDEEEFFF", "GGGHHHIII", "GGGHHHIII", "GGGHHHIII"];
const JIGSAW_PUZZLE = ["....89...", "...1.....", "......5.8", "...7.....",
                       ".9.41....", ".72....6.", "..5.2...1", "4....3..6", "...9....4"];

async function routes(api: Client, d: Daemon): Promise<void> {
    const text = { parseAs: "text" as const };
    const solve = (body: SolveRequest) => api.POST("/solve", { body, ...text });
    const cases: [string, string, Promise<{ response: Response }>, number, string?][] = [
        ["solve rows", "/solve", solve({ board: ROWS }), 200],
        ["solve line", "/solve", solve({ board: EXAMPLE }), 200],
        ["solve invalid_request", "/solve", solve(bad<SolveRequest>({ board: 42 })), 400, "invalid_request"],
        ["solve invalid_board", "/solve", solve({ board: "123" }), 422, "invalid_board"],
        ["solve conflict", "/solve", solve({ board: "55" + ".".repeat(79) }), 422, "conflict"],
        ["solve no_solution", "/solve", solve({ board: "12345678.........9" + ".".repeat(63) }), 422, "no_solution"],
        ["solve multiple_solutions", "/solve", solve({ board: EMPTY }), 422, "multiple_solutions"],
        ["cage_cell_out_of_range", "/solve", solve(bad<SolveRequest>({ board: EMPTY, cages: [{ sum: 3, cells: [[0, 9], [0, 1]] }] })), 422, "cage_cell_out_of_range"],
        ["cage_overlap", "/solve", solve({ board: EMPTY, cages: [{ sum: 3, cells: [[0, 0], [0, 1]] }, { sum: 12, cells: [[0, 1], [1, 1]] }] }), 422, "cage_overlap"],
        ["cage_not_connected", "/solve", solve({ board: EMPTY, cages: [{ sum: 3, cells: [[0, 0], [5, 5]] }] }), 422, "cage_not_connected"],
        ["cage_sum_impossible", "/solve", solve({ board: EMPTY, cages: [{ sum: 30, cells: [[0, 0], [0, 1]] }] }), 422, "cage_sum_impossible"],
        // 81 one-cell cages: each sum possible, the total 406, not 405.
        ["cage_total_not_405", "/solve", solve({ board: EMPTY, cages: Array.from({ length: 81 }, (_, i) => ({ sum: i === 0 ? 6 : 5, cells: [[Math.floor(i / 9), i % 9]] })) }), 422, "cage_total_not_405"],
        ["cage_given_conflict", "/solve", solve({ board: "5" + ".".repeat(80), cages: [{ sum: 3, cells: [[0, 0], [0, 1]] }] }), 422, "cage_given_conflict"],
        ["validate", "/validate", api.POST("/validate", { body: { board: EXAMPLE }, ...text }), 200],
        ["validate conflict", "/validate", api.POST("/validate", { body: { board: "55" + ".".repeat(79) }, ...text }), 200],
        ["hint", "/hint", api.POST("/hint", { body: { board: EXAMPLE }, ...text }), 200],
        ["hint already_solved", "/hint", api.POST("/hint", { body: { board: SOLVED }, ...text }), 422, "already_solved"],
        ["hint killer multiple_solutions", "/hint", api.POST("/hint", { body: { board: EMPTY, cages: [{ sum: 3, cells: [[0, 0], [0, 1]] }] }, ...text }), 422, "multiple_solutions"],
        ["explain", "/explain", api.POST("/explain", { body: { board: EXAMPLE }, ...text }), 200],
        ["explain engine se", "/explain", api.POST("/explain", { body: { board: EXAMPLE, engine: "se" }, ...text }), 200],
        ["explain engine invalid_request", "/explain", api.POST("/explain", { body: bad<SolveRequest>({ board: EXAMPLE, engine: "hodoku" }), ...text }), 400, "invalid_request"],
        ["explain killer multiple_solutions", "/explain", api.POST("/explain", { body: { board: EMPTY, cages: [{ sum: 3, cells: [[0, 0], [0, 1]] }] }, ...text }), 422, "multiple_solutions"],
        ["generate by rating", "/generate", api.POST("/generate", { body: { min_rating: 1, max_rating: 2, seed: 7 }, ...text }), 200],
        ["grade", "/grade", api.POST("/grade", { body: { board: EXAMPLE }, ...text }), 200],
        ["grade killer multiple_solutions", "/grade", api.POST("/grade", { body: { board: EMPTY, cages: [{ sum: 3, cells: [[0, 0], [0, 1]] }] }, ...text }), 422, "multiple_solutions"],
        // Every member of /generate's body is optional: {} compiles.
        ["generate {}", "/generate", api.POST("/generate", { body: {}, ...text }), 200],
        ["generate seeded", "/generate", api.POST("/generate", { body: { difficulty: "easy", seed: 8000000000000001, symmetry: "rotational" }, ...text }), 200],
        ["generate invalid_difficulty", "/generate", api.POST("/generate", { body: bad<GenerateRequest>({ difficulty: "insane" }), ...text }), 422, "invalid_difficulty"],
        ["generate seed too large", "/generate", api.POST("/generate", { body: { seed: 2 ** 53 }, ...text }), 400, "invalid_request"],
        ["batch", "/solve/batch", api.POST("/solve/batch", { body: { boards: [EXAMPLE, ROWS, "123", EMPTY] }, ...text }), 200],
        ["batch batch_too_large", "/solve/batch", api.POST("/solve/batch", { body: { boards: Array(6).fill(EXAMPLE) as BatchRequest["boards"] }, ...text }), 413, "batch_too_large"],
        ["batch batch_too_complex", "/solve/batch", api.POST("/solve/batch", { body: bad<BatchRequest>({ boards: [Array(60).fill(0)] }), ...text }), 413, "batch_too_complex"],
        ["batch NDJSON", "/solve/batch", api.POST("/solve/batch", {
            body: bad<BatchRequest>(`${JSON.stringify(EXAMPLE)}\n${JSON.stringify({ board: ROWS })}\n"12"\n`),
            headers: { "Content-Type": "application/x-ndjson" },
            bodySerializer: (b: unknown) => b as string, ...text }), 200],
        // Other sizes and variants (issue 22).
        ["solve 6x6", "/solve", solve({ board: SIX }), 200],
        ["solve 9x9 jigsaw rows", "/solve", solve({ board: JIGSAW_PUZZLE, regions: JIGSAW }), 200],
        ["solve 16x16 conflict", "/solve", solve({ board: "GG" + ".".repeat(254) }), 422, "conflict"],
        ["solve knight conflict", "/solve", solve({ board: "..3" + ".".repeat(18) + "3" + ".".repeat(59), anti_knight: true }), 422, "conflict"],
        ["solve invalid_box", "/solve", solve({ board: ".".repeat(16), box: { rows: 3, columns: 2 } }), 422, "invalid_box"],
        ["solve invalid_regions", "/solve", solve({ board: ".".repeat(16), regions: "AABBAABBCCDDCDCD" }), 422, "invalid_regions"],
        ["solve invalid_extra_regions", "/solve", solve({ board: ".".repeat(16), extra_regions: [[[0, 0], [0, 4]]] }), 422, "invalid_extra_regions"],
        ["solve cages unsupported_variant", "/solve", solve({ board: SIX, cages: [{ sum: 3, cells: [[0, 0], [0, 1]] }] }), 422, "unsupported_variant"],
        ["validate diagonal conflict", "/validate", api.POST("/validate", { body: { board: "5" + ".".repeat(39) + "5" + ".".repeat(40), diagonals: true }, ...text }), 200],
        ["hint 6x6", "/hint", api.POST("/hint", { body: { board: SIX }, ...text }), 200],
        ["grade 6x6", "/grade", api.POST("/grade", { body: { board: SIX }, ...text }), 200],
        ["explain 6x6", "/explain", api.POST("/explain", { body: { board: SIX }, ...text }), 200],
        ["grade jigsaw", "/grade", api.POST("/grade", { body: { board: JIGSAW_PUZZLE, regions: JIGSAW }, ...text }), 200],
        ["generate 6x6", "/generate", api.POST("/generate", { body: { size: 6, seed: 4, diagonals: true }, ...text }), 200],
        ["generate jigsaw", "/generate", api.POST("/generate", { body: { regions: JIGSAW, seed: 5 }, ...text }), 200],
        ["batch variants", "/solve/batch", api.POST("/solve/batch", { body: { boards: [SIX, { board: JIGSAW_PUZZLE, regions: JIGSAW }, { board: ".".repeat(16), regions: "AABBAABBCCDDCDCD" }] }, ...text }), 200],
        ["generate invalid_size", "/generate", api.POST("/generate", { body: bad<GenerateRequest>({ size: 10 }), ...text }), 422, "invalid_size"],
        ["generate 6x6 medium", "/generate", api.POST("/generate", { body: { size: 6, difficulty: "medium", seed: 2 }, ...text }), 200],
        ["generate level_not_offered", "/generate", api.POST("/generate", { body: { size: 4, difficulty: "hard" }, ...text }), 422, "level_not_offered"],
        ["generate killer expert", "/generate", api.POST("/generate", { body: { killer: true, difficulty: "expert", seed: 5 }, ...text }), 200],
        ["livez", "/livez", api.GET("/livez", text), 200],
        ["readyz", "/readyz", api.GET("/readyz", text), 200],
        ["metrics", "/metrics", api.GET("/metrics", text), 200],
        ["openapi.yaml", "/openapi.yaml", api.GET("/openapi.yaml", text), 200],
        ["page", "/", api.GET("/", text), 200],
        ["app.js", "/app.js", api.GET("/app.js", text), 200],
        ["app.css", "/app.css", api.GET("/app.css", text), 200],
    ];
    for (const [label, path, call, want, code] of cases)
        check(label, path, methodOf(path), await answer(call), want, code);

    // HEAD and OPTIONS on every path, a preflight among them.
    for (const path of Object.keys(spec.paths)) {
        const item = spec.paths[path]!;
        for (const method of ["HEAD", "OPTIONS"]) {
            if (item[method.toLowerCase()] === undefined) continue;
            const r = await fetch(d.base + path, {
                method,
                headers: method === "OPTIONS"
                    ? { Origin: "https://app.example", "Access-Control-Request-Method": item["post"] ? "POST" : "GET" }
                    : {},
            });
            check(`${method} ${path}`, path, method, { status: r.status, headers: r.headers, text: await r.text() },
                  method === "HEAD" ? 200 : 204);
        }
    }

    // What a generated client cannot send.
    const plain = async (method: string, path: string, body?: string, type = "application/json") => {
        const r = await fetch(d.base + path, { method, body, headers: body === undefined ? {} : { "Content-Type": type } });
        return { status: r.status, headers: r.headers, text: await r.text() };
    };
    check("invalid_json", "/solve", "POST", await plain("POST", "/solve", '{"board": [1,2'), 400, "invalid_json");
    check("body_too_large", "/solve", "POST", await plain("POST", "/solve", " ".repeat(20000)), 413, "body_too_large");
    check("unsupported_media_type", "/solve", "POST", await plain("POST", "/solve", "{}", "text/plain"), 415, "unsupported_media_type");
    check("batch unsupported_media_type", "/solve/batch", "POST", await plain("POST", "/solve/batch", "{}", "text/plain"), 415, "unsupported_media_type");
    check("not_found", "/nope", "GET", await plain("GET", "/nope"), 404, "not_found");
    check("GET /solve", "/solve", "GET", await plain("GET", "/solve"), 405, "method_not_allowed");
    check("DELETE /livez", "/livez", "DELETE", await plain("DELETE", "/livez"), 405, "method_not_allowed");
    const query = Array.from({ length: 40 }, (_, i) => `a${i}=1`).join("&");
    check("uri_too_long", "/livez", "GET", await plain("GET", `/livez?${query}`), 414, "uri_too_long");
    const req = (head: string, body = "") => `${head}\r\n\r\n${body}`;
    check("bad_framing", "/solve", "POST", await raw(d.port, [req("POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked", "{}")]), 400, "bad_framing");
    check("missing_host", "/livez", "GET", await raw(d.port, [req("GET /livez HTTP/1.1")]), 400, "missing_host");
    check("bad_header", "/livez", "GET", await raw(d.port, [req("GET /livez HTTP/1.1\r\nHost: x\r\nX-A : b")]), 400, "bad_header");
    check("unsupported_transfer_coding", "/solve", "POST", await raw(d.port, [req("POST /solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked")]), 501, "unsupported_transfer_coding");
    check("busy (--max-buffered)", "/solve/batch", "POST", await raw(d.port, [req("POST /solve/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000")]), 503, "busy");
}

function methodOf(path: string): string {
    return spec.paths[path]?.["post"] !== undefined ? "POST" : "GET";
}

async function main(): Promise<void> {
    // The main daemon: a small batch cap and body budget, so that their
    // problems are cheap to provoke.
    const a = await start(["--max-batch", "5", "--max-buffered", "64K"]);
    await routes(createClient<paths>({ baseUrl: a.base, fetch: recording }), a);

    // search_limit needs a small node budget.
    const c = await start(["--max-nodes", "1000"]);
    const api = createClient<paths>({ baseUrl: c.base, fetch: recording });
    check("search_limit", "/solve", "POST", await answer(api.POST("/solve", { body: { board: EXHAUSTING }, parseAs: "text" })), 422, "search_limit");
    await stop(c);

    // overloaded: the only connection is busy (headers in, body not sent,
    // and no rate floor), so a new one cannot take its place.
    const b = await start(["--max-connections", "1", "--threads", "1", "--body-min-rate", "0"]);
    const hold = await held(b.port, "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100");
    check("overloaded", "/solve", "POST", await raw(b.port, ["POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"]), 503, "overloaded");
    hold.destroy();
    await stop(b);

    // draining: a request under way when SIGTERM comes is answered 503.
    const under = await held(a.port, "GET /readyz HTTP/1.1\r\nHost: x\r\nContent-Length: 2");
    a.proc.kill("SIGTERM");
    ok(await logged(a, '"msg":"draining"'), "the daemon drains on SIGTERM");
    check("draining", "/readyz", "GET", await finish(under, "{}"), 503, "draining");
    ok((await stop(a)) === 0, "the daemon exits 0 after its drain");

    const codes = [...seen].filter((k) => / \d{3} [a-z_]+$/.test(k)).map((k) => k.split(" ").pop()).sort();
    console.log(`problem codes seen: ${[...new Set(codes)].join(", ")}`);
    console.log(`contract: ${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
}

main().catch((e: unknown) => {
    console.log(`FAIL ${String(e)}`);
    console.log(`contract: ${passed} passed, ${failed + 1} failed`);
    process.exit(1);
});
