/** GET /v1/usage reads per key in a fixed window of their own: enough to poll, not to hammer Redis. */
export const USAGE_CAP = { reads: 60, windowMs: 60_000 } as const;

/** How far back the portal's usage history goes, in hours, and a key's recent use in minutes. */
export const HISTORY = { hours: 24, minutes: 60 } as const;

/**
 * Lua fragment, run for each admitted request: the account's count for this hour (KEYS[4], a hash
 * of hour number -> count) and its key's count for this minute and minute of last use (KEYS[5],
 * fields m<minute> and last, the minute's start in ms). The first count of a new hour or minute
 * drops fields older than the history, so each hash holds at most 26 or 62 fields. These are what
 * the developer portal draws; they live in the admission script so a request still costs one
 * round trip. Last use is kept to the minute, written with the minute's first count: every call
 * from Lua costs Redis about 2.5 µs, and a write of `last` on every request was a tenth of the
 * script (measured).
 */
const USAGE_HISTORY_LUA = `
  local hour = math.floor(now / 3600000)
  if redis.call('HINCRBY', KEYS[4], hour, 1) == 1 then
    for _, field in ipairs(redis.call('HKEYS', KEYS[4])) do
      if tonumber(field) <= hour - ${HISTORY.hours} then redis.call('HDEL', KEYS[4], field) end
    end
    redis.call('PEXPIRE', KEYS[4], ${(HISTORY.hours + 1) * 3_600_000})
  end
  local minute = math.floor(now / 60000)
  if redis.call('HINCRBY', KEYS[5], 'm' .. minute, 1) == 1 then
    for _, field in ipairs(redis.call('HKEYS', KEYS[5])) do
      local m = tonumber(string.sub(field, 2))
      if m and m <= minute - ${HISTORY.minutes} then redis.call('HDEL', KEYS[5], field) end
    end
    redis.call('HSET', KEYS[5], 'last', minute * 60000)
    redis.call('PEXPIRE', KEYS[5], ${HISTORY.hours * 3_600_000})
  end`;

/**
 * Exact sliding window, kept as a log of admission times (Lua fragment, runs after
 * AUTHENTICATE_LUA has set `key_id` and `tier`).
 *
 * KEYS[3] is one string per account: a 20-byte header (base time as a double in ms, then the
 * ring's start slot, length and capacity as unsigned 32-bit ints) followed by a ring of 4-byte
 * slots, each an admitted request's time in ms after the base. The ring holds the requests of
 * the last window, oldest first. A request is admitted while fewer than `limit` requests were
 * admitted in the window ending now, and it is released exactly one window after it was
 * admitted, so:
 *  - the limit is never exceeded in any window, and capacity returns exactly on time: Reset and
 *    Retry-After are never more than one window away;
 *  - nothing depends on how time is cut into buckets: instances with different windows or limits
 *    (a configuration change, a rolling deploy) read and write the same true times, so none
 *    leaves a counter overcharged; each drops what left its own window, so while windows differ
 *    the shorter one forgets requests the longer one would count (charged less, never more);
 *  - after a tier downgrade the log may hold more requests than the new limit: remaining is 0
 *    until enough of them leave, never negative.
 * Cost per request: the header, the oldest entry (and the second oldest when the oldest left),
 * a binary search only when several left at once, one 4-byte write and the header. Memory: 4
 * bytes per request in the window, the ring doubling as needed up to the limit (4 KB for 1,000
 * an hour, 40 KB for 10,000). Time is Redis's own clock (TIME), so API instances need no clock
 * agreement.
 *
 * An admitted request is also counted in the account's hourly history (KEYS[4]) and its key's
 * minute counts and last use (KEYS[5]): see USAGE_HISTORY_LUA.
 *
 * The prelude that runs before it says what the call is for (see the modes below): with `peek` set
 * the script only reads the log (GET /v1/usage): nothing is admitted, and KEYS[6] counts such
 * reads in a fixed window of their own, refused past USAGE_CAP.
 *
 * ARGV[1] window ms, ARGV[2..] tier, limit pairs.
 * Returns {1 allowed | 2 limited | 3 unknown tier | 4 usage reads capped | 5 already replayed,
 * key_id, tier, limit, remaining, reset ms, now ms}; when capped, limit is the cap and reset when
 * reads return.
 */
/** Preludes to SLIDING_WINDOW_LUA: what one call of the script is for. */
export const MODE_LUA = {
  /** Admit one request (five keys). */
  admit: `local peek = false\n`,
  /** Read the quota, admitting nothing (six keys: the sixth counts the reads). */
  peek: `local peek = true\n`,
  /**
   * Admit one request the in-process fallback admitted while Redis did not answer, at most once
   * (six keys: the sixth is the replay's id). A replay whose answer was lost is sent again with the
   * same id, and finds it: the request is not charged twice. Ids are kept ten minutes, far longer
   * than a replay is retried while Redis answers.
   */
  replayOnce: `local peek = false
if not redis.call('SET', KEYS[6], '1', 'NX', 'PX', 600000) then return {5} end
`,
} as const;

export const SLIDING_WINDOW_LUA = `
local window = tonumber(ARGV[1])
local limit = nil
for i = 2, #ARGV, 2 do
  if ARGV[i] == tier then limit = tonumber(ARGV[i + 1]) end
end
if not limit then return {3, key_id, tier} end
if peek then
  local reads = redis.call('INCR', KEYS[6])
  if reads == 1 then redis.call('PEXPIRE', KEYS[6], ${USAGE_CAP.windowMs}) end
  if reads > ${USAGE_CAP.reads} then
    return {4, key_id, tier, ${USAGE_CAP.reads}, 0, now + math.max(redis.call('PTTL', KEYS[6]), 0), now}
  end
end
local log = KEYS[3]
local HEADER = 20
local base, start, len, cap = now, 0, 0, 0
local raw = redis.call('GETRANGE', log, 0, HEADER - 1)
if #raw == HEADER then base, start, len, cap = struct.unpack('>dI4I4I4', raw) end
local dirty = false

local function at(i)
  local offset = HEADER + ((start + i) % cap) * 4
  return base + struct.unpack('>I4', redis.call('GETRANGE', log, offset, offset + 3))
end

-- The oldest entry's time, kept once read: the reset below needs it again when nothing left.
local first = nil
local cutoff = now - window
if len > 0 then first = at(0) end
if first and first <= cutoff then
  first = nil
  local gone = 1
  if len > 1 and at(1) <= cutoff then
    local lo, hi = 2, len
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if at(mid) <= cutoff then lo = mid + 1 else hi = mid end
    end
    gone = lo
  end
  start = (start + gone) % cap
  len = len - gone
  dirty = true
end

if len == 0 and base ~= now then
  base, start, dirty = now, 0, true
elseif now - base > 2147483647 then
  local newbase = now - window
  for i = 0, len - 1 do
    local offset = HEADER + ((start + i) % cap) * 4
    redis.call('SETRANGE', log, offset, struct.pack('>I4', math.max(0, at(i) - newbase)))
  end
  base, dirty = newbase, true
end

local status = 2
if peek then
  status = 1
elseif len < limit then
  if len == cap then
    local grown = math.min(math.max(cap * 2, 16), limit)
    local ring = ''
    if cap > 0 then
      local slots = redis.call('GETRANGE', log, HEADER, HEADER + cap * 4 - 1)
      ring = string.sub(slots, start * 4 + 1) .. string.sub(slots, 1, start * 4)
    end
    redis.call('SET', log, struct.pack('>dI4I4I4', base, 0, len, grown) .. ring .. string.rep('\\0', (grown - cap) * 4))
    start, cap = 0, grown
  end
  local offset = HEADER + ((start + len) % cap) * 4
  redis.call('SETRANGE', log, offset, struct.pack('>I4', math.max(0, now - base)))
  if len == 0 then first = base + math.max(0, now - base) end
  len = len + 1
  status = 1
  dirty = true
  ${USAGE_HISTORY_LUA}
end

if dirty then
  redis.call('SETRANGE', log, 0, struct.pack('>dI4I4I4', base, start, len, cap))
  redis.call('PEXPIRE', log, window + 1000)
end

local reset
if len >= limit then
  reset = at(len - limit) + window
elseif len > 0 then
  reset = (first or at(0)) + window
else
  reset = now + window
end
return {status, key_id, tier, limit, math.max(0, limit - len), reset, now}
`;
