import { type ReactNode, useEffect, useRef, useState } from 'react';
import './when-near.css';

/**
 * Mounts its children only when the place they take comes near the viewport (within `margin`), so a map, a graph
 * or a panel far down a page costs nothing on the first paint. Until then it keeps a box of `height` (the
 * children's usual height, in CSS units), so nothing below it moves when they arrive. Without
 * IntersectionObserver the children mount at once.
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
  if (near) return children;
  return <div ref={box} className="when-near" style={{ minHeight: height }} />;
}
