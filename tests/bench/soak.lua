-- soak.lua - wrk script of tests/bench/soak.sh: every connection cycles
-- through a fixed mix of valid and invalid requests (solvable boards in both
-- shapes, hard puzzles from tests/data, conflicts, bad JSON, wrong types,
-- 404/405/415, bodies over --max-body, health and metrics). Every answer is
-- tallied by status; a status outside the expected set (5xx above all)
-- counts as an error. done() prints one "soak:" line that soak.sh reads.
-- Usage: wrk ... -s soak.lua URL -- DATA_DIR

local EXAMPLE = "9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687.........8.9.4.9...5."

-- Statuses the mix is meant to produce; anything else is an error.
local expected = { [200] = true, [204] = true, [400] = true, [404] = true,
                   [405] = true, [413] = true, [415] = true, [422] = true }

local function rows_json(line)
    local r = {}
    for i = 0, 8 do
        r[#r + 1] = '"' .. line:sub(i * 9 + 1, i * 9 + 9) .. '"'
    end
    return '{"board":[' .. table.concat(r, ",") .. ']}'
end

local function line_json(line)
    return '{"board":"' .. line .. '"}'
end

-- The first n puzzles of a data file (81-character lines).
local function puzzles(path, n)
    local out, f = {}, io.open(path, "r")
    if f == nil then
        return out
    end
    for l in f:lines() do
        local p = l:match("^([%.0-9]+)")
        if p ~= nil and #p == 81 then
            out[#out + 1] = p
            if #out >= n then break end
        end
    end
    f:close()
    return out
end

local reqs = {}
local json = { ["Content-Type"] = "application/json" }

local function post(body, headers)
    reqs[#reqs + 1] = wrk.format("POST", "/solve", headers or json, body)
end

local function get(path, method)
    reqs[#reqs + 1] = wrk.format(method or "GET", path, {}, nil)
end

function init(args)
    local data = args[1] or "tests/data"
    local counts = { _other = 0 }
    _G.counts = counts

    -- valid: 200, half of all requests
    for _ = 1, 3 do
        post(rows_json(EXAMPLE))
        post(line_json(EXAMPLE))
    end
    for _, p in ipairs(puzzles(data .. "/puzzles5_forum_hardest_1905_11+", 6)) do
        post(line_json(p))
    end
    for _, p in ipairs(puzzles(data .. "/puzzles2_17_clue", 3)) do
        post(rows_json(p))
    end
    for _, p in ipairs(puzzles(data .. "/puzzles3_magictour_top1465", 3)) do
        post(line_json(p))
    end
    get("/livez")
    get("/readyz")
    get("/metrics")
    reqs[#reqs + 1] = wrk.format("OPTIONS", "/solve", {}, nil)

    -- invalid: 4xx
    post(line_json("99" .. EXAMPLE:sub(3)))                -- conflict
    post(line_json(("1"):rep(81)))                         -- many conflicts
    post(line_json(("."):rep(81)))                         -- multiple solutions
    post(line_json("1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."))
    post(line_json(EXAMPLE .. "."))                        -- 82 characters
    post(line_json(EXAMPLE:sub(1, 40) .. "x" .. EXAMPLE:sub(42)))
    post('{"board":["9.7.....6"]}')                        -- 1 row
    post('{"board":42}')                                   -- wrong type
    post('{"puzzle":"' .. EXAMPLE .. '"}')                 -- no board
    post('{"board":"' .. EXAMPLE)                          -- truncated JSON
    post('not json at all')
    post('')                                               -- empty body
    post(('['):rep(3000))                                  -- deep nesting
    post(line_json(EXAMPLE), { ["Content-Type"] = "text/plain" })  -- 415
    post('{"board":"' .. ("."):rep(17 * 1024) .. '"}')     -- 413, closes
    get("/nope")                                           -- 404
    get("/solve")                                          -- 405
    get("/livez", "DELETE")                                -- 405
end

local i = 0

function setup(thread)
    threads = threads or {}
    threads[#threads + 1] = thread
end

function request()
    i = i + 1
    return reqs[(i - 1) % #reqs + 1]
end

function response(status, headers, body)
    if expected[status] then
        counts[status] = (counts[status] or 0) + 1
    else
        counts._other = counts._other + 1
    end
end

function done(summary, latency, requests)
    local by_status, other = {}, 0
    for _, t in ipairs(threads) do
        local c = t:get("counts")
        for k, v in pairs(c) do
            if k == "_other" then
                other = other + v
            else
                by_status[k] = (by_status[k] or 0) + v
            end
        end
    end
    local keys, parts = {}, {}
    for k in pairs(by_status) do keys[#keys + 1] = k end
    table.sort(keys)
    for _, k in ipairs(keys) do parts[#parts + 1] = k .. ":" .. by_status[k] end
    local e = summary.errors
    io.write(string.format(
        "soak: requests=%d seconds=%.1f rps=%.0f p50_ms=%.2f p99_ms=%.2f " ..
        "max_ms=%.2f unexpected_status=%d connect=%d read=%d write=%d " ..
        "timeout=%d statuses=%s\n",
        summary.requests, summary.duration / 1e6,
        summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        latency.max / 1000, other, e.connect, e.read, e.write, e.timeout,
        table.concat(parts, ",")))
end
