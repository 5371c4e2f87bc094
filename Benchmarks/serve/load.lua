-- wrk script: POSTs pictures to /v1/classify, one file per request, taken
-- in turn from the files named after `--` (each thread starts at a
-- different one, so a mix is mixed from the first requests on).
--
--   wrk -t2 -c8 -d5s -s Benchmarks/serve/load.lua http://127.0.0.1:PORT -- a.png b.jpg ...
--
-- The path may be given with the environment variable PATH_QUERY (default
-- /v1/classify). At the end it prints one line for Benchmarks/serve/run:
--   RESULT {"requests": N, "seconds": S, "non_2xx": N, "errors": N, "p50_ms": X, "p99_ms": Y, "mean_ms": Z}

local requests = {}
local next_index = 1
local thread_count = 0

local function content_type(name)
  local lower = name:lower()
  if lower:match("%.png$") then return "image/png" end
  if lower:match("%.jpe?g$") then return "image/jpeg" end
  if lower:match("%.p[bgpn]m$") then return "image/x-portable-anymap" end
  return "application/octet-stream"
end

function setup(thread)
  thread:set("offset", thread_count)
  thread_count = thread_count + 1
end

function init(args)
  local path = os.getenv("PATH_QUERY") or "/v1/classify"
  for _, name in ipairs(args) do
    local file = assert(io.open(name, "rb"))
    local body = file:read("*a")
    file:close()
    requests[#requests + 1] = wrk.format("POST", path, {["Content-Type"] = content_type(name)}, body)
  end
  assert(#requests > 0, "name at least one picture after --")
  next_index = ((offset or 0) % #requests) + 1
end

function request()
  local r = requests[next_index]
  next_index = next_index % #requests + 1
  return r
end

function done(summary, latency, _)
  local errors = summary.errors
  local failed = errors.connect + errors.read + errors.write + errors.timeout
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.3f, "non_2xx": %d, "errors": %d, "p50_ms": %.3f, "p99_ms": %.3f, "mean_ms": %.3f}\n',
    summary.requests, summary.duration / 1e6, errors.status, failed,
    latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.mean / 1e3))
end
