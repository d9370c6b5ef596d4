import { isPublicHoliday, recipientLocaleOf } from './recipient-locale';

describe('recipient locale from the number (decisions.md 28.2)', () => {
  it.each([
    ['+81312345678', 'Asia/Tokyo', 'JP'], // one zone for the country
    ['+819012345678', 'Asia/Tokyo', 'JP'],
    ['+442079460000', 'Europe/London', 'GB'],
    ['+919876543210', 'Asia/Kolkata', 'IN'],
    ['+12127363100', 'America/New_York', 'US-NY'], // NANP area codes
    ['+14155550123', 'America/Los_Angeles', 'US-CA'],
    ['+13125550123', 'America/Chicago', 'US-IL'],
    ['+13035550123', 'America/Denver', 'US-CO'],
    ['+16025550123', 'America/Phoenix', 'US-AZ'],
    ['+19155550123', 'America/Denver', 'US-TX'], // El Paso: Mountain, unlike the rest of Texas
    ['+16135550123', 'America/Toronto', 'CA-ON'],
    ['+16045550123', 'America/Vancouver', 'CA-BC'],
    ['+61298765432', 'Australia/Sydney', 'AU-NSW'],
    ['+61893456789', 'Australia/Perth', 'AU-WA'],
    ['+5511987654321', 'America/Sao_Paulo', 'BR-SP'],
    ['+5592987654321', 'America/Manaus', 'BR-AM'],
    ['+74951234567', 'Europe/Moscow', 'RU'],
    ['+73832123456', 'Asia/Novosibirsk', 'RU'],
    ['+525512345678', 'America/Mexico_City', 'MX'],
    ['+622112345678', 'Asia/Jakarta', 'ID'],
    ['+34912345678', 'Europe/Madrid', 'ES'], // main zone…
    ['+34928123456', 'Atlantic/Canary', 'ES'], // …and the islands' prefixes
    ['+5491123456789', 'America/Argentina/Buenos_Aires', 'AR'], // several zones, one offset
  ])('%s → %s (%s)', (phone, zone, region) => {
    expect(recipientLocaleOf(phone)).toEqual({ zone, region });
  });

  it('a country spanning zones whose number the table does not place: zone unknown (the campaign zone applies), holidays still known', () => {
    expect(recipientLocaleOf('+61412345678')).toEqual({ zone: null, region: 'AU' }); // an Australian mobile
    expect(recipientLocaleOf('+79161234567')).toEqual({ zone: null, region: 'RU' }); // a Russian mobile
    expect(recipientLocaleOf('+18675550123')).toEqual({ zone: null, region: 'CA' }); // 867: three territories
  });

  it('an invalid number: nothing known', () => {
    expect(recipientLocaleOf('+1555')).toEqual({ zone: null, region: null });
    expect(recipientLocaleOf('not a number')).toEqual({ zone: null, region: null });
  });

  it('remembers areas, never an invalid number: an invalid number first does not hide its area', () => {
    expect(recipientLocaleOf('+1720')).toEqual({ zone: null, region: null });
    expect(recipientLocaleOf('+17205550123')).toEqual({ zone: 'America/Denver', region: 'US-CO' });
    expect(recipientLocaleOf('+17209990000')).toEqual({ zone: 'America/Denver', region: 'US-CO' });
    expect(recipientLocaleOf('+4915112345678')).toEqual({ zone: 'Europe/Berlin', region: 'DE' });
  });

  it('public holidays by local date, for countries and subdivisions', () => {
    expect(isPublicHoliday('JP', '2026-11-23')).toBe(true); // Labour Thanksgiving Day
    expect(isPublicHoliday('JP', '2026-11-24')).toBe(false);
    expect(isPublicHoliday('US-NY', '2026-11-26')).toBe(true); // Thanksgiving
    expect(isPublicHoliday('US', '2026-11-26')).toBe(true);
    expect(isPublicHoliday('US-NY', '2026-11-25')).toBe(false);
    expect(isPublicHoliday('ZZ', '2026-01-01')).toBe(false); // no calendar: never a holiday
  });
});
