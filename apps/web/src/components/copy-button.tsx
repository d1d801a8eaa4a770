import { COMMON } from '../lib/strings';
import { useToast } from './toaster';

/** Copies a text to the clipboard; its name says what it copies, and a toast confirms it. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className="secondary small"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => {});
        toast(COMMON.copied);
      }}
    >
      {label}
    </button>
  );
}
