import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from './icons';

/**
 * A modal `<dialog>`: the browser traps focus in it, Escape closes it, and focus returns
 * to the control that opened it.
 */
export function Dialog({ open, title, onClose, children, wide = false }: { open: boolean; title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog-box">
        {/* Not a <header>: outside <main> that would be a second banner landmark beside the top bar. */}
        <div className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label={`Close ${title}`}>
            <Icon name="close" />
          </button>
        </div>
        <div className="dialog-body">{open ? children : null}</div>
      </div>
    </dialog>
  );
}
