import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Grid, Layout, Space, Typography } from 'antd';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { ProjectDrawer } from './ProjectDrawer';

const OpenProjectDrawer = createContext<() => void>(() => undefined);

/** Opens the Start a project drawer (from any page's content). */
export const useOpenProjectDrawer = () => useContext(OpenProjectDrawer);

/** The header's links: the home page's sections, then the pages. */
const NAV_LINKS = [
  { href: '/#industries', label: 'Industries' },
  { href: '/#process', label: 'Process' },
  { href: '/#about', label: 'About' },
  { href: '/vision', label: 'Vision' },
  { href: '/help', label: 'Help' },
];

const FOOTER_LINKS = [
  { href: '/vision', label: 'Vision' },
  { href: '/help', label: 'Help' },
  { href: '/terms', label: 'Terms' },
  { href: '/privacy', label: 'Privacy' },
  { href: '/login', label: 'Sign in' },
];

export const CONTENT_WIDTH = 1080;

/**
 * Every page of the public site: the header (the name, the navigation, Sign in and Start a project; under 768 px a
 * menu button instead), the page, the footer (the pages and Start a project) and the Start a project drawer.
 */
export function SiteLayout({ children }: { children: ReactNode }) {
  const [projectOpen, setProjectOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const screens = Grid.useBreakpoint();
  const compact = screens.md === false;
  const openProject = () => {
    setMenuOpen(false);
    setProjectOpen(true);
  };

  return (
    <OpenProjectDrawer.Provider value={openProject}>
      <Layout style={{ minHeight: '100vh' }}>
        <Layout.Header
          style={{
            position: 'sticky',
            top: 0,
            zIndex: 10,
            background: '#fff',
            borderBottom: '1px solid rgba(5, 5, 5, 0.06)',
            paddingInline: 0,
          }}
        >
          <nav
            aria-label="Main"
            style={{
              maxWidth: CONTENT_WIDTH,
              margin: '0 auto',
              paddingInline: compact ? 16 : 24,
              height: '100%',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 16,
            }}
          >
            <Typography.Link href="/#top" strong style={{ fontSize: 20, color: 'inherit' }}>
              Workspace
            </Typography.Link>
            {compact ? (
              <Space>
                <Button type="primary" onClick={openProject}>
                  Start a project
                </Button>
                <Button
                  icon={<MenuOutlined />}
                  aria-label="Menu"
                  onClick={() => {
                    setMenuOpen(true);
                  }}
                />
              </Space>
            ) : (
              <Space size="large">
                {NAV_LINKS.map((link) => (
                  <Typography.Link key={link.href} href={link.href} style={{ color: 'inherit' }}>
                    {link.label}
                  </Typography.Link>
                ))}
                <Button href="/login">Sign in</Button>
                <Button type="primary" onClick={openProject}>
                  Start a project
                </Button>
              </Space>
            )}
          </nav>
        </Layout.Header>
        <Drawer
          open={menuOpen}
          placement="right"
          size="80vw"
          title="Workspace"
          onClose={() => {
            setMenuOpen(false);
          }}
        >
          <nav aria-label="Menu">
            <Space orientation="vertical" size="large" style={{ width: '100%' }}>
              {NAV_LINKS.map((link) => (
                <Typography.Link
                  key={link.href}
                  href={link.href}
                  style={{ fontSize: 18 }}
                  onClick={() => {
                    setMenuOpen(false);
                  }}
                >
                  {link.label}
                </Typography.Link>
              ))}
              <Button href="/login" block>
                Sign in
              </Button>
              <Button type="primary" block onClick={openProject}>
                Start a project
              </Button>
            </Space>
          </nav>
        </Drawer>
        <Layout.Content style={{ background: '#fff' }}>{children}</Layout.Content>
        <Layout.Footer style={{ paddingInline: 0 }}>
          <footer
            style={{
              maxWidth: CONTENT_WIDTH,
              margin: '0 auto',
              paddingInline: compact ? 16 : 24,
              display: 'flex',
              flexWrap: 'wrap',
              gap: 16,
              justifyContent: 'space-between',
              alignItems: 'center',
            }}
          >
            <Typography.Text type="secondary">© {new Date().getFullYear()} Workspace</Typography.Text>
            <nav aria-label="Footer">
              <Space wrap size="middle">
                {FOOTER_LINKS.map((link) => (
                  <Typography.Link key={link.href} href={link.href}>
                    {link.label}
                  </Typography.Link>
                ))}
                <Button type="link" onClick={openProject} style={{ paddingInline: 0 }}>
                  Start a project
                </Button>
              </Space>
            </nav>
          </footer>
        </Layout.Footer>
        <ProjectDrawer
          open={projectOpen}
          onClose={() => {
            setProjectOpen(false);
          }}
        />
      </Layout>
    </OpenProjectDrawer.Provider>
  );
}

/** A page's body: the content width, phone padding. */
export function PageBody({ children, narrow }: { children: ReactNode; narrow?: boolean }) {
  const screens = Grid.useBreakpoint();
  return (
    <div
      style={{
        maxWidth: narrow ? 760 : CONTENT_WIDTH,
        margin: '0 auto',
        padding: screens.md === false ? '32px 16px 48px' : '56px 24px 72px',
      }}
    >
      {children}
    </div>
  );
}
