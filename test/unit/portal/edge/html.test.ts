import { expect } from 'chai';
import { escapeHtml, html } from '../../../../src/portal/edge/html.js';

describe('portal html', () => {
  it('when text holds markup characters, then each is escaped for content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).to.equal('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('when a value is interpolated, then it is escaped; nested html fragments are not escaped twice', () => {
    const name = '<script>alert(1)</script>';
    const inner = html`<b>${name}</b>`;
    expect(html`<td>${inner}</td>`.value).to.equal('<td><b>&lt;script&gt;alert(1)&lt;/script&gt;</b></td>');
  });

  it('when values are null, false or lists, then nothing or each item is rendered', () => {
    expect(html`${null}${false}${undefined}${[html`<i>1</i>`, '<2>']}`.value).to.equal('<i>1</i>&lt;2&gt;');
  });
});
