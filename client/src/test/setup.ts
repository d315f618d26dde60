import '@testing-library/jest-dom/jest-globals';
import { jest } from '@jest/globals';
import { configure } from '@testing-library/react';

// Shared CI machines are slow at times: wait longer for what a test expects to appear.
configure({ asyncUtilTimeout: 5000 });
// Well past that wait, so a test stuck waiting fails with what it waited for and the page as it
// was, not with a bare "Exceeded timeout" from Jest.
jest.setTimeout(15_000);

// jsdom has <dialog> but not its methods: open and close it as a browser would, minus the top layer.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement, returnValue?: string) {
    if (!this.open) return;
    this.open = false;
    if (returnValue !== undefined) this.returnValue = returnValue;
    this.dispatchEvent(new Event('close'));
  };
}
