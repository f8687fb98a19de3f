/**
 * The Lua scripts behind the Redis store. Each runs atomically on the Redis
 * server, so a claim, a renewal, a completion and a release never interleave
 * with another replica's. Time comes from Redis (`TIME`), not from the
 * replicas, so clock skew between machines cannot shorten or stretch a lease.
 *
 * A record is a hash: `state` (`pending` | `completed`), `input` (sha256),
 * `token` and `lease` (expiry, ms) while pending, `result` (JSON) once
 * completed, and `owner` (the key of the owner's index). The owner's index is
 * a sorted set of record keys scored by their expiry: capacity is counted
 * there, per owner, and never by evicting anyone's record.
 */

/** Milliseconds since the epoch by the Redis server's clock. */
const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Keeps `key` alive for at least `ms` (never shortens a longer expiry set by another record). */
const KEEP = `local function keep(key, ms) if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end end`;

/**
 * KEYS: record, owner index. ARGV: input sha256, lease ms, ttl ms, token, most live records per owner (0: no bound).
 * Returns {'claimed', token} | {'pending', input, leaseExpiresAt} | {'completed', input, result} | {'full'}.
 */
export const CLAIM = `${NOW}
${KEEP}
local rec = redis.call('HMGET', KEYS[1], 'state', 'input', 'lease', 'result')
if rec[1] == 'completed' then return {'completed', rec[2], rec[4]} end
if rec[1] == 'pending' and tonumber(rec[3]) > now then return {'pending', rec[2], rec[3]} end
local ttl = tonumber(ARGV[3])
if not rec[1] then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  local max = tonumber(ARGV[5])
  if max > 0 and redis.call('ZCARD', KEYS[2]) >= max then return {'full'} end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'pending', 'input', ARGV[1], 'lease', now + tonumber(ARGV[2]), 'token', ARGV[4], 'owner', KEYS[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
keep(KEYS[2], ttl)
return {'claimed', ARGV[4]}`;

/** KEYS: record. ARGV: token, lease ms. Returns 1 when renewed, 0 when the token no longer holds the claim. */
export const RENEW = `${NOW}
local rec = redis.call('HMGET', KEYS[1], 'state', 'token')
if rec[1] ~= 'pending' or rec[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'lease', now + tonumber(ARGV[2]))
return 1`;

/** KEYS: record. ARGV: token, result JSON, ttl ms. Returns 1 when stored, 0 when the token lost the claim. */
export const COMPLETE = `${NOW}
${KEEP}
local rec = redis.call('HMGET', KEYS[1], 'state', 'token', 'owner')
if rec[1] ~= 'pending' or rec[2] ~= ARGV[1] then return 0 end
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'state', 'completed', 'result', ARGV[2])
redis.call('HDEL', KEYS[1], 'token', 'lease')
redis.call('PEXPIRE', KEYS[1], ttl)
if rec[3] then
  redis.call('ZADD', rec[3], now + ttl, KEYS[1])
  keep(rec[3], ttl)
end
return 1`;

/** KEYS: record. ARGV: token. Drops the pending record the token holds (and its place in the owner's index). */
export const RELEASE = `local rec = redis.call('HMGET', KEYS[1], 'state', 'token', 'owner')
if rec[1] ~= 'pending' or rec[2] ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if rec[3] then redis.call('ZREM', rec[3], KEYS[1]) end
return 1`;
