import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiRouter } from '@workspace/kit';
import express from 'express';
import { parseCookies } from '../security.js';
import type { BffContext } from './context.js';

/**
 * Serves the built web bundles on the bff's origin: hashed assets (cached for a year), and for page routes the
 * entry that owns them: the portal for /portal-login and /portal/*, the public share page for /share/* (signed in
 * or not: a share link never loads the staff app), the public site for /login and for signed-out visitors at /, the
 * staff app for everything else. /api and the kit's endpoints never reach here.
 */
export function webBundles(context: BffContext, staticDir: string): ApiRouter {
  for (const page of ['index.html', 'portal.html', 'site.html', 'share.html']) {
    if (!existsSync(join(staticDir, page)))
      throw new Error(`STATIC_DIR ${staticDir} has no ${page}: build the web bundles first`);
  }
  const pages = new ApiRouter();
  pages.router.use(
    '/assets',
    express.static(join(staticDir, 'assets'), { immutable: true, maxAge: '365d', index: false }),
  );
  pages.router.get(/^\/(?!api\/|api$).*/, async (req, res) => {
    const send = (page: string) => {
      res.setHeader('cache-control', 'no-cache');
      res.sendFile(join(staticDir, page));
    };
    if (req.path === '/portal-login' || req.path.startsWith('/portal/') || req.path === '/portal') {
      if (req.path !== '/portal-login' && (await staffWithoutPortal(context, req.headers.cookie))) {
        // Staff opening a portal page: the portal is for subcontractors; their own home is the staff app.
        res.redirect(302, '/');
        return;
      }
      send('portal.html');
      return;
    }
    if (req.path === '/share' || req.path.startsWith('/share/')) {
      send('share.html');
      return;
    }
    if (req.path === '/login') {
      send('site.html');
      return;
    }
    const staff = await context.staff.load(parseCookies(req.headers.cookie).get(context.cookies.session));
    send(staff || req.path !== '/' ? 'index.html' : 'site.html');
  });
  return pages;
}

/** A browser signed in as staff and not to the portal (a staff user who opened a portal page). */
async function staffWithoutPortal(context: BffContext, cookieHeader: string | undefined): Promise<boolean> {
  const cookies = parseCookies(cookieHeader);
  const [staff, portal] = await Promise.all([
    context.staff.load(cookies.get(context.cookies.session)),
    context.portal.load(cookies.get(context.cookies.portal)),
  ]);
  return Boolean(staff) && !portal;
}
