import { Card, Result, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';

/** The share id of a /share/{shareId} path, or undefined for any other path under /share. */
export function shareIdOf(path: string): string | undefined {
  const match = /^\/share\/([A-Za-z0-9_-]{1,100})\/?$/.exec(path);
  return match?.[1];
}

type Loaded = { state: 'loading' } | { state: 'missing' } | { state: 'ready'; name: string };

/** A public share link: the share's files for whoever holds the link, as the share's policy allows. */
export function SharePage({ path }: { path: string }) {
  const shareId = shareIdOf(path);
  const [loaded, setLoaded] = useState<Loaded>(shareId ? { state: 'loading' } : { state: 'missing' });
  useEffect(() => {
    if (!shareId) return;
    void fetch(`/api/public/shares/${encodeURIComponent(shareId)}`, { credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { name?: string };
        setLoaded({ state: 'ready', name: body.name ?? '' });
      })
      .catch(() => {
        setLoaded({ state: 'missing' });
      });
  }, [shareId]);
  if (loaded.state === 'loading') return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  if (loaded.state === 'missing')
    return <Result status="404" title="Share not found" subTitle="This link does not lead to a share." />;
  return (
    <Card style={{ maxWidth: 880, margin: '8vh auto' }}>
      <Typography.Title level={3}>{loaded.name}</Typography.Title>
    </Card>
  );
}
