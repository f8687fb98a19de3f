-- wrk script: POSTs one tools/call per request, with a fresh JSON-RPC id each time (a 2025-era session
-- must not see two requests in flight with one id), and counts answers that are not a successful call.
-- Environment: BODY (a JSON-RPC request with %d where the id goes), HEADERS ("name: value" lines),
-- EXPECT (a string every good answer contains).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  n = 0
  bad = 0
  template = os.getenv("BODY")
  expect = os.getenv("EXPECT")
  wrk.method = "POST"
  for line in string.gmatch(os.getenv("HEADERS"), "[^\n]+") do
    local k, v = string.match(line, "^([^:]+):%s*(.*)$")
    wrk.headers[k] = v
  end
end

function request()
  n = n + 1
  return wrk.format(nil, nil, nil, string.format(template, n))
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, expect, 1, true) or string.find(body, '"isError":true', 1, true) then
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  local wrong = 0
  for _, t in ipairs(threads) do wrong = wrong + t:get("bad") end
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"socketErrors":%d,"bad":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout + e.status, wrong,
    latency:percentile(50), latency:percentile(99)))
end
