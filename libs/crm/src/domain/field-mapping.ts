import { AppError, isExcelMangledPhone } from '@outreach/core';
import type { CrmRecord } from './crm-provider-info';

/** CRM field → contact field (`phone`, `name`, `altPhone`) or contact variable (`fields.<key>`). */
export interface FieldMapping {
  source: string;
  target: string;
}

/** The contact a record becomes (phone as the CRM holds it; campaigns normalises it). */
export interface MappedContact {
  phone: string;
  name?: string;
  altPhones?: string[];
  fields: Record<string, string>;
}

export const CONTACT_TARGETS = ['phone', 'name', 'altPhone'] as const;
const VARIABLE_TARGET = /^fields\.[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const MAX_MAPPINGS = 100;
/** The contact variable holding the record's id in the CRM. */
export const CRM_RECORD_ID_FIELD = 'crm_record_id';

/** Which record fields feed phone and name when no mapping says otherwise. */
export interface DefaultMapping {
  phone: readonly string[];
  name: readonly string[];
}

/**
 * Checks a mapping set against the provider's fields: 400 invalid_mapping_source (a field the
 * provider does not have), 400 invalid_mapping_target (not phone / name / altPhone / fields.<key>,
 * `fields.crm_record_id` (reserved), or phone / a variable named twice). Sources are checked first.
 */
export function assertMappings(mappings: readonly FieldMapping[], sources: readonly string[]): void {
  mappings.forEach((m, i) => {
    if (!sources.includes(m.source)) {
      throw new AppError('invalid_mapping_source', {
        message: `${JSON.stringify(m.source)} is not a field of this CRM (${sources.join(', ')})`,
        issues: [{ path: `mappings.${i}.source`, message: 'unknown CRM field' }],
      });
    }
  });
  const seen = new Set<string>();
  mappings.forEach((m, i) => {
    const valid = (CONTACT_TARGETS as readonly string[]).includes(m.target) || (VARIABLE_TARGET.test(m.target) && m.target !== `fields.${CRM_RECORD_ID_FIELD}`);
    const repeated = m.target !== 'altPhone' && m.target !== 'name' && seen.has(m.target);
    if (!valid || repeated) {
      throw new AppError('invalid_mapping_target', {
        message: repeated
          ? `${m.target} is mapped twice`
          : `${JSON.stringify(m.target)}: expected phone, name, altPhone or fields.<key> (letters, digits, _; not fields.${CRM_RECORD_ID_FIELD})`,
        issues: [{ path: `mappings.${i}.target`, message: repeated ? 'target mapped twice' : 'invalid target' }],
      });
    }
    seen.add(m.target);
  });
}

const text = (value: string | null | undefined): string => (value ?? '').trim();

/**
 * A record as a campaign contact. Without mappings: phone from the provider's default phone fields
 * (the first non-empty), name from its name fields (joined), every other non-empty field a variable
 * of the same name. With mappings: the mapped fields only (phone and name fall back to the defaults
 * when no mapping names them). The record id is always kept as `fields.crm_record_id`. A phone in
 * scientific notation (a spreadsheet's damage) counts as missing. Null when the record has no phone.
 */
export function mapRecord(record: CrmRecord, mappings: readonly FieldMapping[], defaults: DefaultMapping): MappedContact | null {
  const props = record.properties;
  const firstOf = (sources: readonly string[]) => sources.map((s) => text(props[s])).find((v) => v !== '') ?? '';
  const fields: Record<string, string> = {};
  let phone = '';
  let names: string[] = [];
  const altPhones: string[] = [];
  if (mappings.length === 0) {
    phone = firstOf(defaults.phone);
    names = defaults.name.map((s) => text(props[s])).filter((v) => v !== '');
    const used = new Set([...defaults.phone, ...defaults.name]);
    for (const [key, value] of Object.entries(props)) {
      if (!used.has(key) && text(value) !== '') fields[key] = text(value);
    }
  } else {
    for (const m of mappings) {
      const value = text(props[m.source]);
      if (value === '') continue;
      if (m.target === 'phone') phone = value;
      else if (m.target === 'name') names.push(value);
      else if (m.target === 'altPhone') altPhones.push(value);
      else fields[m.target.slice('fields.'.length)] = value;
    }
    if (!mappings.some((m) => m.target === 'phone')) phone = firstOf(defaults.phone);
    if (!mappings.some((m) => m.target === 'name')) names = defaults.name.map((s) => text(props[s])).filter((v) => v !== '');
  }
  if (phone === '' || isExcelMangledPhone(phone)) return null;
  fields[CRM_RECORD_ID_FIELD] = record.id;
  const contact: MappedContact = { phone, fields };
  if (names.length > 0) contact.name = names.join(' ').slice(0, 200);
  if (altPhones.length > 0) contact.altPhones = altPhones.filter((p) => !isExcelMangledPhone(p));
  return contact;
}
