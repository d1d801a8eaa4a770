import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';

/**
 * The main menu below 768 px as a modal sheet (a Radix dialog: focus moves in and stays, Escape and Close shut it,
 * focus returns to the Menu button). Loaded when the Menu button is first pressed, not with the first page.
 */
export default function PhoneMenu({
  title,
  close,
  onClose,
  button,
  children,
}: {
  title: string;
  close: string;
  onClose: () => void;
  /** The Menu button, which gets focus back. */
  button: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="menu-overlay" />
        <Dialog.Content
          className="menu-sheet"
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            button.current?.focus();
          }}
        >
          <div className="menu-sheet-head">
            <Dialog.Title>{title}</Dialog.Title>
            <Dialog.Close className="secondary small">{close}</Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
