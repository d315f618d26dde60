import { useId } from 'react';
import { ModalDialog } from '../ModalDialog';
import { commandShortcut } from '../keyboard';

const SHORTCUTS: [keys: string, what: string][] = [
  [commandShortcut('K'), 'Search conversations and messages, or run a command'],
  ['Esc', 'Stop the answer being written (or close what is open)'],
  ['?', 'Show these shortcuts'],
  [commandShortcut('O', { shift: true }), 'Start a new conversation'],
  [commandShortcut('S', { shift: true }), 'Show or hide the sidebar'],
  ['/', 'Write a message'],
  ['Enter', 'Send the message'],
  ['Shift+Enter', 'Start a new line in the message'],
  ['↑ ↓ then Enter', 'In the palette: choose, then open or run'],
];

/** The list of keyboard shortcuts, opened with `?`. */
export default function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const titleId = useId();
  return (
    <ModalDialog labelledBy={titleId} className="shortcuts-dialog" onClose={onClose}>
      <div className="dialog-header">
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <button type="button" className="button button-quiet" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
      <table className="shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <td>
                <kbd className="shortcut">{keys}</kbd>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ModalDialog>
  );
}
