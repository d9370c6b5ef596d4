import { calleeName } from './callee-name';

describe('calleeName', () => {
  it.each([
    ['Cyrillic', 'Дмитрий Иванов', 'Dmitriy Ivanov'],
    ['Greek', 'Γιώργος Παπαδόπουλος', 'Giorgos Papadopoylos'],
    ['Arabic', 'محمد علي', 'mHmd aaly'],
    ['Devanagari', 'राहुल शर्मा', 'raahul shrmaa'],
    ['Chinese', '王小明', 'Wang Xiao Ming'],
    ['mixed scripts', 'José 王小明', 'José Wang Xiao Ming'],
    ['Latin with accents and punctuation', "Anne-Marie O'Neil Müller", "Anne-Marie O'Neil Müller"],
  ])('transliterates %s to Latin letters', (_script, name, latin) => {
    expect(calleeName(name, true)).toBe(latin);
  });

  it('leaves the name as uploaded when the setting is off, and has no name as an empty string', () => {
    expect(calleeName('Дмитрий Иванов', false)).toBe('Дмитрий Иванов');
    expect(calleeName(null, true)).toBe('');
  });
});
