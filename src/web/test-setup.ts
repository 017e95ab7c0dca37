import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

afterEach(cleanup);

// Screens load lazily (the documents modal, the voice panels): on a busy 2-core CI machine the
// first import of a lazy chunk can take longer than Testing Library's default 1 s for findBy*.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these browser APIs that Radix primitives call (pointer capture and scrolling in
// Select, ResizeObserver in Checkbox/RadioGroup). Defined only when missing.
const elementProto = Element.prototype as unknown as Record<string, unknown>;
elementProto.hasPointerCapture ??= () => false;
elementProto.setPointerCapture ??= () => {};
elementProto.releasePointerCapture ??= () => {};
elementProto.scrollIntoView ??= () => {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
