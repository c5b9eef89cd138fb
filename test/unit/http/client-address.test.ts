import { expect } from 'chai';
import { clientAddress } from '../../../src/http/client-address.js';

describe('clientAddress', () => {
  it('when no proxy is trusted, then the peer counts and X-Forwarded-For is ignored', () => {
    expect(clientAddress('10.0.0.9', '1.1.1.1', 0)).to.equal('10.0.0.9');
  });

  it('when one proxy is trusted, then the rightmost entry counts, not what the client wrote on the left', () => {
    expect(clientAddress('10.0.0.2', '6.6.6.6, 7.7.7.7, 203.0.113.5', 1)).to.equal('203.0.113.5');
  });

  it('when two proxies are trusted, then the second entry from the right counts', () => {
    expect(clientAddress('10.0.0.2', 'forged, 203.0.113.5, 198.51.100.1', 2)).to.equal('203.0.113.5');
  });

  it('when the header has fewer entries than trusted hops, then its leftmost entry counts', () => {
    expect(clientAddress('10.0.0.2', '203.0.113.5', 3)).to.equal('203.0.113.5');
  });

  for (const entry of ['not-an-ip', '', '999.1.1.1', 'x'.repeat(300), '1.2.3.4.5']) {
    it(`when the chosen entry is '${entry.slice(0, 20)}', then the peer counts`, () => {
      expect(clientAddress('10.0.0.2', `1.1.1.1, ${entry}`, 1)).to.equal('10.0.0.2');
    });
  }

  it('when the header is absent, then the peer counts', () => {
    expect(clientAddress('10.0.0.2', undefined, 1)).to.equal('10.0.0.2');
  });

  it('when an entry carries a port, then the port is dropped', () => {
    expect(clientAddress(undefined, '203.0.113.5:4711', 1)).to.equal('203.0.113.5');
    expect(clientAddress(undefined, '[2001:db8::1]:443', 1)).to.equal('2001:db8:0:0::/64');
  });

  it('when addresses share an IPv6 /64, then they count as one client', () => {
    const a = clientAddress('2001:db8:1:2::1', undefined, 0);
    const b = clientAddress('2001:DB8:1:2:ffff:ffff:ffff:ffff', undefined, 0);
    const c = clientAddress('2001:db8:1:3::1', undefined, 0);
    expect(a).to.equal('2001:db8:1:2::/64');
    expect(b).to.equal(a);
    expect(c).to.not.equal(a);
  });

  it('when an IPv6 address is spelled with leading zeros or an embedded IPv4 tail, then it is the same /64', () => {
    expect(clientAddress('2001:0db8:0001:0002:0:0:0:1', undefined, 0)).to.equal('2001:db8:1:2::/64');
    expect(clientAddress('64:ff9b::192.0.2.1', undefined, 0)).to.equal('64:ff9b:0:0::/64');
  });

  it('when the peer is an IPv4-mapped IPv6 address, then it is the IPv4 address', () => {
    expect(clientAddress('::ffff:127.0.0.1', undefined, 0)).to.equal('127.0.0.1');
  });
});
