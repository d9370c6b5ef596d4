import Holidays from 'date-holidays';
import { DateTime } from 'luxon';
import { phoneCountry } from '@outreach/core';
import { AREA_ZONES, COUNTRY_MAIN_ZONES } from './recipient-area-zones';

/**
 * Where a recipient is, as far as their number tells (decisions.md 28.2): stored per contact when
 * it is created, so the dispatcher never parses numbers on its hot path.
 */
export interface RecipientLocale {
  /** The recipient's IANA zone; null when the number does not tell (the campaign's zone applies). */
  zone: string | null;
  /** Whose public holidays apply: a country ("JP") or a country's subdivision ("US-NY"); null when unknown. */
  region: string | null;
}

export const UNKNOWN_LOCALE: RecipientLocale = Object.freeze({ zone: null, region: null });

interface AreaEntry {
  zone: string;
  region: string | null;
}

let areaTables: Map<string, Map<string, AreaEntry>> | null = null;
const countryZones = new Map<string, string | null>();
const calendars = new Map<string, Holidays | null>();
const holidaySets = new Map<string, ReadonlySet<string>>();

function areaTable(country: string): Map<string, AreaEntry> | undefined {
  if (!areaTables) {
    areaTables = new Map();
    for (const [c, rows] of Object.entries(AREA_ZONES)) {
      const table = new Map<string, AreaEntry>();
      for (const [zone, region, prefixes] of rows) {
        for (const prefix of prefixes.split(' ')) table.set(prefix, { zone, region });
      }
      areaTables.set(c, table);
    }
  }
  return areaTables.get(country);
}

/** The public-holiday calendar of a country or subdivision ("US", "US-NY"); null when date-holidays has none. */
function calendar(region: string): Holidays | null {
  if (!calendars.has(region)) {
    const [country, state] = region.split('-');
    const catalogue = new Holidays();
    const known = country in (catalogue.getCountries() ?? {}) && (!state || state in (catalogue.getStates(country) ?? {}));
    calendars.set(region, known ? (state ? new Holidays(country, state) : new Holidays(country)) : null);
  }
  return calendars.get(region) ?? null;
}

/** UTC offsets of a zone in January and July (a zone's identity for "same time everywhere"). */
function offsets(zone: string): string {
  const jan = DateTime.fromObject({ year: 2026, month: 1, day: 15 }, { zone });
  const jul = DateTime.fromObject({ year: 2026, month: 7, day: 15 }, { zone });
  return `${jan.offset}/${jul.offset}`;
}

/**
 * The one zone of a country: its only zone, its main zone (COUNTRY_MAIN_ZONES), or its first zone
 * when all of them keep the same offsets all year; null when the country spans zones.
 */
function zoneOfCountry(country: string): string | null {
  if (!countryZones.has(country)) {
    const zones = calendar(country)?.getTimezones() ?? [];
    let zone: string | null = COUNTRY_MAIN_ZONES[country] ?? null;
    if (!zone && zones.length > 0 && new Set(zones.map(offsets)).size === 1) zone = zones[0];
    countryZones.set(country, zone);
  }
  return countryZones.get(country) ?? null;
}

/**
 * The recipient's zone and holiday region from an E.164 number: the country from libphonenumber-js;
 * its zone when it has one; else the area table's zone for the longest known prefix of the national
 * number (US/CA area codes, AU, BR, MX, RU, ID area codes); else unknown (the campaign's zone).
 */
export function recipientLocaleOf(e164: string): RecipientLocale {
  const key = e164.slice(0, e164.startsWith('+1') ? NANP_MEMO_PREFIX : MEMO_PREFIX);
  const known = memo.get(key);
  if (known) return known;
  const parsed = phoneCountry(e164);
  if (!parsed) return UNKNOWN_LOCALE;
  const locale = localeFrom(parsed.country, parsed.nationalNumber);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, locale);
  return locale;
}

/**
 * Valid numbers that share their first 9 characters of E.164 (calling code and the next digits: at
 * least five national digits) share a country and an area; in the North American plan the area code
 * alone decides both ("+1" and three digits). So an import of 100,000 numbers parses each area once
 * rather than every number a second time (the importer already parsed it to normalise it). An invalid
 * number is never remembered; stored numbers are valid.
 */
const MEMO_PREFIX = 9;
const NANP_MEMO_PREFIX = 5;
const MEMO_MAX = 50_000;
const memo = new Map<string, RecipientLocale>();

function localeFrom(country: string, nationalNumber: string): RecipientLocale {
  const table = areaTable(country);
  if (table) {
    for (let length = Math.min(4, nationalNumber.length); length >= 1; length--) {
      const hit = table.get(nationalNumber.slice(0, length));
      if (hit) return { zone: hit.zone, region: hit.region ? `${country}-${hit.region}` : country };
    }
  }
  return { zone: zoneOfCountry(country), region: country };
}

/** The public holidays (type "public") of a region in a year, as local dates YYYY-MM-DD. */
function publicHolidays(region: string, year: number): ReadonlySet<string> {
  const key = `${region}:${year}`;
  let set = holidaySets.get(key);
  if (!set) {
    const cal = calendar(region) ?? (region.includes('-') ? calendar(region.split('-')[0]) : null);
    const days = (cal?.getHolidays(year) ?? []).filter((h) => h.type === 'public').map((h) => h.date.slice(0, 10));
    set = new Set(days);
    holidaySets.set(key, set);
  }
  return set;
}

/** Whether the local date (YYYY-MM-DD) is a public holiday in the region (date-holidays, type "public"). */
export function isPublicHoliday(region: string, localDate: string): boolean {
  return publicHolidays(region, Number(localDate.slice(0, 4))).has(localDate);
}
