// Keeping keyboard focus somewhere sensible when what held it goes away: a dialog opened without a
// Radix trigger (Radix can only give focus back to its own trigger), a control that is removed (a
// deleted card, a decided request), or a control that is disabled while its action runs.
import { useCallback, useLayoutEffect, useRef } from 'react';

/** True when focus is nowhere useful: on the body, or on an element that has left the page. */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

/**
 * Once the current action has settled, focus `target` if focus was lost. A dialog still closing
 * (focus inside it, its exit animation running) is waited for; if focus has gone somewhere real,
 * it is left there.
 */
export function focusWhenLost(target: () => HTMLElement | null | undefined, { withinMs = 2000 } = {}) {
  const started = Date.now();
  const tick = () => {
    if (focusIsLost()) {
      const element = target();
      if (element?.isConnected) element.focus();
      // Not focusable yet (still disabled until the next render): try again shortly.
      if (document.activeElement !== element && Date.now() - started < withinMs) setTimeout(tick, 50);
      return;
    }
    const inDialog = document.activeElement?.closest('[role="dialog"],[role="alertdialog"]');
    if (inDialog && Date.now() - started < withinMs) setTimeout(tick, 50);
  };
  setTimeout(tick, 0);
}

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The first control a keyboard would reach inside `container`. */
export function firstFocusable(container: Element | null | undefined, selector = FOCUSABLE): HTMLElement | null {
  return container?.querySelector<HTMLElement>(selector) ?? null;
}

/**
 * `item` (a card, a list row) is about to leave the page because of an action taken from inside
 * it. Once it has gone, and if focus went with it, focus moves to the next item's first control,
 * else the previous item's, else `fallback` (e.g. the list's heading with tabIndex=-1).
 * `control` picks which control of an item (default: the first a keyboard would reach).
 * Returns a function that stops waiting (e.g. when the action failed and the item stays).
 */
export function focusAfterRemoval(
  item: Element | null | undefined,
  fallback: () => HTMLElement | null,
  { timeoutMs = 15_000, control = FOCUSABLE }: { timeoutMs?: number; control?: string } = {},
): () => void {
  if (!item) return () => {};
  const next = item.nextElementSibling;
  const previous = item.previousElementSibling;
  const target = () => {
    for (const sibling of [next, previous]) {
      if (sibling?.isConnected) {
        const found = firstFocusable(sibling, control);
        if (found) return found;
      }
    }
    return fallback();
  };

  let done = false;
  const stop = () => {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
  };
  const check = () => {
    if (done || item.isConnected) return;
    stop();
    // After the commit that removed it (and after a dialog inside it gave up its focus).
    focusWhenLost(target);
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { childList: true, subtree: true });
  const timer = setTimeout(stop, timeoutMs);
  check();
  return stop;
}

/**
 * For a dialog opened by state rather than by a Radix trigger: remembers what had focus when it
 * opened and gives focus back to it when the dialog closes (Escape, Close, or being unmounted).
 * `target`, when given and it returns an element, says where focus should go instead (e.g. the
 * message box after the dialog sent the message).
 * Spread the result on DialogContent: `<DialogContent onCloseAutoFocus={returnFocus}>`.
 */
export function useReturnFocus(open: boolean, target?: () => HTMLElement | null | undefined) {
  const opener = useRef<HTMLElement | null>(null);
  const latestTarget = useRef(target);
  latestTarget.current = target;

  // A layout effect: it runs before the dialog's focus scope moves focus inside (a passive effect).
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);

  return useCallback((event: Event) => {
    const element = latestTarget.current?.() ?? opener.current;
    if (!element || !element.isConnected) return;
    event.preventDefault();
    element.focus();
  }, []);
}
