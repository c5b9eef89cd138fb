/**
 * Sliding-window counter over sub-buckets (Lua fragment, runs after
 * AUTHENTICATE_LUA has set `key_id` and `tier`).
 *
 * KEYS[3] is a hash of bucket index -> count for one account, plus field `-1`,
 * the sum of those counts, and `-2`, the oldest bucket present. They are named as
 * negative bucket indices so that a previous version of this script, which sums
 * the whole hash (during a rolling deploy or after a rollback), takes them for
 * buckets long past the window and deletes them; this version then rebuilds them
 * from the buckets, so mixed versions never miscount. A request is counted
 * against the current bucket plus the `n` buckets before it, so the counted span
 * is at least one full window: the limit is never exceeded in any window, and
 * capacity comes back at most one bucket late. Time is Redis's own clock (TIME),
 * so API instances need no clock agreement.
 *
 * Cost: a request reads those two fields only. The whole hash is read, and
 * buckets that left the window deleted, only when the oldest bucket has left the
 * window (about once a bucket for a busy account) or the fields are missing;
 * every write leaves the total equal to the sum of the buckets present.
 *
 * ARGV[1] window ms, ARGV[2] buckets per window, ARGV[3..] tier, limit pairs.
 * Returns {1 allowed | 2 limited | 3 unknown tier, key_id, tier, limit, remaining, reset ms, now ms}.
 */
export const SLIDING_WINDOW_LUA = `
local window = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local limit = nil
for i = 3, #ARGV, 2 do
  if ARGV[i] == tier then limit = tonumber(ARGV[i + 1]) end
end
if not limit then return {3, key_id, tier} end
local size = math.ceil(window / n)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local current = math.floor(now / size)
local oldest = current - n
local kept = redis.call('HMGET', KEYS[3], '-1', '-2')
local used = tonumber(kept[1])
local first = tonumber(kept[2])
local dirty = false
if used == nil or first == nil or first < oldest then
  local fields = redis.call('HGETALL', KEYS[3])
  used = 0
  first = nil
  local stale = {}
  for i = 1, #fields, 2 do
    local bucket = tonumber(fields[i])
    if bucket ~= nil and bucket >= 0 then
      if bucket < oldest then
        stale[#stale + 1] = fields[i]
      else
        used = used + tonumber(fields[i + 1])
        if first == nil or bucket < first then first = bucket end
      end
    end
  end
  if #stale > 0 then redis.call('HDEL', KEYS[3], unpack(stale)) end
  dirty = true
end
local status = 2
if used < limit then
  redis.call('HINCRBY', KEYS[3], string.format('%d', current), 1)
  used = used + 1
  status = 1
  if first == nil or current < first then first = current end
  dirty = true
end
if dirty then
  if first == nil then
    redis.call('HDEL', KEYS[3], '-1', '-2')
  else
    redis.call('HSET', KEYS[3], '-1', used, '-2', string.format('%d', first))
    redis.call('PEXPIRE', KEYS[3], window + 2 * size)
  end
end
local reset
if first == nil then reset = now + window else reset = (first + n + 1) * size end
return {status, key_id, tier, limit, limit - used, reset, now}
`;
