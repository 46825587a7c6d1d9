import type { ImportResult } from '@workspace/cis/contract';
import { plural } from '@workspace/rules';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Input, Result, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../ui/feedback';
import { useImportInvoicesMutation } from './api';
import { useCis } from './context';
import { downloadFile } from './download';
import { errorMessage } from '../../ui/problem';

/** /cis/invoices/import: paste CSV or choose a file, import, and see what was created and which rows failed. */
export function InvoiceImport() {
  const { abilities } = useCis();
  const toast = useToast();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [runImport, { isLoading }] = useImportInvoicesMutation();

  if (!abilities.canImport)
    return <Alert type="warning" showIcon title="You don't have permission to import invoices." />;

  const submit = async () => {
    setFailure(null);
    setResult(null);
    try {
      setResult(await runImport(csv).unwrap());
    } catch (error) {
      setFailure(errorMessage(error, 'Import failed'));
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        title="Import Invoices"
        size="small"
        extra={
          <Button
            icon={<DownloadOutlined />}
            onClick={() => {
              downloadFile('/api/cis/invoices/import/template.csv', 'cis-invoices-template.csv').catch(
                (error: unknown) => {
                  toast.error(error instanceof Error ? error.message : 'Download failed');
                },
              );
            }}
          >
            Download Template
          </Button>
        }
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">
            Paste CSV rows below or choose a CSV file. Use the template for the column names. Each row is
            checked; valid rows are created as draft invoices and invalid rows are listed with their errors.
          </Typography.Paragraph>
          <Upload
            accept=".csv,text/csv"
            showUploadList={false}
            beforeUpload={(file) => {
              void file.text().then((text) => {
                setCsv(text);
                setFileName(file.name);
                setResult(null);
              });
              return false;
            }}
          >
            <Button icon={<UploadOutlined />}>Choose CSV File</Button>
          </Upload>
          {fileName && <Typography.Text>{`Loaded ${fileName}`}</Typography.Text>}
          <Input.TextArea
            aria-label="CSV data"
            value={csv}
            onChange={(event) => {
              setCsv(event.target.value);
              setFileName(null);
            }}
            autoSize={{ minRows: 8, maxRows: 20 }}
            style={{ fontFamily: 'monospace' }}
            placeholder="invoiceNumber,subcontractorId,invoiceDate,gross,materials,vatRate,reverseCharge,description"
          />
          <Space>
            <Button type="primary" loading={isLoading} disabled={!csv.trim()} onClick={() => void submit()}>
              Import
            </Button>
            <Link to="/cis/invoices">
              <Button>Back to invoices</Button>
            </Link>
          </Space>
        </Space>
      </Card>
      {failure && <Alert type="error" showIcon title={failure} />}
      {result && (
        <Card title="Import Results" size="small" data-testid="import-results">
          <Result
            status={result.failed.length === 0 ? 'success' : result.created.length > 0 ? 'warning' : 'error'}
            title={`${plural(result.created.length, 'invoice')} created`}
            subTitle={
              result.failed.length > 0 ? `${plural(result.failed.length, 'row')} had errors` : undefined
            }
            style={{ padding: 8 }}
          />
          {result.failed.length > 0 && (
            <Table
              rowKey="index"
              size="small"
              pagination={false}
              dataSource={result.failed}
              columns={[
                { title: 'Row', dataIndex: 'index', key: 'index', width: 80 },
                {
                  title: 'Errors',
                  key: 'errors',
                  render: (_, row) => (
                    <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                      {row.errors.map((message) => (
                        <li key={message}>{message}</li>
                      ))}
                    </ul>
                  ),
                },
              ]}
            />
          )}
        </Card>
      )}
    </Space>
  );
}
