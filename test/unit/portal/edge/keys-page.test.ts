import { expect } from 'chai';
import { keysPage } from '../../../../src/portal/edge/views.js';

describe('the keys page', () => {
  it('when a key was used in the minute it was made, then its last use reads as that minute, never as before it was made', () => {
    const page = keysPage(
      { account: { name: 'dev@example.com', tier: 'free', csrf: 'token' } },
      [
        {
          key_id: 'key_abc',
          name: 'laptop',
          created_at: '2026-11-29T14:33:29.819Z',
          last_used: '2026-11-29T14:33:00.000Z',
          recent_requests: 3,
          revoked_at: null,
          expires_at: null,
        },
      ],
      { formId: 'form', accountId: 'acct' },
    );
    expect(page).to.include('<td>2026-11-29T14:33Z</td>');
    expect(page).not.to.include('14:33:00.000Z');
  });
});
