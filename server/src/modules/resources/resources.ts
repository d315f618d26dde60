import { canonicalJson } from '../../shared/canonical-json';
import { ErrorDetail } from '../../shared/errors';
import { sha256 } from '../../shared/sha256';
import { countTokens } from '../../shared/tokens';

/** Documented limits of resources: a url names a resource; each put stores an immutable version of its blocks. */
export const RESOURCE_LIMITS = {
  urlChars: 2_000,
  blocks: 1_000,
  blockIdChars: 200,
  blockTextChars: 100_000,
} as const;

/** Documented limits of memory: content stored under a path, addressed by its content id. */
export const MEMORY_LIMITS = {
  pathChars: 1_000,
  contentChars: 100_000,
} as const;

/** One addressable part of a resource version; `id` is unique within the version. */
export interface ResourceBlock {
  id: string;
  text: string;
}

/** Content id of a resource version: sha256 (hex) of the canonical JSON of its blocks `[{id, text}]`, in order. */
export function resourceCid(blocks: ResourceBlock[]): string {
  return sha256(canonicalJson(blocks.map(({ id, text }) => ({ id, text }))));
}

/** Content id of a memory entry: sha256 (hex) of its content's UTF-8 bytes. */
export function memoryCid(content: string): string {
  return sha256(content);
}

/**
 * The key a url or memory path is stored and looked up by: sha256 (hex) of the name. An index
 * entry holds at most 2,704 bytes, and a name within the limits can take up to 8,000 in UTF-8.
 */
export function nameKey(name: string): string {
  return sha256(name);
}

/** A whole version as a model reads it: one `[block <id>] <text>` line per block, in order. */
export function renderResourceVersion(blocks: ResourceBlock[]): string {
  return blocks.map((block) => `[block ${block.id}] ${block.text}`).join('\n');
}

/** Tokens of a version exactly as {@link renderResourceVersion} renders it. */
export function resourceVersionTokens(blocks: ResourceBlock[]): number {
  return countTokens(renderResourceVersion(blocks));
}

/** The version that follows `count` stored versions: "1", "2", ... without gaps. */
export function versionAfter(count: number): string {
  return String(count + 1);
}

/**
 * True when `version` names one of `count` stored versions: "1" to `count` exactly as written
 * (no sign, no leading zero). Versions have no gaps, so this needs no look-up.
 */
export function isStoredVersion(version: string, count: number): boolean {
  return /^[1-9][0-9]{0,9}$/.test(version) && Number(version) <= count;
}

/** Problems with a resource version to store, addressed under `pathPrefix`. */
export function validatePutResource(input: { url: string; blocks: ResourceBlock[] }, pathPrefix: string[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (input.url.trim().length === 0) {
    details.push({ path: [...pathPrefix, 'url'], message: 'url must not be empty.' });
  } else if (input.url.length > RESOURCE_LIMITS.urlChars) {
    details.push({ path: [...pathPrefix, 'url'], message: `url must be at most ${RESOURCE_LIMITS.urlChars} characters.` });
  }
  if (input.blocks.length === 0) {
    details.push({ path: [...pathPrefix, 'blocks'], message: 'A version holds at least one block.' });
  } else if (input.blocks.length > RESOURCE_LIMITS.blocks) {
    details.push({
      path: [...pathPrefix, 'blocks'],
      message: `A version holds at most ${RESOURCE_LIMITS.blocks} blocks (got ${input.blocks.length}).`,
    });
  }
  const firstIndexOf = new Map<string, number>();
  input.blocks.forEach((block, index) => {
    const path = [...pathPrefix, 'blocks', String(index)];
    if (block.id.length === 0 || block.id.length > RESOURCE_LIMITS.blockIdChars) {
      details.push({ path: [...path, 'id'], message: `A block id must be 1 to ${RESOURCE_LIMITS.blockIdChars} characters.` });
    } else if (firstIndexOf.has(block.id)) {
      const first = firstIndexOf.get(block.id);
      details.push({ path: [...path, 'id'], message: `Block id "${block.id}" is already used by block ${first}.` });
    } else {
      firstIndexOf.set(block.id, index);
    }
    if (block.text.length > RESOURCE_LIMITS.blockTextChars) {
      details.push({
        path: [...path, 'text'],
        message: `Block text must be at most ${RESOURCE_LIMITS.blockTextChars} characters (got ${block.text.length}).`,
      });
    }
  });
  return details;
}

/** Problems with a memory entry to write, addressed under `pathPrefix`. */
export function validateWriteMemory(input: { path: string; content: string }, pathPrefix: string[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (input.path.trim().length === 0) {
    details.push({ path: [...pathPrefix, 'path'], message: 'path must not be empty.' });
  } else if (input.path.length > MEMORY_LIMITS.pathChars) {
    details.push({ path: [...pathPrefix, 'path'], message: `path must be at most ${MEMORY_LIMITS.pathChars} characters.` });
  }
  if (input.content.length === 0) {
    details.push({ path: [...pathPrefix, 'content'], message: 'content must not be empty.' });
  } else if (input.content.length > MEMORY_LIMITS.contentChars) {
    details.push({
      path: [...pathPrefix, 'content'],
      message: `content must be at most ${MEMORY_LIMITS.contentChars} characters (got ${input.content.length}).`,
    });
  }
  return details;
}
