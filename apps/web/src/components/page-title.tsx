import { useEffect } from 'react';

/** The page's heading, also the document title (what a screen reader announces on navigation). */
export function PageTitle({ children, lead }: { children: string; lead?: React.ReactNode }) {
  useEffect(() => {
    document.title = `${children} · Rootline`;
  }, [children]);
  return (
    <header className="page-header">
      <h1>{children}</h1>
      {lead && <p className="lead">{lead}</p>}
    </header>
  );
}
