import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { invalidateFiles } from '../api/driveApi';
import { connectEventStream, listenForFileChanges } from './liveFiles';

/** Where the file list's live updates come from: an event per file added, changed, trashed, restored or purged. */
export const FILE_STREAM_URL = '/api/drive/files/stream';

/**
 * Live updates of the file lists: each `files` event on the stream (a file of a drive the user owns or is a member
 * of, or may otherwise see, changed by anyone) refetches the lists shown, as does a reconnection. A failed stream
 * is retried by the listener's rules (liveFiles.ts: 3 retries at 1 s steps, none on permission-denied), each
 * failure logged to the console.
 */
export function useFileStream(): void {
  const dispatch = useDispatch();
  useEffect(() => {
    if (typeof fetch === 'undefined' || typeof TextDecoderStream === 'undefined') return;
    const refetch = () => {
      dispatch(invalidateFiles());
    };
    return listenForFileChanges({
      connect: (signal, opened, changed) =>
        connectEventStream(FILE_STREAM_URL, 'files', signal, opened, changed),
      onChange: refetch,
      onReconnect: refetch,
      log: (level, message, error) => {
        // eslint-disable-next-line no-console -- the browser console is where a listener's failure is logged (§8)
        console[level](message, error);
      },
    });
  }, [dispatch]);
}
