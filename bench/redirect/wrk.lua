-- wrk script of bench/redirect.ts. Arguments (after --): requests file, thread count,
-- duration in seconds, quiet tail in seconds, offset of the first request. The requests file
-- has one request per line: path, then "name: value" headers, separated by tabs (traffic.ts).
--
-- The threads take turns through the requests (see entry()). In the last `tail` seconds a
-- connection sends nothing more once its answer is in (delay() holds it past the end), so when
-- wrk stops no request is left in flight: every visit the server answered, and so recorded, is
-- one wrk counted. done() prints one line, LPBENCH_RESULT {json}, that the bench parses.

local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_usec; } lpbench_timeval;
int gettimeofday(lpbench_timeval *tv, void *tz);
]]
local tv = ffi.new("lpbench_timeval")
local function now()
  ffi.C.gettimeofday(tv, nil)
  return tonumber(tv.tv_sec) + tonumber(tv.tv_usec) / 1e6
end

local threads = {}
local created = 0

function setup(thread)
  thread:set("id", created)
  created = created + 1
  table.insert(threads, thread)
end

local entries, formatted, n, nthreads, step, tail_at, duration, tail
-- wrk calls request() once on thread 0 to check the script before it starts: that one is not sent.
local checked

function init(args)
  local file, start = args[1], tonumber(args[5])
  nthreads, duration, tail = tonumber(args[2]), tonumber(args[3]), tonumber(args[4])
  -- Globals, so done() can read them with thread:get().
  sent, s2xx, s3xx, s4xx, s5xx, sother = 0, 0, 0, 0, 0, 0
  entries, formatted = {}, {}
  for line in io.lines(file) do
    local path, headers = nil, {}
    for field in line:gmatch("[^\t]+") do
      if path == nil then
        path = field
      else
        local colon = field:find(": ", 1, true)
        headers[field:sub(1, colon - 1)] = field:sub(colon + 2)
      end
    end
    headers["Host"] = wrk.headers["Host"] or wrk.host
    table.insert(entries, { path = path, headers = headers })
  end
  n = #entries
  step = start
  checked = id ~= 0
end

-- Thread `id` of T sends entries id, id + T, id + 2T… from step `start`: after s steps of every
-- thread, the first s * T entries from the start have all been sent.
local function entry()
  local k = (step * nthreads + id) % n + 1
  local r = formatted[k]
  if r == nil then
    r = wrk.format("GET", entries[k].path, entries[k].headers)
    formatted[k] = r
  end
  return r
end

function request()
  if not checked then
    checked = true
    return entry()
  end
  if tail_at == nil then tail_at = now() + duration - tail end
  local r = entry()
  step = step + 1
  sent = sent + 1
  return r
end

-- Milliseconds before the next request of a connection; wrk does not count it as latency.
function delay()
  if tail_at ~= nil and now() >= tail_at then return math.floor((tail + 60) * 1000) end
  return 0
end

function response(status, headers, body)
  if status >= 300 and status < 400 then s3xx = s3xx + 1
  elseif status >= 200 and status < 300 then s2xx = s2xx + 1
  elseif status >= 400 and status < 500 then s4xx = s4xx + 1
  elseif status >= 500 then s5xx = s5xx + 1
  else sother = sother + 1 end
end

function done(summary, latency, requests)
  local names = { "sent", "s2xx", "s3xx", "s4xx", "s5xx", "sother" }
  local t, per_thread = {}, {}
  for _, name in ipairs(names) do t[name] = 0 end
  for _, thread in ipairs(threads) do
    for _, name in ipairs(names) do t[name] = t[name] + (thread:get(name) or 0) end
    table.insert(per_thread, string.format("%.0f", thread:get("sent") or 0))
  end
  local e = summary.errors
  io.write(string.format(
    'LPBENCH_RESULT {"duration_us":%.0f,"requests":%.0f,"bytes":%.0f,' ..
    '"errors":{"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f},' ..
    '"latency_us":{"p50":%.0f,"p90":%.0f,"p99":%.0f,"p999":%.0f,"mean":%.1f,"max":%.0f},' ..
    '"status":{"2xx":%.0f,"3xx":%.0f,"4xx":%.0f,"5xx":%.0f,"other":%.0f},"sent":%.0f,"sent_per_thread":[%s]}\n',
    summary.duration, summary.requests, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.mean, latency.max,
    t.s2xx, t.s3xx, t.s4xx, t.s5xx, t.sother, t.sent, table.concat(per_thread, ",")))
end
