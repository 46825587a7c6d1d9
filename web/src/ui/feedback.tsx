import { App, type ModalFuncProps } from 'antd';
import { useCallback, useMemo } from 'react';

/** Toasts of the four types, 4 seconds each (the spec's default), then antd's short closing animation. */
export const TOAST_SECONDS = 4;
export const TOAST_MS = TOAST_SECONDS * 1000;

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

export const CONFIRM_DEFAULTS = {
  title: 'Confirm Action',
  message: 'Are you sure?',
  confirmText: 'Confirm',
  cancelText: 'Cancel',
  style: 'primary',
} as const;

/**
 * The dialog's settings for antd's modal: the spec's defaults filled in, a danger button for `danger`, the warning
 * icon and an amber button (class confirm-warning) for `warning`; clicking outside (the mask) and Escape cancel.
 */
export function confirmProps(options: ConfirmOptions = {}): ModalFuncProps & { style: ConfirmStyle } {
  const style = options.style ?? CONFIRM_DEFAULTS.style;
  return {
    style,
    title: options.title ?? CONFIRM_DEFAULTS.title,
    content: options.message ?? CONFIRM_DEFAULTS.message,
    okText: options.confirmText ?? CONFIRM_DEFAULTS.confirmText,
    cancelText: options.cancelText ?? CONFIRM_DEFAULTS.cancelText,
    okButtonProps: {
      danger: style === 'danger',
      ...(style === 'warning' ? { className: 'confirm-warning', color: 'gold', variant: 'solid' } : {}),
    },
    mask: { closable: true },
    keyboard: true,
  };
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
        const { style, ...settings } = confirmProps(options);
        const props: ModalFuncProps = {
          ...settings,
          rootClassName: `confirm-dialog confirm-${style}`,
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
