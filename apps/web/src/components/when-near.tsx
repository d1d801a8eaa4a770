import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import './when-near.css';

/**
 * Mounts its children only when the place they take comes near the viewport (within `margin`), so a map, a graph
 * or a panel far down a page costs nothing on the first paint. Until then it keeps a box of `height` (the
 * children's usual height, in CSS units), also while their lazily loaded code comes, so nothing below it moves when
 * they arrive. The observer answers after the frame is painted, so even a part already in view is fetched after the
 * page's first paint, not before it. Without IntersectionObserver the children mount at once.
 */
export function WhenNear({
  height,
  margin = '300px',
  children,
}: {
  height: string;
  margin?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = box.current;
    if (near || !el) return;
    const seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    seen.observe(el);
    return () => seen.disconnect();
  }, [near, margin]);
  const room = <div ref={box} className="when-near" style={{ minHeight: height }} />;
  return near ? <Suspense fallback={room}>{children}</Suspense> : room;
}
