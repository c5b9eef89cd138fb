// npm run --silent keys -- create --tier free|premium [--account NAME]
// npm run --silent keys -- list
// npm run --silent keys -- revoke <key-id>
// npm run --silent keys -- tier <account> <tier> | disable <account> | enable <account>
import { parseArgs } from 'node:util';
import { ConfigError, displayUrl, loadConfig } from '../src/config.js';
import { createRedis } from '../src/infra/redis.js';
import { KeyStoreError, createKeyStore } from '../src/access/key-store.js';
import { createAccountStore } from '../src/access/account-store.js';

const USAGE = `usage:
  keys create --tier TIER [--account NAME]             prints the new API key alone on stdout (shown once);
                                                       TIER is one of RATE_LIMIT_TIERS (default free, premium)
  keys list                                            key ids, accounts, tiers, created and revoked times
  keys revoke <key-id>                                 revokes the key; takes effect on the next request
  keys tier <account> <tier>                           moves the account (a portal account is named by its email) to TIER
  keys disable <account>                               its keys answer 403 and it cannot sign in to the portal
  keys enable <account>                                undoes disable`;

function fail(message: string, code = 2): never {
  process.stderr.write(`keys: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { tier: { type: 'string' }, account: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [command, ...rest] = positionals;
  if (!command) fail(USAGE);

  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  const redis = createRedis({ url: config.redisUrl, commandTimeoutMs: 5000, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (err) {
    fail(`cannot reach Redis at ${displayUrl(config.redisUrl)}: ${err instanceof Error ? err.message : String(err)}`, 1);
  }
  const store = createKeyStore(redis);
  const accounts = createAccountStore(redis);
  try {
    switch (command) {
      case 'create': {
        const tiers = Object.keys(config.rateLimit.tiers);
        if (!values.tier || !tiers.includes(values.tier)) fail(`--tier must be one of ${tiers.join(', ')}\n${USAGE}`);
        if (values.account !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/.test(values.account)) {
          fail('--account must be 1-100 characters of letters, digits, . _ @ -');
        }
        const created = await store.createKey({ tier: values.tier, account: values.account });
        process.stderr.write(`created ${created.keyId} for account '${created.account}' (${created.tier}); the key is shown once:\n`);
        process.stdout.write(`${created.apiKey}\n`);
        break;
      }
      case 'list': {
        const keys = await store.listKeys();
        if (values.json) {
          process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
          break;
        }
        const rows = [['KEY ID', 'NAME', 'ACCOUNT', 'TIER', 'CREATED', 'REVOKED']];
        for (const k of keys) rows.push([k.key_id, k.name || '-', k.account, k.tier, k.created_at, k.revoked_at ?? '-']);
        const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
        for (const r of rows)
          process.stdout.write(
            `${r
              .map((c, i) => c.padEnd(widths[i]!))
              .join('  ')
              .trimEnd()}\n`,
          );
        break;
      }
      case 'revoke': {
        const keyId = rest[0];
        if (!keyId) fail(`revoke needs a key id\n${USAGE}`);
        if (!(await store.revokeKey(keyId))) fail(`no key with id ${keyId}`, 1);
        process.stderr.write(`revoked ${keyId}\n`);
        break;
      }
      case 'tier': {
        const [account, tier] = rest;
        const tiers = Object.keys(config.rateLimit.tiers);
        if (!account || !tier || !tiers.includes(tier)) fail(`tier needs an account and one of ${tiers.join(', ')}\n${USAGE}`);
        if (!(await accounts.setTier(account, tier))) fail(`no account named '${account}'`, 1);
        process.stderr.write(`account '${account}' is now on tier '${tier}'\n`);
        break;
      }
      case 'disable':
      case 'enable': {
        const account = rest[0];
        if (!account) fail(`${command} needs an account\n${USAGE}`);
        if (!(await accounts.setDisabled(account, command === 'disable'))) fail(`no account named '${account}'`, 1);
        process.stderr.write(`account '${account}' is ${command}d\n`);
        break;
      }
      default:
        fail(`unknown command '${command}'\n${USAGE}`);
    }
  } catch (err) {
    if (err instanceof KeyStoreError) fail(err.message, 1);
    throw err;
  } finally {
    redis.disconnect();
  }
}

await main();
