import { callSignals } from './call-signals';

describe('call signals (decisions.md 35.3, 35.6)', () => {
  it('reads interested and referrals at the top level or under structuredData', () => {
    expect(callSignals({ interested: true, referrals: ['+14155550185'] })).toEqual({ interested: true, referrals: ['+14155550185'] });
    expect(callSignals({ structuredData: { interested: 'no', referrals: ['+14155550185', '', 7] } })).toEqual({ interested: false, referrals: ['+14155550185'] });
    expect(callSignals({ interested: 'YES', structuredData: { interested: false } }).interested).toBe(true);
  });

  it('no analysis, or nothing it recognises: nothing said', () => {
    expect(callSignals(null)).toEqual({ interested: null, referrals: [] });
    expect(callSignals({ summary: 'Nice call', interested: 'maybe', referrals: 'none' })).toEqual({ interested: null, referrals: [] });
  });
});
