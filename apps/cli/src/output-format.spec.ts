import { renderAnswer } from './output-format';

describe('CLI output formats', () => {
  it('json: the answer as one indented JSON document', () => {
    const answer = { workspace: { id: 'w1', createdAt: new Date('2027-01-01T00:00:00Z') } };
    expect(renderAnswer(answer, 'json')).toBe(`${JSON.stringify({ workspace: { id: 'w1', createdAt: '2027-01-01T00:00:00.000Z' } }, null, 2)}\n`);
  });

  it('table: an object as aligned key/value lines, the {workspace: …} wrapper dropped', () => {
    const answer = {
      workspace: { id: 'w1', name: 'Acme', features: ['crm', 'email'], trialUntil: null, activityFrozen: false, createdAt: new Date('2027-01-01T00:00:00Z') },
    };
    expect(renderAnswer(answer, 'table')).toBe(
      [
        'id              w1',
        'name            Acme',
        'features        crm,email',
        'trialUntil      -',
        'activityFrozen  false',
        'createdAt       2027-01-01T00:00:00.000Z',
        '',
      ].join('\n'),
    );
  });

  it('table: nested objects as dotted keys, next to the top-level members', () => {
    const answer = { entry: { id: 'e1', amountMinor: 2500, reference: null }, balanceMinor: 2500, replayed: false };
    expect(renderAnswer(answer, 'table')).toBe(
      ['entry.id           e1', 'entry.amountMinor  2500', 'entry.reference    -', 'balanceMinor       2500', 'replayed           false', ''].join('\n'),
    );
  });

  it('table: a list of objects as aligned columns with a header row, no trailing blanks', () => {
    const answer = {
      keys: [
        { id: 'k1', name: 'crm sync', scopes: ['calls.edit', 'campaigns.view'], revokedAt: null },
        { id: 'k22', name: 'ci', scopes: [], revokedAt: '2027-01-01T00:00:00.000Z', note: 'line one\nline two' },
      ],
    };
    const text = renderAnswer(answer, 'table');
    expect(text).toBe(
      [
        'id   name      scopes                     revokedAt                 note',
        'k1   crm sync  calls.edit,campaigns.view  -                         -',
        'k22  ci        -                          2027-01-01T00:00:00.000Z  line one\\nline two',
        '',
      ].join('\n'),
    );
    for (const line of text.split('\n')) expect(line).toBe(line.trimEnd());
  });

  it('table: a list next to other members gets its name as a heading; an empty list reads "-"', () => {
    const answer = { campaignId: 'c1', contacts: [{ id: 'x', phone: '+14155550100' }] };
    expect(renderAnswer(answer, 'table')).toBe(['campaignId  c1', '', 'contacts:', 'id  phone', 'x   +14155550100', ''].join('\n'));
    expect(renderAnswer({ keys: [] }, 'table')).toBe('keys  -\n');
    expect(renderAnswer({ applied: ['A1763700000000', 'B1763700000001'] }, 'table')).toBe('applied  A1763700000000,B1763700000001\n');
  });
});
