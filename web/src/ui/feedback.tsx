import { App, type ModalFuncProps } from 'antd';
import { useCallback, useMemo } from 'react';

/** Toasts of the four types, 4 seconds each (the spec's default). */
export const TOAST_SECONDS = 4;

export function useToast() {
  const { message } = App.useApp();
  return useMemo(
    () => ({
      info: (text: string) => void message.info(text, TOAST_SECONDS),
      success: (text: string) => void message.success(text, TOAST_SECONDS),
      warning: (text: string) => void message.warning(text, TOAST_SECONDS),
      error: (text: string) => void message.error(text, TOAST_SECONDS),
    }),
    [message],
  );
}

export type ConfirmStyle = 'primary' | 'danger' | 'warning';

export interface ConfirmOptions {
  title?: string;
  message?: string;
  confirmText?: string;
  cancelText?: string;
  style?: ConfirmStyle;
}

/**
 * The confirm dialog: defaults 'Confirm Action', 'Are you sure?', Confirm and Cancel; clicking outside or Escape
 * cancels. Resolves true when confirmed.
 */
export function useConfirm() {
  const { modal } = App.useApp();
  return useCallback(
    (options: ConfirmOptions = {}) =>
      new Promise<boolean>((resolve) => {
        const style = options.style ?? 'primary';
        const props: ModalFuncProps = {
          title: options.title ?? 'Confirm Action',
          content: options.message ?? 'Are you sure?',
          okText: options.confirmText ?? 'Confirm',
          cancelText: options.cancelText ?? 'Cancel',
          okButtonProps: {
            danger: style === 'danger',
            ...(style === 'warning' ? { className: 'confirm-warning' } : {}),
          },
          mask: { closable: true },
          keyboard: true,
          onOk: () => {
            resolve(true);
          },
          onCancel: () => {
            resolve(false);
          },
        };
        if (style === 'warning') modal.warning({ ...props, okCancel: true });
        else modal.confirm(props);
      }),
    [modal],
  );
}
