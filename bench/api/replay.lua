-- Replays a request file in order, cycling; each wrk thread starts at its own offset.
-- A line is METHOD <tab> PATH <tab> HEADERS (name: value, separated by |) <tab> BODY.
-- Arguments: <request file> [keys file]. With a keys file (one API key per line), requests take
-- the keys in turn, as many clients would. The done hook prints one JSON line.

local threads_started = 0

function setup(thread)
  thread:set("thread_number", threads_started)
  threads_started = threads_started + 1
end

local requests = {}
local keys = {}
local position = 0
local turn = 0

function init(args)
  local file = args[1]
  local keys_file = args[2]
  if keys_file ~= nil and keys_file ~= "" then
    for key in io.lines(keys_file) do
      if key ~= "" then keys[#keys + 1] = "Bearer " .. key end
    end
  end
  for line in io.lines(file) do
    local method, path, header_text, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
    if method == nil then error("bad request line: " .. line) end
    local headers = {}
    for pair in header_text:gmatch("[^|]+") do
      local name, value = pair:match("^([^:]+):%s*(.*)$")
      headers[name] = value
    end
    if body == "" then body = nil end
    requests[#requests + 1] = { method = method, path = path, headers = headers, body = body, formatted = wrk.format(method, path, headers, body) }
  end
  if #requests == 0 then error("no requests in " .. file) end
  position = (thread_number * 7919) % #requests
  turn = (thread_number * 104729) % math.max(1, #keys)
end

function request()
  position = position % #requests + 1
  local r = requests[position]
  if #keys == 0 then return r.formatted end
  turn = turn % #keys + 1
  r.headers["Authorization"] = keys[turn]
  return wrk.format(r.method, r.path, r.headers, r.body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"mean":%.1f,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.mean, latency.max))
end
