-- post.lua - wrk script: POST /solve with the example board (or, with
-- BODY_FILE set, each line of that file in turn; with GET_PATH set, a GET
-- of that path instead; see STATIC below), and a summary line that run.sh
-- parses:
-- "RESULT requests=N seconds=S rps=R p50=US p99=US errors=E".
local bodies = {}
local file = os.getenv("BODY_FILE")
if file then
  for line in io.lines(file) do
    if #line >= 81 then
      bodies[#bodies + 1] = '{"board":"' .. line:sub(1, 81) .. '"}'
    end
  end
end
if #bodies == 0 then
  bodies[1] = '{"board": ["9.7.....6", "824.3....", "..1..9..2", ".9...2.18", "...4....5", "1325.8...", "...687...", "......8.9", ".4.9...5."]}'
end

wrk.method = "POST"
wrk.path = "/solve"
wrk.headers["Content-Type"] = "application/json"
if os.getenv("CLOSE") == "1" then
  wrk.headers["Connection"] = "close"
end

-- By default a request() function builds every request, which costs the
-- client (sharing the two cores) a Lua call each time; STATIC=1 sets one
-- fixed request up front instead, so wrk takes less of the CPU and the
-- servers' own costs weigh more in the ratio.
local get_path = os.getenv("GET_PATH")
if os.getenv("STATIC") == "1" and not get_path and #bodies == 1 then
  wrk.body = bodies[1]
else
  local n = 0
  request = function()
    if get_path then
      return wrk.format("GET", get_path)
    end
    n = n % #bodies + 1
    return wrk.format(nil, nil, nil, bodies[n])
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.timeout + e.status
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f rps=%.1f p50=%d p99=%d errors=%d\n",
    summary.requests, summary.duration / 1e6,
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), errors))
end
