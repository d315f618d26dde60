/** Small line icons, drawn in the current text colour; always beside a text or an aria-label. */
const PATHS = {
  menu: 'M3 6h14M3 10h14M3 14h14',
  sidebar: 'M3 4h14v12H3zM8 4v12',
  close: 'M5 5l10 10M15 5L5 15',
  plus: 'M10 4v12M4 10h12',
  search: 'M9 3.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11zM13 13l4 4',
  more: 'M4.5 10h.01M10 10h.01M15.5 10h.01',
  attach: 'M15 9.5l-5.5 5.5a3.5 3.5 0 0 1-5-5L11 3.5a2.3 2.3 0 0 1 3.3 3.3L8 13a1.2 1.2 0 0 1-1.7-1.7L12 5.6',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg className={`icon icon-${name}`} viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
