import { callVariables, SYSTEM_VARIABLES, systemVariableValues } from './template-variables';

const FACTS = {
  agentName: 'Ava',
  callerPhone: '+14155550100',
  campaignName: 'Renewals',
  contactName: 'Mira',
  contactPhone: '+14155550107',
  timezone: 'Europe/Paris',
  workspaceName: 'Acme',
  now: new Date('2026-03-29T00:59:00Z'), // 01:59 in Paris, a minute before the clocks go forward
};

describe('system variables', () => {
  it('fills every advertised name, dates and times on the wall clock of the timezone', () => {
    const values = systemVariableValues(FACTS);
    expect(Object.keys(values).sort()).toEqual([...SYSTEM_VARIABLES].sort());
    expect(values).toMatchObject({ current_date: '2026-03-29', current_day: 'Sunday', current_time: '01:59', timezone: 'Europe/Paris' });
    expect(systemVariableValues({ ...FACTS, now: new Date('2026-03-29T01:00:00Z') }).current_time).toBe('03:00');
    expect(systemVariableValues({ ...FACTS, timezone: 'Pacific/Kiritimati' })).toMatchObject({ current_date: '2026-03-29', current_time: '14:59' });
    expect(systemVariableValues({ ...FACTS, timezone: 'Pacific/Pago_Pago' })).toMatchObject({ current_date: '2026-03-28', current_day: 'Saturday' });
  });

  it('midnight is 00:00, not 24:00', () => {
    expect(systemVariableValues({ ...FACTS, timezone: 'UTC', now: new Date('2026-11-25T00:00:00Z') }).current_time).toBe('00:00');
  });

  it("the contact's own values join them as strings; a value of the same name never overrides the service's", () => {
    const vars = callVariables({ plan: 'gold', seats: 12, vip: true, note: null, agent_name: 'Mallory' }, FACTS);
    expect(vars).toMatchObject({ plan: 'gold', seats: '12', vip: 'true', agent_name: 'Ava' });
    expect('note' in vars).toBe(false);
  });
});
