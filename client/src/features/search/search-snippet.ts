/** A run of a snippet's text, matched (inside `<mark>`) or not. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const CHARACTER_REFERENCE = /&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeCharacterReferences(text: string): string {
  return text.replace(CHARACTER_REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name.toLowerCase()];
    const codePoint = decimal ? Number(decimal) : parseInt(hex ?? '', 16);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : reference;
  });
}

/**
 * Reads a search snippet, HTML-escaped text whose only markup is `<mark>` around matched terms,
 * into plain text runs. Rendering them as text nodes and `<mark>` elements needs no HTML parser:
 * anything else that looks like markup stays text.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of snippet.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece !== '') parts.push({ text: decodeCharacterReferences(piece), marked });
  }
  return parts;
}
