import { type Client, errors } from '@elastic/elasticsearch';

/**
 * How the `_aliases` call fails: before reaching Elasticsearch; applied and then reported as
 * failed (a timeout after the fact); or either of those with every alias read after it failing too
 * (a proxy that dropped the answers), so the caller cannot learn where the alias is.
 */
export type AliasSwapFault = 'refused' | 'applied-then-lost' | 'refused-then-silent' | 'applied-then-silent';

const bind = (target: object, prop: string | symbol) => {
  const value = Reflect.get(target, prop) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
};

/** The real client with one fault injected into `_aliases`, everything else passing. */
export function failingAliasSwap(es: Client, fault: AliasSwapFault): Client {
  let swapped = false;
  const indices = new Proxy(es.indices, {
    get(target, prop) {
      if (prop === 'getAlias' && fault.endsWith('-then-silent')) {
        return (...args: Parameters<Client['indices']['getAlias']>) =>
          swapped ? Promise.reject(new errors.ConnectionError('injected: the alias read failed')) : target.getAlias(...args);
      }
      if (prop !== 'updateAliases') return bind(target, prop);
      return async (...args: Parameters<Client['indices']['updateAliases']>) => {
        if (fault.startsWith('applied')) await target.updateAliases(...args);
        swapped = true;
        throw new errors.ConnectionError('injected: the _aliases call failed');
      };
    },
  });
  return new Proxy(es, { get: (target, prop) => (prop === 'indices' ? indices : bind(target, prop)) });
}
