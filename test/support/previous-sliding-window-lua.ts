/**
 * The sliding-window script as released before it kept its total in the hash (commit 3814796):
 * it sums every field of the hash on each request. Kept to prove that a rolling deploy or a
 * rollback, where both versions share one account's counters, never fails or miscounts.
 */
export const PREVIOUS_SLIDING_WINDOW_LUA = `
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
local fields = redis.call('HGETALL', KEYS[3])
local used = 0
local first = nil
local stale = {}
for i = 1, #fields, 2 do
  local bucket = tonumber(fields[i])
  if bucket < oldest then
    stale[#stale + 1] = fields[i]
  else
    used = used + tonumber(fields[i + 1])
    if first == nil or bucket < first then first = bucket end
  end
end
if #stale > 0 then redis.call('HDEL', KEYS[3], unpack(stale)) end
local status = 2
if used < limit then
  redis.call('HINCRBY', KEYS[3], string.format('%d', current), 1)
  redis.call('PEXPIRE', KEYS[3], window + 2 * size)
  used = used + 1
  status = 1
  if first == nil then first = current end
end
local reset
if first == nil then reset = now + window else reset = (first + n + 1) * size end
return {status, key_id, tier, limit, limit - used, reset, now}
`;
