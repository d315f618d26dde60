import { createHash } from 'node:crypto';
import {
  MEMORY_LIMITS,
  RESOURCE_LIMITS,
  isStoredVersion,
  memoryCid,
  renderResourceVersion,
  resourceCid,
  resourceVersionTokens,
  validatePutResource,
  validateWriteMemory,
  versionAfter,
} from '../resources';
import { countTokens } from '../../../shared/tokens';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('resource content ids', () => {
  it('is sha256 of the canonical JSON of the blocks as [{id, text}]', () => {
    expect(resourceCid([{ id: 'a', text: 'Hello' }])).toBe(sha256('[{"id":"a","text":"Hello"}]'));
  });

  it('ignores anything but id and text, and depends on block order', () => {
    const extra = { id: 'a', text: 'x', note: 'ignored' } as { id: string; text: string };
    expect(resourceCid([extra])).toBe(resourceCid([{ id: 'a', text: 'x' }]));
    const ab = [
      { id: 'a', text: 'x' },
      { id: 'b', text: 'y' },
    ];
    expect(resourceCid(ab)).not.toBe(resourceCid([...ab].reverse()));
  });

  it('gives memory content the sha256 of its UTF-8 bytes', () => {
    expect(memoryCid('ünïcode')).toBe(createHash('sha256').update(Buffer.from('ünïcode', 'utf8')).digest('hex'));
    expect(memoryCid('a')).not.toBe(memoryCid('b'));
  });
});

describe('rendering a version', () => {
  const blocks = [
    { id: 'intro', text: 'Why we continue sessions.' },
    { id: 'rules', text: 'Never rewrite history.' },
  ];

  it('writes one "[block <id>] <text>" line per block, in order', () => {
    expect(renderResourceVersion(blocks)).toBe('[block intro] Why we continue sessions.\n[block rules] Never rewrite history.');
  });

  it('counts the tokens of exactly that text', () => {
    expect(resourceVersionTokens(blocks)).toBe(countTokens(renderResourceVersion(blocks)));
  });
});

describe('version numbers', () => {
  it('follows n stored versions with "n + 1"', () => {
    expect(versionAfter(0)).toBe('1');
    expect(versionAfter(41)).toBe('42');
  });

  it('knows a stored version by its exact string, without a look-up', () => {
    expect(isStoredVersion('1', 2)).toBe(true);
    expect(isStoredVersion('2', 2)).toBe(true);
    for (const version of ['3', '0', '01', '-1', '1.0', ' 1', '', 'latest', '9'.repeat(30)]) {
      expect(isStoredVersion(version, 2)).toBe(false);
    }
  });
});

describe('validatePutResource', () => {
  const valid = { url: 'seed://docs/continuation', blocks: [{ id: 'a', text: 'text' }] };

  it('accepts a version within the limits, empty block text included', () => {
    expect(validatePutResource(valid, ['input'])).toEqual([]);
    expect(validatePutResource({ ...valid, blocks: [{ id: 'a', text: '' }] }, ['input'])).toEqual([]);
    const atLimits = {
      url: 'u'.repeat(RESOURCE_LIMITS.urlChars),
      blocks: Array.from({ length: RESOURCE_LIMITS.blocks }, (_, i) => ({
        id: `${i}`.padStart(RESOURCE_LIMITS.blockIdChars, '0'),
        text: i === 0 ? 't'.repeat(RESOURCE_LIMITS.blockTextChars) : '',
      })),
    };
    expect(validatePutResource(atLimits, ['input'])).toEqual([]);
  });

  it('addresses each problem by its input path', () => {
    const details = validatePutResource(
      {
        url: ' ',
        blocks: [
          { id: 'a', text: 'x' },
          { id: '', text: 'x' },
          { id: 'a', text: 't'.repeat(RESOURCE_LIMITS.blockTextChars + 1) },
          { id: 'i'.repeat(RESOURCE_LIMITS.blockIdChars + 1), text: '' },
        ],
      },
      ['input'],
    );
    expect(details.map((detail) => detail.path)).toEqual([
      ['input', 'url'],
      ['input', 'blocks', '1', 'id'],
      ['input', 'blocks', '2', 'id'],
      ['input', 'blocks', '2', 'text'],
      ['input', 'blocks', '3', 'id'],
    ]);
    expect(details[2].message).toBe('Block id "a" is already used by block 0.');
  });

  it('refuses a version without blocks, with too many blocks, or with an overlong url', () => {
    expect(validatePutResource({ ...valid, blocks: [] }, ['input'])).toEqual([
      { path: ['input', 'blocks'], message: 'A version holds at least one block.' },
    ]);
    const many = Array.from({ length: RESOURCE_LIMITS.blocks + 1 }, (_, i) => ({ id: `b${i}`, text: '' }));
    const tooMany = validatePutResource({ ...valid, blocks: many }, ['input']);
    expect(tooMany.map((detail) => detail.path)).toEqual([['input', 'blocks']]);
    const longUrl = 'u'.repeat(RESOURCE_LIMITS.urlChars + 1);
    expect(validatePutResource({ ...valid, url: longUrl }, ['input']).map((detail) => detail.path)).toEqual([['input', 'url']]);
  });
});

describe('validateWriteMemory', () => {
  it('accepts a path and content within the limits', () => {
    const input = { path: 'p'.repeat(MEMORY_LIMITS.pathChars), content: 'c'.repeat(MEMORY_LIMITS.contentChars) };
    expect(validateWriteMemory(input, ['input'])).toEqual([]);
  });

  it('refuses an empty or overlong path and empty or overlong content', () => {
    expect(validateWriteMemory({ path: '', content: '' }, ['input']).map((detail) => detail.path)).toEqual([
      ['input', 'path'],
      ['input', 'content'],
    ]);
    const tooLong = { path: 'p'.repeat(MEMORY_LIMITS.pathChars + 1), content: 'c'.repeat(MEMORY_LIMITS.contentChars + 1) };
    expect(validateWriteMemory(tooLong, ['input']).map((detail) => detail.path)).toEqual([
      ['input', 'path'],
      ['input', 'content'],
    ]);
  });
});
