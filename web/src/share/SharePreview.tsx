import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Modal, Spin, Table, Typography } from 'antd';
import Papa from 'papaparse';
import { useEffect, useState } from 'react';

type Kind = 'pdf' | 'image' | 'video' | 'audio' | 'csv' | 'json' | 'text' | 'none';

/** How a shared file is shown, from its type class and MIME type. */
export function shareFileKind(file: { name: string; mimeType: string; typeClass: string }): Kind {
  const mime = file.mimeType.toLowerCase();
  const name = file.name.toLowerCase();
  if (mime === 'text/csv' || name.endsWith('.csv')) return 'csv';
  if (mime === 'application/json' || name.endsWith('.json')) return 'json';
  if (file.typeClass === 'pdf') return 'pdf';
  if (file.typeClass === 'image') return 'image';
  if (file.typeClass === 'video') return 'video';
  if (file.typeClass === 'audio') return 'audio';
  if (mime.startsWith('text/') || file.typeClass === 'code') return 'text';
  return 'none';
}

/** A shared file in a modal (Escape closes): as the staff preview shows it, from the share's preview address. */
export function SharePreview({
  file,
  previewUrl,
  downloadUrl,
  onClose,
}: {
  file: { name: string; mimeType: string; typeClass: string };
  previewUrl: string;
  downloadUrl: string | undefined;
  onClose: () => void;
}) {
  const kind = shareFileKind(file);
  const textual = kind === 'csv' || kind === 'json' || kind === 'text';
  const [text, setText] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!textual) return;
    void fetch(previewUrl, { credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        setText(await response.text());
      })
      .catch(() => {
        setFailed(true);
      });
  }, [previewUrl, textual]);

  const body = () => {
    if (failed) return <Alert type="error" showIcon title="Unable to load file" />;
    switch (kind) {
      case 'pdf':
        return (
          <iframe title={file.name} src={previewUrl} style={{ width: '100%', height: '70vh', border: 0 }} />
        );
      case 'image':
        return (
          <img
            src={previewUrl}
            alt={file.name}
            style={{ maxWidth: '100%', maxHeight: '70vh', display: 'block', margin: '0 auto' }}
            onError={() => {
              setFailed(true);
            }}
          />
        );
      case 'video':
        return <video src={previewUrl} controls style={{ width: '100%', maxHeight: '70vh' }} />;
      case 'audio':
        return <audio src={previewUrl} controls style={{ width: '100%' }} />;
      case 'none':
        return (
          <Empty description="Preview not available for this file type">
            {downloadUrl && (
              <Button type="primary" icon={<DownloadOutlined />} href={downloadUrl}>
                Download File
              </Button>
            )}
          </Empty>
        );
      default:
        if (text === undefined) return <Spin />;
        if (kind === 'csv') {
          const rows = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
          const [header = [], ...data] = rows;
          return (
            <Table
              size="small"
              pagination={false}
              scroll={{ x: true, y: '60vh' }}
              rowKey={(_, index) => String(index)}
              columns={header.map((title, column) => ({
                title,
                key: String(column),
                render: (_: unknown, row: string[]) => row[column] ?? '',
              }))}
              dataSource={data}
            />
          );
        }
        return (
          <Typography.Paragraph>
            <pre style={{ maxHeight: '65vh', overflow: 'auto', whiteSpace: 'pre-wrap' }}>
              {kind === 'json' ? prettyJson(text) : text}
            </pre>
          </Typography.Paragraph>
        );
    }
  };

  return (
    <Modal
      open
      title={file.name}
      width={960}
      onCancel={onClose}
      footer={
        downloadUrl ? (
          <Button icon={<DownloadOutlined />} href={downloadUrl}>
            Download
          </Button>
        ) : null
      }
    >
      {body()}
    </Modal>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
