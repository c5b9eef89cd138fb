import { expect } from 'chai';
import { checkRecord, isHttpUrl, isUtcTimestamp } from '../../../../src/catalogue/ingest/wallpaper-record.js';

const VALID = {
  id: 42,
  title: 'Crimson Nebula Drift',
  description: 'Gas clouds over a dark sky.',
  url: 'https://images.example/full/42.jpg',
  thumbnail: 'http://images.example/thumb/42.jpg',
  resolution: '3840x2160',
  category: 'space',
  downloads: 0,
  created_at: '2024-02-29T23:59:59Z',
};

const line = (changes: Record<string, unknown>, drop: string[] = []) => {
  const record: Record<string, unknown> = { ...VALID, ...changes };
  for (const field of drop) delete record[field];
  return JSON.stringify(record);
};

function rejection(text: string) {
  const verdict = checkRecord(text);
  if (verdict.ok) throw new Error(`expected a rejection for ${text}`);
  return verdict;
}

describe('checkRecord', () => {
  it('when the record has the nine valid fields, then it yields the document with width and height derived', () => {
    const verdict = checkRecord(line({}));
    expect(verdict).to.deep.equal({ ok: true, document: { ...VALID, width: 3840, height: 2160 } });
  });

  it('when the line is not JSON, then it is rejected as invalid_json without an id', () => {
    expect(rejection('{"id": 1,')).to.include({ code: 'invalid_json', id: null });
  });

  it('when the JSON is not an object, then the reason says a record must be an object', () => {
    for (const text of ['[1]', 'null', '"x"', '7']) expect(rejection(text).reason).to.equal('the record must be a JSON object');
  });

  it('when a field is missing or unknown, then the reason names it', () => {
    expect(rejection(line({}, ['thumbnail'])).reason).to.equal('missing field "thumbnail"');
    expect(rejection(line({ colour: 'red' })).reason).to.equal('unknown field "colour"');
    expect(rejection(line({ width: 3840 })).reason).to.equal('unknown field "width"');
  });

  it('when the id is not a positive safe integer, then it is rejected and the raw id is kept for the report', () => {
    expect(rejection(line({ id: '42' }))).to.include({ id: '42', reason: 'id must be an integer' });
    expect(rejection(line({ id: 0 })).reason).to.equal('id must be a positive safe integer');
    expect(rejection(line({ id: 1.5 })).reason).to.equal('id must be an integer');
    expect(rejection(line({ id: 2 ** 53 })).reason).to.equal('id must be a positive safe integer');
  });

  it('when downloads is negative or fractional, then it is rejected', () => {
    expect(rejection(line({ downloads: -1 })).reason).to.equal('downloads must be a non-negative safe integer');
    expect(rejection(line({ downloads: 2.5 })).reason).to.equal('downloads must be an integer');
  });

  it('when the resolution is not <w>x<h>, then it is rejected with the expected form', () => {
    for (const resolution of ['1920X1080', '1920x', '0x1080', '01920x1080', '1920 x 1080']) {
      expect(rejection(line({ resolution })).reason).to.match(/^resolution must be <width>x<height>/);
    }
  });

  it('when url or thumbnail is not an absolute http(s) URL, then it is rejected', () => {
    for (const url of ['ftp://host/a.jpg', '/full/a.jpg', 'https://', 'https:///a.jpg', 'https://host/a b.jpg', 'images.example/a.jpg']) {
      expect(rejection(line({ url })).reason, url).to.equal('url must be an absolute http(s) URL');
    }
    expect(rejection(line({ thumbnail: 'mailto:a@b' })).reason).to.equal('thumbnail must be an absolute http(s) URL');
  });

  it('when the category is not one of the set, then the reason lists the allowed ones', () => {
    expect(rejection(line({ category: 'Space' })).reason).to.match(/^category must be one of abstract, animals, .*technology$/);
  });

  it('when created_at is not a real ISO 8601 UTC time, then it is rejected', () => {
    for (const created_at of [
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T00:00:00+01:00',
      '2024-01-01',
      'yesterday',
    ]) {
      expect(rejection(line({ created_at })).reason, created_at).to.match(/^created_at must be a real date and time in ISO 8601 UTC/);
    }
  });

  it('when the title is blank or a text field is not a string, then it is rejected', () => {
    expect(rejection(line({ title: '  ' })).reason).to.equal('title must not be blank');
    expect(rejection(line({ description: 5 })).reason).to.equal('description must be a string');
  });

  it('when a record has several problems, then every one is named', () => {
    const { reason } = rejection(line({ downloads: -1, category: 'x', extra: 1 }));
    expect(reason.split('; ')).to.have.members([
      'unknown field "extra"',
      `category must be one of ${'abstract, animals, anime, architecture, cars, cityscapes, fantasy, flowers, food, games, landscapes, minimalist, movies, music, nature, ocean, space, sports, technology'}`,
      'downloads must be a non-negative safe integer',
    ]);
  });
});

describe('isUtcTimestamp', () => {
  it('when the day exists and the zone is Z, then it is accepted, milliseconds included', () => {
    for (const value of ['2024-02-29T00:00:00Z', '1999-12-31T23:59:59Z', '2026-06-30T12:00:00.123Z'])
      expect(isUtcTimestamp(value), value).to.equal(true);
  });

  it('when the time is a leap second, lowercase, or finer than milliseconds, then it is refused', () => {
    for (const value of [
      '2016-12-31T23:59:60Z',
      '2024-01-01t00:00:00z',
      '2024-01-01T00:00:00.1234Z',
      '2024-13-01T00:00:00Z',
      '2024-00-10T00:00:00Z',
    ]) {
      expect(isUtcTimestamp(value), value).to.equal(false);
    }
  });
});

describe('isHttpUrl', () => {
  it('when the URL is absolute http or https with a host, then it is accepted', () => {
    expect(isHttpUrl('https://images.example/full/1-a.jpg?x=1')).to.equal(true);
    expect(isHttpUrl('HTTP://localhost:8080/a.jpg')).to.equal(true);
  });
});

describe('checkRecord: tags and palettes', () => {
  const palette = [
    { hex: '#1e3a8a', share: 0.6 },
    { hex: '#f59e0b', share: 0.3 },
  ];

  it('when a record carries valid tags and a palette, then the document keeps them', () => {
    const verdict = checkRecord(line({ tags: ['pine forest', 'sci-fi', 'night'], colors: palette }));
    expect(verdict).to.deep.equal({
      ok: true,
      document: { ...VALID, tags: ['pine forest', 'sci-fi', 'night'], colors: palette, width: 3840, height: 2160 },
    });
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['a tag in capitals', { tags: ['Night'] }, 'each tag must be at most 32 characters of lower-case letters a-z and digits'],
    ['a tag too long', { tags: ['a'.repeat(33)] }, 'each tag must be at most 32 characters'],
    ['a repeated tag', { tags: ['night', 'night'] }, 'tags must not repeat'],
    [
      'a repeated tag beside a bad one',
      { tags: ['night', 'Night', 'night'] },
      'each tag must be at most 32 characters of lower-case letters a-z and digits, words joined by single spaces or hyphens; tags must not repeat',
    ],
    ['too many tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags must have at most 20 entries'],
    ['tags not an array', { tags: 'night' }, 'tags must be an array of strings'],
    ['a tag not a string', { tags: [7] }, 'each tag must be a string'],
    ['too many colours', { colors: Array.from({ length: 7 }, (_, i) => ({ hex: `#00000${i}`, share: 0.1 })) }, 'colors must have at most 6 entries'],
    ['an upper-case hex', { colors: [{ hex: '#1E3A8A', share: 0.5 }] }, 'each colour hex must be #rrggbb in lower case'],
    ['a share above 1', { colors: [{ hex: '#1e3a8a', share: 1.5 }] }, 'each colour share must be a number from 0 to 1'],
    ['a colour without share', { colors: [{ hex: '#1e3a8a' }] }, 'each colour must be an object with exactly hex and share'],
    ['shares ascending', { colors: [...palette].reverse() }, 'colors must be in descending order of share'],
    ['a hex twice', { colors: [palette[0], palette[0]] }, 'colors must name each hex once'],
    [
      'shares above the whole',
      {
        colors: [
          { hex: '#000000', share: 0.7 },
          { hex: '#ffffff', share: 0.6 },
        ],
      },
      'colors shares must add up to at most 1',
    ],
    ['a NUL in the title', { title: 'Night\u0000Sky' }, 'title must not hold control characters'],
    ['a line break in the title', { title: 'Night\nSky' }, 'title must not hold control characters'],
    [
      'an escape in the description',
      { description: 'Green \u001b[31mred' },
      'description must not hold control characters other than tabs and line breaks',
    ],
    ['half a character in the title', { title: 'Night \ud800' }, 'title must be whole Unicode characters'],
    ['half a character in the description', { description: '\udc00 sky' }, 'description must be whole Unicode characters'],
  ];
  for (const [what, changes, reason] of cases) {
    it(`when a record has ${what}, then it is rejected naming the rule`, () => {
      const verdict = rejection(line(changes));
      expect(verdict.code).to.equal('invalid_record');
      expect(verdict.id).to.equal(42);
      expect(verdict.reason).to.include(reason);
    });
  }

  it('when a description breaks lines or has tabs, and a title has an emoji, then they are taken', () => {
    expect(checkRecord(line({ title: 'Night Sky 🌌', description: 'Line one\nline two\r\n\tend\u0085' })).ok).to.equal(true);
  });

  it('when an id is past what a number holds exactly, then the rejection names it as the line wrote it, in a deletion too', () => {
    const verdict = rejection(JSON.stringify({ ...VALID, id: 1 }).replace('"id":1', '"id":90071992547409921'));
    expect(verdict.id).to.equal('90071992547409921');
    const deletion = checkRecord('{"id":9007199254740993,"deleted":true}', { deletions: true });
    expect(deletion.ok).to.equal(false);
    expect((deletion as { id: unknown }).id).to.equal('9007199254740993');
  });

  it('when a title shows nothing (invisible characters, a byte order mark, spaces among them), then it is rejected saying so', () => {
    expect(rejection(line({ title: '\ufeff' })).reason, 'a byte order mark is a space to JSON Schema').to.equal('title must not be blank');
    for (const title of ['\u200b', '\ufeff\u200b', ' \u200b\u2060 ', '\u200d', '\u2800\u2800 ', '\u0301', '\u{1d159}']) {
      expect(rejection(line({ title })).reason, JSON.stringify(title)).to.equal(
        'title must hold a character that shows (not only spaces or invisible ones)',
      );
    }
    expect(checkRecord(line({ title: '\ufeffCalm Sea 👨\u200d👩\u200d👧' })).ok, 'visible text beside them is taken').to.equal(true);
  });

  it('when a line holds a NUL where JSON was expected (a UTF-16 file), then the reason shows it escaped', () => {
    const { reason } = rejection('\u0000\u0000');
    expect(reason).to.match(/^invalid JSON: /);
    expect(reason).to.not.include('\u0000');
    expect(reason).to.include('\\u{0}');
  });
});
