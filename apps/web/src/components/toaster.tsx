import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useState } from 'react';

/** Radix toasts, loaded with the first confirmation: no page needs them for its first paint. */
const Toasts = lazy(() => import('./toasts'));

type Say = (text: string) => void;
const ToastContext = createContext<Say>(() => {});

/**
 * Transient confirmations (copied, saved, sent) as Radix toasts at the foot of the screen: announced politely to
 * screen readers, kept while hovered or focused, F8 moves to them, Escape or Dismiss closes them. What stays true on
 * the page (a refusal, a created secret) stays on the page instead.
 */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<{ id: number; text: string }[]>([]);
  const [used, setUsed] = useState(false);
  const say = useCallback<Say>((text) => {
    setUsed(true);
    setToasts((list) => [...list.filter((t) => t.text !== text), { id: Date.now() + Math.random(), text }]);
  }, []);
  const close = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  return (
    <ToastContext.Provider value={say}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <Toasts toasts={toasts} onClose={close} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

/** Shows a short confirmation as a toast: `toast('Copied')`. */
export function useToast(): Say {
  return useContext(ToastContext);
}
