-- wrk script of http_bench.py: POSTs the body in $BENCH_BODY with the 2026-07-28 headers (or, with
-- BENCH_METHOD=GET, sends GET /mcp: the floor, answered 405), counts
-- the answers by status, stops each thread after $BENCH_REQUESTS_PER_THREAD answers when that is
-- set (> 0; it then writes BENCH_STOPPED on stderr), and prints one line `BENCH_JSON {...}`: requests, duration (µs), p50 and p99 (µs),
-- wrk's error counts and the answers by status.
if os.getenv("BENCH_METHOD") == "GET" then
  -- The floor: GET /mcp, which the server answers 405 without reading any body.
  wrk.method = "GET"
else
  local f = assert(io.open(os.getenv("BENCH_BODY"), "rb"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  f:close()
end
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "validate_plan"

local limit = tonumber(os.getenv("BENCH_REQUESTS_PER_THREAD") or "0") or 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  answers = 0
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  answers = answers + 1
  if limit > 0 and answers == limit then
    -- wrk's main thread sleeps for -d whatever its threads do: say so, and http_bench.py
    -- interrupts it (SIGINT), after which wrk prints its summary as usual.
    io.stderr:write("BENCH_STOPPED\n")
    io.stderr:flush()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local counts = {}
  for _, t in ipairs(threads) do
    for code, n in pairs(t:get("statuses")) do
      counts[code] = (counts[code] or 0) + n
    end
  end
  local parts = {}
  for code, n in pairs(counts) do
    table.insert(parts, string.format('"%d":%d', code, n))
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"status":{%s}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout, table.concat(parts, ",")))
end
