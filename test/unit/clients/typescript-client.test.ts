import { expect } from 'chai';
import { LIST_PARAMETERS } from '../../../clients/typescript/src/index.js';
import { openApiDocument, resolveRef } from '../../../src/openapi/document.js';

/** Every comma-separated query parameter of the contract's operations. */
function contractLists(): string[] {
  const names = new Set<string>();
  for (const operations of Object.values(openApiDocument['paths'] as Record<string, Record<string, { parameters?: object[] }>>)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of (operation.parameters ?? []).map((p) => resolveRef(p as Record<string, unknown>))) {
        const schema = resolveRef(parameter['schema'] as Record<string, unknown>);
        if (parameter['in'] === 'query' && schema['type'] === 'array') names.add(parameter['name'] as string);
      }
    }
  }
  return [...names].sort();
}

describe('the TypeScript client', () => {
  it('when the contract has a comma-separated parameter, then the client sends one value of it as a list', () => {
    expect([...LIST_PARAMETERS].sort()).to.deep.equal(contractLists());
  });
});
