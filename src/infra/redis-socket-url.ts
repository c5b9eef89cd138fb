/** Where a `unix://` Redis URL points, and how to sign in there. */
export interface RedisSocket {
  path: string;
  username?: string;
  password?: string;
}

export const UNIX_SCHEME = 'unix://';

// sun_path holds 108 bytes with its terminating NUL; a longer path fails only when connecting.
const SOCKET_PATH_MAX_BYTES = 107;
const SIGN_IN = new Set(['username', 'password']);

/**
 * Reads `unix:///path/redis.sock[?username=…&password=…]`, as redis-py and other clients spell it:
 * a Redis on the API's own host that opens no TCP port. Redis still asks a socket client to sign
 * in when it has `requirepass` or ACL users, so the query may carry them, and nothing else. The
 * path is read percent-decoded. Throws an Error saying what is wrong, for the configuration's
 * message.
 */
export function parseSocketUrl(url: string): RedisSocket {
  if (!url.startsWith(`${UNIX_SCHEME}/`)) throw new Error('a socket URL is unix:///path, with no host');
  const parsed = new URL(url);
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    throw new Error('its path does not decode');
  }
  if (path.includes('\0')) throw new Error('its path holds a NUL byte');
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX_BYTES)
    throw new Error(`its path is longer than a socket path can be (${SOCKET_PATH_MAX_BYTES} bytes)`);
  const socket: RedisSocket = { path };
  for (const name of new Set(parsed.searchParams.keys())) {
    const values = parsed.searchParams.getAll(name);
    if (!SIGN_IN.has(name)) throw new Error(`it takes only username and password in its query (got ${JSON.stringify(name.slice(0, 40))})`);
    if (values.length > 1 || values[0] === '') throw new Error(`${name} must be given once, not empty`);
    socket[name as 'username' | 'password'] = values[0];
  }
  return socket;
}
