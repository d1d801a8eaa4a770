import { useToast } from './toaster';

const S = { copied: 'Copied to the clipboard.' } as const;

/** Copies a text to the clipboard; its name says what it copies, and a toast confirms it. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className="secondary small"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => {});
        toast(S.copied);
      }}
    >
      {label}
    </button>
  );
}
