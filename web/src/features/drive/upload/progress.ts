// The upload's progress texts (drive.md §2) and the upload list's entries (an entry done is cleared after 1 s).

/** The stage text for a percentage: <30, 30-59, 60-89, 90-99, 100. */
export function uploadStage(percent: number): string {
  if (percent >= 100) return 'Upload Complete!';
  if (percent >= 90) return 'Finalizing...';
  if (percent >= 60) return 'Almost there...';
  if (percent >= 30) return 'Transferring data...';
  return 'Preparing upload...';
}

export type UploadItemStatus = 'uploading' | 'complete' | 'error';

/** One file of the upload list. */
export interface UploadItem {
  id: string;
  name: string;
  size: number;
  status: UploadItemStatus;
  /** 0-100. */
  progress: number;
  message?: string;
}

/** How long a completed entry stays in the list. */
export const COMPLETED_ENTRY_MS = 1_000;

/**
 * The upload list: entries added, updated and, once complete, removed COMPLETED_ENTRY_MS later (an entry in error
 * stays until the next upload). `onChange` hears every change. Timers are the page's (fake ones in tests).
 */
export function uploadList(onChange: (items: UploadItem[]) => void) {
  let items: UploadItem[] = [];
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const publish = () => {
    onChange(items);
  };
  const remove = (id: string) => {
    items = items.filter((item) => item.id !== id);
    timers.delete(id);
    publish();
  };
  return {
    items: () => items,
    add(item: Omit<UploadItem, 'status' | 'progress'>) {
      items = [...items, { ...item, status: 'uploading', progress: 0 }];
      publish();
    },
    progress(id: string, progress: number) {
      items = items.map((item) => (item.id === id ? { ...item, progress } : item));
      publish();
    },
    complete(id: string) {
      items = items.map((item) =>
        item.id === id ? { ...item, status: 'complete' as const, progress: 100 } : item,
      );
      publish();
      timers.set(
        id,
        setTimeout(() => {
          remove(id);
        }, COMPLETED_ENTRY_MS),
      );
    },
    fail(id: string, message: string) {
      items = items.map((item) => (item.id === id ? { ...item, status: 'error' as const, message } : item));
      publish();
    },
    clear() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      items = [];
      publish();
    },
  };
}
