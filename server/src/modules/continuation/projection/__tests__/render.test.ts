import { countTokens } from '../../../../shared/tokens';
import { ProjectedEvent } from '../model';
import { countedEvent, renderEvent } from '../render';

const TEXTS = [
  'Now the rollout: write a step-by-step plan for moving receipts, with a rollback for each step.',
  ' leading space and trailing space ',
  '\nstarts on a new line\n\nand ends on one\n',
  'word',
  '!!! punctuation first, then words',
  '1234567 digits first',
  'naïve café — “quoted” text, emoji 🚀 and 中文字符',
  "it's what they'll say: don't",
  '\t\ttabs\tbetween\twords',
];

function message(text: string, extra: Partial<ProjectedEvent> = {}): ProjectedEvent {
  return {
    id: '6f1c2a9e-3b4d-4e5f-8a7b-0c1d2e3f4a5b',
    sessionId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    seq: 42,
    kind: 'USER_MESSAGE',
    text,
    data: null,
    tokenCount: countTokens(text),
    tokenTotal: 0,
    hash: '',
    ...extra,
  };
}

describe('an event line in a projection', () => {
  it.each(TEXTS)('costs what counting the whole line costs, from the text count stored with the message: %j', (text) => {
    const event = message(text);
    expect(countedEvent(event)).toEqual({ text: renderEvent(event), tokens: countTokens(renderEvent(event)) });
  });

  it('counts a line with a payload or attachments whole', () => {
    const withData = message('called', { kind: 'TOOL_CALL', data: { name: 'walk_lineage', arguments: '{}' }, tokenCount: 1 });
    const attached = message('see the file', { attachmentCids: ['b'.repeat(64)], tokenCount: 1 });
    for (const event of [withData, attached]) expect(countedEvent(event).tokens).toBe(countTokens(renderEvent(event)));
  });
});
