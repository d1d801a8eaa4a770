import type { ReactNode } from 'react';

/**
 * A table's box that scrolls sideways when the table is wider than the screen. It is named and focusable, so a
 * keyboard can scroll it too (WCAG 2.1.1); a wide table never widens the page.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled.
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
