import * as Toast from '@radix-ui/react-toast';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import './toaster.css';

const S = {
  region: 'Confirmations ({hotkey})',
  dismiss: 'Dismiss',
} as const;

/** How long a confirmation stays (Radix pauses the timer while the pointer or focus is on it). */
const SHOW_MS = 5000;

type Say = (text: string) => void;
const ToastContext = createContext<Say>(() => {});

/**
 * Transient confirmations (copied, saved, sent) as Radix toasts at the foot of the screen: announced politely to
 * screen readers, kept while hovered or focused, F8 moves to them, Escape or Dismiss closes them. What stays true on
 * the page (a refusal, a created secret) stays on the page instead.
 */
export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<{ id: number; text: string }[]>([]);
  const say = useCallback<Say>((text) => {
    setToasts((list) => [...list.filter((t) => t.text !== text), { id: Date.now() + Math.random(), text }]);
  }, []);
  const value = useMemo(() => say, [say]);
  return (
    <ToastContext.Provider value={value}>
      <Toast.Provider duration={SHOW_MS} label={S.dismiss}>
        {children}
        {toasts.map((t) => (
          <Toast.Root
            key={t.id}
            className="toast"
            type="background"
            onOpenChange={(open) => {
              if (!open) setToasts((list) => list.filter((x) => x.id !== t.id));
            }}
          >
            <Toast.Description>{t.text}</Toast.Description>
            <Toast.Close className="secondary small">{S.dismiss}</Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" label={S.region} />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

/** Shows a short confirmation as a toast: `toast('Copied')`. */
export function useToast(): Say {
  return useContext(ToastContext);
}
