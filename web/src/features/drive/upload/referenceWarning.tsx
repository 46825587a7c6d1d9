// drive.md §4, §8: a file registered whose module reference could not be written (FILE_REF_WRITE_FAILED) is kept
// and flagged 'Needs repair'; the web warns 'Reference creation failed' with Retry, which asks the drive to repair
// the file's reference (POST /api/drive/mutations/repair-refs) and says 'Reference repaired' or 'Repair failed'.
import { App, Button } from 'antd';
import { useCallback } from 'react';
import type { RepairRefsResponse } from '@workspace/drive/contract';
import { useDispatch } from 'react-redux';
import type { AppDispatch } from '../../../app/store';
import { useToast } from '../../../ui/feedback';
import { driveApi } from '../api/driveApi';

export const REFERENCE_TEXTS = {
  failed: 'Reference creation failed',
  retry: 'Retry',
  repaired: 'Reference repaired',
  repairFailed: 'Repair failed',
} as const;

/** A repair-refs answer for one file: repaired when the file was fixed or had nothing left to repair. */
export function repairedFile(answer: Pick<RepairRefsResponse, 'fixed' | 'skipped'>, fileId: string): boolean {
  return answer.fixed.includes(fileId) || answer.skipped.includes(fileId);
}

/** The repair of one file's reference with its toasts (the preview's Repair reference and the warning's Retry). */
export function useRepairReference() {
  const dispatch = useDispatch<AppDispatch>();
  const toast = useToast();
  return useCallback(
    async (fileId: string): Promise<boolean> => {
      try {
        const answer = await dispatch(driveApi.endpoints.repairRefs.initiate({ fileId })).unwrap();
        if (repairedFile(answer, fileId)) {
          toast.success(REFERENCE_TEXTS.repaired);
          return true;
        }
      } catch {
        // the toast below
      }
      toast.error(REFERENCE_TEXTS.repairFailed);
      return false;
    },
    [dispatch, toast],
  );
}

/** Shows the 'Reference creation failed' warning for an uploaded file, with Retry; it stays until dealt with. */
export function useReferenceWarning() {
  const { notification } = App.useApp();
  const repair = useRepairReference();
  return useCallback(
    (file: { id: string; name: string }) => {
      const key = `drive-ref-${file.id}`;
      notification.warning({
        key,
        title: REFERENCE_TEXTS.failed,
        description: `"${file.name}" was uploaded, but its link to the record it belongs to could not be saved.`,
        duration: 0,
        className: 'drive-reference-warning',
        actions: (
          <Button
            size="small"
            type="primary"
            onClick={() => {
              void repair(file.id).then((repaired) => {
                if (repaired) notification.destroy(key);
              });
            }}
          >
            {REFERENCE_TEXTS.retry}
          </Button>
        ),
      });
    },
    [notification, repair],
  );
}
