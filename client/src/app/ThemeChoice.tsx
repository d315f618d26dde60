import { useId } from 'react';
import { THEME_PREFERENCES, useThemePreference, type ThemePreference } from './theme';

const LABELS: Record<ThemePreference, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Light, dark, or whatever the device uses; remembered in this browser. */
export function ThemeChoice() {
  const [preference, setPreference] = useThemePreference();
  const name = useId();
  return (
    <fieldset className="theme-choice">
      <legend>Theme</legend>
      {THEME_PREFERENCES.map((option) => (
        <label key={option} className={option === preference ? 'theme-option theme-option-chosen' : 'theme-option'}>
          <input type="radio" name={name} value={option} checked={option === preference} onChange={() => setPreference(option)} />
          {LABELS[option]}
        </label>
      ))}
    </fieldset>
  );
}
