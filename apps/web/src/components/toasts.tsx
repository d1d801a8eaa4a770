import * as Toast from '@radix-ui/react-toast';
import './toaster.css';
import { COMMON } from '../lib/strings';

const S = COMMON.toasts;

/** How long a confirmation stays (Radix pauses the timer while the pointer or focus is on it). */
const SHOW_MS = 5000;

/** The toasts on screen, as Radix toasts in their viewport (loaded with the first one, see toaster.tsx). */
export default function Toasts({
  toasts,
  onClose,
}: {
  toasts: readonly { id: number; text: string }[];
  onClose: (id: number) => void;
}) {
  return (
    <Toast.Provider duration={SHOW_MS} label={S.dismiss}>
      {toasts.map((t) => (
        <Toast.Root
          key={t.id}
          className="toast"
          type="background"
          onOpenChange={(open) => {
            if (!open) onClose(t.id);
          }}
        >
          <Toast.Description>{t.text}</Toast.Description>
          <Toast.Close className="secondary small">{S.dismiss}</Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" label={S.region} />
    </Toast.Provider>
  );
}
