import { DownloadOutlined, ToolOutlined } from '@ant-design/icons';
import { Button, Modal, Result, Space, Spin, Table, Typography } from 'antd';
import Papa from 'papaparse';
import { useEffect, useState } from 'react';
import type { DriveFile, PreviewAnswer } from '../api/types';
import { useDownload } from '../download';
import { PREVIEW_NOT_AVAILABLE, previewKind } from '@workspace/drive/domain';
import { useRepairReference } from '../upload/referenceWarning';
import { PREVIEW_TEXTS, previewFailure, prettyJson, type PreviewFailure } from './previewKind';

/** What to show: GET /api/drive/preview answers the kind, and the text (CSV, JSON, text) or a URL to embed. */
function usePreview(file: DriveFile) {
  const [state, setState] = useState<{ answer?: PreviewAnswer; failed?: PreviewFailure }>({});
  useEffect(() => {
    let live = true;
    const fail = (failure: PreviewFailure) => {
      if (live) setState({ failed: failure });
    };
    fetch(`/api/drive/preview?fileId=${encodeURIComponent(file.id)}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    })
      .then(async (response) => {
        if (!response.ok) {
          const body: unknown = await response.json().catch(() => undefined);
          fail(previewFailure({ status: response.status, body }));
          return;
        }
        const answer = (await response.json()) as PreviewAnswer;
        if (live) setState({ answer });
      })
      .catch(() => {
        fail(previewFailure());
      });
    return () => {
      live = false;
    };
  }, [file.id]);
  return state;
}

function Unable({ failure }: { failure?: PreviewFailure | undefined }) {
  return (
    <div data-testid="preview-failed">
      <Result
        status="warning"
        title={PREVIEW_TEXTS.unable}
        subTitle={
          failure?.reason && (
            <>
              <div>{failure.reason}</div>
              {failure.detail && <div>{failure.detail}</div>}
            </>
          )
        }
      />
    </div>
  );
}

function CsvTable({ text }: { text: string }) {
  const rows = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
  const [header = [], ...body] = rows;
  return (
    <Table
      data-testid="preview-csv"
      size="small"
      pagination={false}
      scroll={{ x: 'max-content', y: 480 }}
      columns={header.map((title, index) => ({ title, dataIndex: index, key: String(index) }))}
      dataSource={body.map((row, index) => ({ key: index, ...Object.fromEntries(row.entries()) }))}
    />
  );
}

/** The preview modal: Escape closes it; the header has Download and, for an orphaned reference, Repair reference. */
export function PreviewModal({ file, onClose }: { file: DriveFile; onClose: () => void }) {
  const preview = usePreview(file);
  const answer = preview.answer;
  const kind = answer?.kind ?? previewKind(file);
  const text = answer?.text ?? '';
  const [failed, setFailed] = useState(false);
  const download = useDownload();
  const repair = useRepairReference();
  const [repairing, setRepairing] = useState(false);
  const src = answer?.url;

  const repairReference = async () => {
    setRepairing(true);
    await repair(file.id);
    setRepairing(false);
  };

  let body;
  if (failed || preview.failed) body = <Unable failure={preview.failed} />;
  else if (!answer) body = <Spin />;
  else
    switch (kind) {
      case 'pdf':
        body = (
          <iframe
            data-testid="preview-pdf"
            title={file.name}
            src={src}
            style={{ width: '100%', height: '70vh', border: 0 }}
          />
        );
        break;
      case 'image':
        body = (
          <img
            data-testid="preview-image"
            alt={file.name}
            src={src}
            onError={() => {
              setFailed(true);
            }}
            style={{ maxWidth: '100%', maxHeight: '70vh', display: 'block', margin: '0 auto' }}
          />
        );
        break;
      case 'video':
        body = (
          <video
            data-testid="preview-video"
            controls
            src={src}
            onError={() => {
              setFailed(true);
            }}
            style={{ width: '100%' }}
          />
        );
        break;
      case 'audio':
        body = (
          <audio
            data-testid="preview-audio"
            controls
            src={src}
            onError={() => {
              setFailed(true);
            }}
            style={{ width: '100%' }}
          />
        );
        break;
      case 'csv':
        body = <CsvTable text={text} />;
        break;
      case 'json':
      case 'text':
        body = (
          <pre
            data-testid="preview-text"
            style={{ maxHeight: '70vh', overflow: 'auto', whiteSpace: 'pre-wrap' }}
          >
            {kind === 'json' ? prettyJson(text) : text}
          </pre>
        );
        break;
      default:
        body = (
          <div data-testid="preview-unavailable">
            <Result
              title={answer.message ?? PREVIEW_NOT_AVAILABLE}
              extra={
                <Button type="primary" icon={<DownloadOutlined />} onClick={() => void download(file)}>
                  Download File
                </Button>
              }
            />
          </div>
        );
    }

  return (
    <Modal
      open
      width={960}
      keyboard
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      title={
        <Space style={{ width: 'calc(100% - 40px)', justifyContent: 'space-between' }}>
          <Typography.Text strong ellipsis style={{ maxWidth: 520 }}>
            {file.name}
          </Typography.Text>
          <Space>
            {file.orphanedRef && (
              <Button icon={<ToolOutlined />} loading={repairing} onClick={() => void repairReference()}>
                Repair reference
              </Button>
            )}
            <Button icon={<DownloadOutlined />} onClick={() => void download(file)}>
              Download
            </Button>
          </Space>
        </Space>
      }
    >
      <div data-testid="file-preview">{body}</div>
    </Modal>
  );
}
