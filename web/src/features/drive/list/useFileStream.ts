import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { invalidateFiles } from '../api/driveApi';

/**
 * Live updates of the file lists: each event on /api/drive/files/stream (a file of the tenant added, changed,
 * trashed, restored or purged by someone) refetches the lists shown. EventSource reconnects a dropped stream itself.
 */
export function useFileStream(): void {
  const dispatch = useDispatch();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/drive/files/stream');
    const refetch = () => {
      dispatch(invalidateFiles());
    };
    source.addEventListener('files', refetch);
    return () => {
      source.removeEventListener('files', refetch);
      source.close();
    };
  }, [dispatch]);
}
