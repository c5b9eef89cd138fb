import { expect } from 'chai';
import type { Context } from 'koa';
import { nextLinkQuery, setNextLink } from '../../../../src/wallpapers/edge/page-envelope.js';

/** A response's Link header, as setNextLink leaves it for a request of that path. */
function linkFor(path: string, linkQuery: string, cursor: string | null): string | undefined {
  const headers: Record<string, string> = {};
  setNextLink({ path, set: (name: string, value: string) => (headers[name] = value) } as unknown as Context, cursor, linkQuery);
  return headers['Link'];
}

describe('the next page link', () => {
  it('when the request has page and padded values, then the link has every other parameter, trimmed, and the cursor', () => {
    const query = nextLinkQuery('category=%20%20space&page=2&q=misty+forest&per_page=%095', undefined);
    expect(query).to.equal('category=space&q=misty+forest&per_page=5');
    expect(linkFor('/v1/search', query, 'AbC')).to.equal('</v1/search?category=space&q=misty+forest&per_page=5&cursor=AbC>; rel="next"');
  });

  it('when the API picked the seed, then the link carries it, so the next page walks the same order', () => {
    expect(nextLinkQuery('sort=random', 'k3y')).to.equal('sort=random&seed=k3y');
  });

  it('when the link would pass the 4,096 characters the contract allows, then there is none; on the last page neither', () => {
    const long = nextLinkQuery(
      `exclude_tags=${Array.from({ length: 50 }, (_, i) => `${'t'.repeat(28)}${1000 + i}`).join(',')}&q=${'%C3%A9'.repeat(200)}&exclude_ids=${Array.from({ length: 100 }, (_, i) => 9_007_199_254_740_000 + i).join(',')}`,
      undefined,
    );
    expect(linkFor('/v1/search', long, 'AbC')).to.equal(undefined);
    expect(linkFor('/v1/search', 'q=sky', 'AbC')).to.have.length.below(4096);
    expect(linkFor('/v1/search', 'q=sky', null)).to.equal(undefined);
  });
});
