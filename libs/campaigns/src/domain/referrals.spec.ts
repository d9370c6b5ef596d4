import { referralsAllowed } from './referrals';

describe('referrals (decisions.md 35.6)', () => {
  const campaign = (source: 'CSV' | 'CRM_MANUAL' | 'API' | 'CRM_WEBHOOK', referralMaxDepth: number) => ({ source, settings: { referralMaxDepth } });

  it('only while the referrer is less deep than referralMaxDepth (0 adds none)', () => {
    expect(referralsAllowed(campaign('CSV', 0), 0)).toBe(false);
    expect(referralsAllowed(campaign('CSV', 2), 1)).toBe(true);
    expect(referralsAllowed(campaign('CRM_MANUAL', 2), 2)).toBe(false);
  });

  it('only list-sourced campaigns: API and webhook contacts are the client’s leads', () => {
    expect(referralsAllowed(campaign('API', 3), 0)).toBe(false);
    expect(referralsAllowed(campaign('CRM_WEBHOOK', 3), 0)).toBe(false);
  });
});
