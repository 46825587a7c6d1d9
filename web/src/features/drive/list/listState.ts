// The file list's state (drive.md §2): filters, sort and page. Any filter change goes back to page 1; a click on a
// column sorts by the domain's nextSort (the sorted column toggles its direction).
import { nextSort, PAGE_SIZE } from '@workspace/drive/domain';
import type { SortField, SortOrder, VisibilityFilter } from '../api/types';
import { acceptPageSize } from './format';

/** Above this many rows the list view virtualises its rows (drive.md §9: virtual scroll threshold 100). */
export const VIRTUAL_SCROLL_THRESHOLD = 100;

/** Whether a list of `rows` rows is virtualised: only when above the threshold. */
export const virtualised = (rows: number): boolean => rows > VIRTUAL_SCROLL_THRESHOLD;

export interface ListState {
  q: string;
  visibility: VisibilityFilter;
  libraryId: string | undefined;
  folderId: string | undefined;
  sort: SortField;
  direction: SortOrder;
  page: number;
  pageSize: number;
}

export const initialListState: ListState = {
  q: '',
  visibility: 'all',
  libraryId: undefined,
  folderId: undefined,
  sort: 'createdAt',
  direction: 'desc',
  page: 1,
  pageSize: PAGE_SIZE,
};

export type ListAction =
  | { type: 'filter'; changes: Partial<Pick<ListState, 'q' | 'visibility' | 'libraryId' | 'folderId'>> }
  | { type: 'sort'; field: SortField }
  | { type: 'page'; page: number; pageSize?: number };

export function listReducer(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case 'filter':
      return { ...state, ...action.changes, page: 1 };
    case 'sort':
      return { ...state, ...nextSort(state, action.field), page: 1 };
    case 'page': {
      const pageSize = acceptPageSize(action.pageSize ?? state.pageSize, state.pageSize);
      return { ...state, pageSize, page: pageSize === state.pageSize ? Math.max(1, action.page) : 1 };
    }
  }
}

/** The select-all control: checked when every row is, indeterminate (partial) when some are. */
export function selectAllState(
  selected: number,
  total: number,
): { checked: boolean; indeterminate: boolean } {
  return { checked: total > 0 && selected === total, indeterminate: selected > 0 && selected < total };
}
