import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../ui/problem';
import { useConfirm, useToast } from '../../../ui/feedback';
import { Button } from 'antd';
import { useClearRecentMutation, useClearStarsMutation, useEmptyTrashMutation } from '../api/driveApi';
import { useDrive } from '../context';
import { FileBrowser } from '../list/FileBrowser';

/** /drive/all (and My Files: ?view=mine). */
export function AllFilesPage() {
  const [params] = useSearchParams();
  const mine = params.get('view') === 'mine';
  return (
    <FileBrowser
      key={mine ? 'mine' : 'all'}
      page={mine ? 'mine' : 'all'}
      view={mine ? 'mine' : 'all'}
      tab={mine ? 'mine' : 'all'}
      placeholder="Search files..."
      empty="no-files"
    />
  );
}

/** /drive/recent: Clear Recent. */
export function RecentPage() {
  const toast = useToast();
  const [clear, { isLoading }] = useClearRecentMutation();
  return (
    <FileBrowser
      page="recent"
      view="recent"
      tab="recent"
      placeholder="Search recent files..."
      empty="no-recent"
      actions={
        <Button
          loading={isLoading}
          onClick={() =>
            void clear(undefined)
              .unwrap()
              .catch((error: unknown) => {
                toast.error(errorMessage(error));
              })
          }
        >
          Clear Recent
        </Button>
      }
    />
  );
}

/** /drive/starred: Clear Stars. */
export function StarredPage() {
  const toast = useToast();
  const [clear, { isLoading }] = useClearStarsMutation();
  return (
    <FileBrowser
      page="starred"
      view="starred"
      tab="starred"
      placeholder="Search starred files..."
      empty="no-starred"
      actions={
        <Button
          loading={isLoading}
          onClick={() =>
            void clear(undefined)
              .unwrap()
              .catch((error: unknown) => {
                toast.error(errorMessage(error));
              })
          }
        >
          Clear Stars
        </Button>
      }
    />
  );
}

/** /drive/trash: restore (single and bulk), delete for good, Empty Trash. */
export function TrashPage() {
  const { abilities } = useDrive();
  const toast = useToast();
  const confirm = useConfirm();
  const [empty, { isLoading }] = useEmptyTrashMutation();
  const [, setTick] = useState(0);
  const emptyTrash = async () => {
    const sure = await confirm({
      title: 'Empty Trash?',
      message: 'Every file in the trash will be deleted permanently. This action cannot be undone.',
      confirmText: 'Empty Trash',
      style: 'danger',
    });
    if (!sure) return;
    try {
      toast.success((await empty(undefined).unwrap()).message);
      setTick((tick) => tick + 1);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to empty the trash'));
    }
  };
  return (
    <FileBrowser
      page="trash"
      view="trash"
      tab="trash"
      placeholder="Search trash..."
      empty="no-trash"
      actions={
        abilities.canHardDeleteFiles && (
          <Button danger loading={isLoading} onClick={() => void emptyTrash()}>
            Empty Trash
          </Button>
        )
      }
    />
  );
}
