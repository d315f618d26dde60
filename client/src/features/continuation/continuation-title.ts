/** The longest title a session takes. */
const TITLE_MAX_CHARS = 200;

const PART = /^(.*), part (\d+)$/s;

/**
 * A successor's suggested title: the next part of this one ("Plan, part 2", then "Plan,
 * part 3"), never the same title again, and within the server's 200 characters.
 */
export function nextPartTitle(title: string): string {
  const numbered = PART.exec(title.trim());
  const [base, part] = numbered ? [numbered[1], Number(numbered[2]) + 1] : [title.trim(), 2];
  const suffix = `, part ${part}`;
  const room = TITLE_MAX_CHARS - suffix.length;
  return `${base.length > room ? `${base.slice(0, room - 1).trimEnd()}…` : base}${suffix}`;
}
