-- Replays a request file in order, cycling; each wrk thread starts at its own offset.
-- A line is METHOD <tab> PATH <tab> HEADERS (name: value, separated by |) <tab> BODY.
-- Arguments: <request file> [api key]. The done hook prints one JSON line.

local threads_started = 0

function setup(thread)
  thread:set("thread_number", threads_started)
  threads_started = threads_started + 1
end

local requests = {}
local position = 0

function init(args)
  local file = args[1]
  local key = args[2]
  for line in io.lines(file) do
    local method, path, header_text, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
    if method == nil then error("bad request line: " .. line) end
    local headers = {}
    if key ~= nil and key ~= "" then headers["Authorization"] = "Bearer " .. key end
    for pair in header_text:gmatch("[^|]+") do
      local name, value = pair:match("^([^:]+):%s*(.*)$")
      headers[name] = value
    end
    if body == "" then body = nil end
    requests[#requests + 1] = wrk.format(method, path, headers, body)
  end
  if #requests == 0 then error("no requests in " .. file) end
  position = (thread_number * 7919) % #requests
end

function request()
  position = position % #requests + 1
  return requests[position]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"mean":%.1f,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.mean, latency.max))
end
