// npm run --silent keys -- create --tier free|premium [--account NAME | --account id:ACCOUNT_ID]
// npm run --silent keys -- list [--json]
// npm run --silent keys -- revoke <key-id>
// npm run --silent keys -- tier <account> <tier> | disable <account> | enable <account>
// Every name and email is printed with what does not show escaped (see printable).
import { parseArgs } from 'node:util';
import { cannotReach, ConfigError, loadConfig } from '../src/config.js';
import { connectedRedis } from '../src/infra/redis.js';
import { KeyStoreError, createKeyStore, portalAccountRefused } from '../src/access/store/key-store.js';
import { type AccountRef, type OperatorChange, createAccountStore, parseAccountRef } from '../src/access/store/account-store.js';
import { printable, printableJson } from '../src/infra/visible-text.js';
import { type UnloggedWithdrawal, unloggedSentence } from '../src/access/store/withdrawal-log.js';

const USAGE = `usage:
  keys create --tier TIER [--account ACCOUNT]          prints the new API key alone on stdout (shown once);
                                                       TIER is required: one of RATE_LIMIT_TIERS' names
                                                       (free, premium unless configured); an account
                                                       that exists keeps its tier (see 'keys tier')
  keys list [--json]                                   key ids, accounts, tiers, created and revoked times,
                                                       and when each key's account was disabled
  keys revoke <key-id>                                 revokes the key; takes effect on the next request
  keys tier <account> <tier>                           moves the account to TIER
  keys disable <account>                               its keys answer 403 and it cannot sign in to the portal
  keys enable <account>                                undoes disable
  keys --help                                          this text

ACCOUNT is the name of an account the operators made (created by 'create' on first use), or
id:<account id> for any account. A portal account is reached only by its id, which its owner
sees on the portal's API Keys page: its name is an email that anyone could have registered.`;

function fail(message: string, code = 2): never {
  process.stderr.write(`keys: ${message}\n`);
  process.exit(code);
}

const named = (ref: AccountRef) => ('id' in ref ? `id:${printable(ref.id)}` : `'${printable(ref.name)}'`);

function reportChange(outcome: OperatorChange, ref: AccountRef): void {
  if (outcome === 'no-account') fail(`no account ${named(ref)}`, 1);
  if (outcome === 'portal-account') fail(portalAccountRefused('name' in ref ? ref.name : ''), 1);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        tier: { type: 'string' },
        account: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const { positionals, values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const [command, ...rest] = positionals;
  if (!command) fail(USAGE);

  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  let redis;
  try {
    redis = await connectedRedis({ url: config.redisUrl, commandTimeoutMs: 5000 });
  } catch (err) {
    fail(cannotReach('Redis', config.redisUrl, err instanceof Error ? err.message : String(err)), 1);
  }
  // Said after the command's own line: the change is made, and this is what it leaves open.
  const unlogged: string[] = [];
  const onUnlogged = (u: UnloggedWithdrawal) => unlogged.push(`warning: ${printable(unloggedSentence(u))}\n`);
  const store = createKeyStore(redis, { onUnlogged });
  const accounts = createAccountStore(redis, { onUnlogged });
  try {
    switch (command) {
      case 'create': {
        const tiers = Object.keys(config.rateLimit.tiers);
        if (!values.tier || !tiers.includes(values.tier)) fail(`--tier must be one of ${tiers.join(', ')}\n${USAGE}`);
        const ref = values.account === undefined ? undefined : parseAccountRef(values.account);
        if (ref && 'name' in ref && !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/.test(ref.name)) {
          fail('--account must be 1-100 characters of letters, digits, . _ @ -, or id:<account id>');
        }
        const created = await store.createKey({ tier: values.tier, ...(ref && ('id' in ref ? { accountId: ref.id } : { account: ref.name })) });
        process.stderr.write(
          `created ${created.keyId} for account '${printable(created.account)}' (id ${created.accountId}, ${created.tier}); the key is shown once:\n`,
        );
        process.stdout.write(`${created.apiKey}\n`);
        // Made all the same (an operator may ready a key before enabling the account), but never unsaid.
        if (created.disabledAt !== null) {
          const ref = `id:${created.accountId}`;
          process.stderr.write(
            `account '${printable(created.account)}' is disabled (since ${created.disabledAt}): this key answers 403 until keys enable ${ref}\n`,
          );
        }
        break;
      }
      case 'list': {
        const keys = await store.listKeys();
        if (values.json) {
          process.stdout.write(`${printableJson(keys)}\n`);
          break;
        }
        const rows = [['KEY ID', 'NAME', 'ACCOUNT', 'ACCOUNT ID', 'TIER', 'CREATED', 'REVOKED', 'ACCOUNT DISABLED']];
        for (const k of keys) {
          rows.push(
            [k.key_id, k.name || '-', k.account, k.account_id, k.tier, k.created_at, k.revoked_at ?? '-', k.account_disabled_at ?? '-'].map(
              printable,
            ),
          );
        }
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
        const revoked = await store.revokeKey(keyId);
        if (revoked === null) fail(`no key with id ${printable(keyId)}`, 1);
        process.stderr.write(
          revoked.already
            ? `${printable(keyId)} was already revoked at ${revoked.revokedAt}\n`
            : `revoked ${printable(keyId)} at ${revoked.revokedAt}\n`,
        );
        break;
      }
      case 'tier': {
        const [account, tier] = rest;
        const tiers = Object.keys(config.rateLimit.tiers);
        if (!account || !tier) fail(`tier needs an account and one of ${tiers.join(', ')}\n${USAGE}`);
        if (!tiers.includes(tier)) fail(`tier '${printable(tier)}' is not one of ${tiers.join(', ')} (RATE_LIMIT_TIERS)`);
        const ref = parseAccountRef(account);
        reportChange(await accounts.setTier(ref, tier), ref);
        process.stderr.write(`account ${named(ref)} is now on tier '${tier}'\n`);
        break;
      }
      case 'disable':
      case 'enable': {
        const account = rest[0];
        if (!account) fail(`${command} needs an account\n${USAGE}`);
        const ref = parseAccountRef(account);
        reportChange(await accounts.setDisabled(ref, command === 'disable'), ref);
        process.stderr.write(`account ${named(ref)} is ${command}d\n`);
        break;
      }
      default:
        fail(`unknown command '${printable(command)}'\n${USAGE}`);
    }
    for (const line of unlogged) process.stderr.write(line);
  } catch (err) {
    if (err instanceof KeyStoreError) fail(err.message, 1);
    throw err;
  } finally {
    redis.disconnect();
  }
}

await main();
