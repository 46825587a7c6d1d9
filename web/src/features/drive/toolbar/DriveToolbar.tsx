import { AppstoreOutlined, MenuOutlined, SearchOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Grid, Input, Segmented, Space, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useStorageQuery } from '../api/driveApi';
import type { VisibilityFilter } from '../api/types';
import { remainingGb } from '../list/format';
import type { ViewMode } from '../list/viewMode';
import { useDrive } from '../context';

/** The file tabs (drive.md §2) and where each goes. */
export const FILE_TABS = [
  { key: 'all', label: 'All Files', to: '/drive/all' },
  { key: 'mine', label: 'My Files', to: '/drive/all?view=mine' },
  { key: 'shared', label: 'Shared', to: '/drive/shared' },
  { key: 'recent', label: 'Recent', to: '/drive/recent' },
  { key: 'starred', label: 'Starred', to: '/drive/starred' },
  { key: 'trash', label: 'Trash', to: '/drive/trash' },
] as const;

export interface DriveToolbarProps {
  /** The page's title (the overview's 'Dashboard Overview'). */
  title?: ReactNode;
  /** The search box's placeholder; none: no search box. */
  placeholder?: string;
  search?: string;
  onSearch?: (text: string) => void;
  /** The file tab in use, when the page shows the tabs. */
  tab?: (typeof FILE_TABS)[number]['key'];
  visibility?: VisibilityFilter;
  onVisibility?: (visibility: VisibilityFilter) => void;
  viewMode?: ViewMode;
  onViewMode?: (mode: ViewMode) => void;
  /** The page's own buttons (Empty Trash, New Folder...). */
  actions?: ReactNode;
  /** Under the bar: a breadcrumb. */
  breadcrumb?: ReactNode;
}

/** The drive toolbar (3.5rem): adapts to the page; shows the storage left in GB on every page. */
export function DriveToolbar(props: DriveToolbarProps) {
  const { toggleSidebar } = useDrive();
  const screens = Grid.useBreakpoint();
  const mobile = screens.md === false;
  const navigate = useNavigate();
  const location = useLocation();
  const storage = useStorageQuery(undefined);
  const left = storage.data ? remainingGb(storage.data.cap, storage.data.used) : undefined;
  return (
    <div data-testid="drive-toolbar-wrap" style={{ marginBottom: 12 }}>
      <div
        data-testid="drive-toolbar"
        style={{ height: '3.5rem', display: 'flex', alignItems: 'center', gap: 12, overflow: 'hidden' }}
      >
        {mobile && <Button icon={<MenuOutlined />} aria-label="Toggle sidebar" onClick={toggleSidebar} />}
        {props.title && (
          <Typography.Title level={4} style={{ margin: 0, whiteSpace: 'nowrap' }}>
            {props.title}
          </Typography.Title>
        )}
        {props.placeholder && (
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={props.placeholder}
            aria-label={props.placeholder}
            value={props.search}
            onChange={(event) => props.onSearch?.(event.target.value)}
            style={{ maxWidth: 320 }}
          />
        )}
        {props.visibility && props.onVisibility && (
          <Segmented
            aria-label="Visibility"
            value={props.visibility}
            options={[
              { label: 'all', value: 'all' },
              { label: 'private', value: 'private' },
              { label: 'shared', value: 'shared' },
            ]}
            onChange={(value) => props.onVisibility?.(value as VisibilityFilter)}
          />
        )}
        <div style={{ flex: 1 }} />
        <Space wrap={false}>
          {props.actions}
          {props.viewMode && props.onViewMode && (
            <Segmented
              aria-label="View"
              value={props.viewMode}
              options={[
                { value: 'grid', icon: <AppstoreOutlined />, title: 'Grid', label: 'Grid' },
                { value: 'list', icon: <UnorderedListOutlined />, title: 'List', label: 'List' },
              ]}
              onChange={(value) => props.onViewMode?.(value as ViewMode)}
            />
          )}
          {left !== undefined && (
            <Typography.Text type="secondary" data-testid="storage-left" style={{ whiteSpace: 'nowrap' }}>
              {left} GB left
            </Typography.Text>
          )}
        </Space>
      </div>
      {props.tab && (
        <Tabs
          size="small"
          activeKey={props.tab}
          onChange={(key) => {
            const tab = FILE_TABS.find((item) => item.key === key);
            if (tab && `${location.pathname}${location.search}` !== tab.to) void navigate(tab.to);
          }}
          items={FILE_TABS.map(({ key, label }) => ({ key, label }))}
          style={{ marginBottom: 0 }}
        />
      )}
      {props.breadcrumb}
    </div>
  );
}
