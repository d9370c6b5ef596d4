import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STORED_NO_EFFECT, storedNoEffectFields } from '@outreach/platform';
import { AGENT_FIELDS_OWED, CreateAgentDto, UpdateAgentDto } from '../../libs/agents/src/http/agent-body.dto';
import { CAMPAIGN_FIELDS_OWED, CreateCampaignDto, UpdateCampaignDto } from '../../libs/campaigns/src/http/dto/campaign-body.dto';
import { CreateCampaignTypeDto, UpdateCampaignTypeDto } from '../../libs/campaigns/src/http/dto/misc.dto';

/*
 * docs/settings.md is the inventory of every accepted setting (issue 22, item 1). This reads the
 * DTO classes' properties (their OpenAPI metadata) and fails when a field has no row, a row names
 * no field, or the fields marked "stored, no effect yet" differ between the inventory, the OpenAPI
 * descriptions and the code's owed lists — and when that list grows: it may only shrink.
 */
const MAX_OWED = 10; // 3 campaign + 7 agent fields on 2026-11-28 (the four messaging switches are refused with reasons, decisions 30.20; workflowId takes effect, 37.12); lower it as work lands, never raise it

type Dto = abstract new (...args: never[]) => unknown;

function fieldsOf(...dtos: Dto[]): string[] {
  const names = new Set<string>();
  for (const dto of dtos) {
    const props = (Reflect.getMetadata('swagger/apiModelPropertiesArray', dto.prototype) as string[] | undefined) ?? [];
    for (const p of props) names.add(p.replace(/^:/, ''));
  }
  return [...names].sort();
}

/** `{ section heading → { field → row text } }` from the markdown tables. */
function inventory(): Map<string, Map<string, string>> {
  const doc = readFileSync(join(__dirname, '../../docs/settings.md'), 'utf8');
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const line of doc.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      current = new Map();
      sections.set(heading[1], current);
      continue;
    }
    const row = /^\| `([A-Za-z0-9]+)` \|(.*)$/.exec(line);
    if (row && current) {
      if (current.has(row[1])) throw new Error(`docs/settings.md lists ${row[1]} twice in one section`);
      current.set(row[1], row[2]);
    }
  }
  return sections;
}

function section(title: string): Map<string, string> {
  const found = [...inventory()].find(([heading]) => heading.startsWith(title));
  if (!found) throw new Error(`docs/settings.md has no section "${title}"`);
  return found[1];
}

const owedIn = (rows: Map<string, string>) => [...rows].filter(([, text]) => text.includes(STORED_NO_EFFECT)).map(([field]) => field).sort();

describe('settings inventory (docs/settings.md)', () => {
  const bodies: Array<[string, Dto[], Readonly<Record<string, string>>]> = [
    ['Agent body', [CreateAgentDto, UpdateAgentDto], AGENT_FIELDS_OWED],
    ['Campaign body', [CreateCampaignDto, UpdateCampaignDto], CAMPAIGN_FIELDS_OWED],
    ['Campaign type body', [CreateCampaignTypeDto, UpdateCampaignTypeDto], {}],
  ];

  it.each(bodies)('%s: one row per field, no row without a field', (title, dtos) => {
    const fields = fieldsOf(...dtos);
    expect(fields.length).toBeGreaterThan(2);
    expect([...section(title).keys()].sort()).toEqual(fields);
  });

  it.each(bodies)('%s: the fields stored with no effect yet are the same in the inventory, the OpenAPI descriptions and the code', (title, dtos, owed) => {
    const fields = fieldsOf(...dtos);
    const inDoc = owedIn(section(title));
    expect(inDoc).toEqual(Object.keys(owed).sort());
    for (const dto of dtos) expect(storedNoEffectFields(dto, fields).sort()).toEqual(inDoc);
    for (const [field, owner] of Object.entries(owed)) expect({ field, row: section(title).get(field) }).toEqual({ field, row: expect.stringContaining(owner) });
  });

  it('the list of fields with no effect yet only shrinks', () => {
    const owed = bodies.reduce((n, [title]) => n + owedIn(section(title)).length, 0);
    expect(owed).toBeLessThanOrEqual(MAX_OWED);
  });

  it('every live row says what reads the field and which test proves it', () => {
    for (const title of ['Agent body', 'Campaign body', 'Campaign type body', 'Workspace settings']) {
      for (const [field, text] of section(title)) {
        if (text.includes(STORED_NO_EFFECT)) continue;
        const [, readBy, provedBy] = text.split('|').map((cell) => cell.trim());
        expect({ field, readBy, provedBy }).toEqual({ field, readBy: expect.stringMatching(/\S/), provedBy: expect.stringMatching(/test|spec/) });
        expect({ field, readBy }).not.toEqual({ field, readBy: '—' });
      }
    }
  });
});
