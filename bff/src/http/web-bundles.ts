import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiRouter } from '@workspace/kit';
import { STAFF_APP_SECTIONS } from '@workspace/rules';
import express from 'express';
import { parseCookies } from '../security.js';
import type { BffContext } from './context.js';

/** The public site's pages (web/src/site/pages.ts): the site's entry serves them to everyone, signed in or not. */
export const SITE_PAGES: ReadonlySet<string> = new Set(['/login', '/vision', '/help', '/terms', '/privacy']);

/**
 * `/` (the site or the staff app by session) and every path under a staff app section (STAFF_APP_SECTIONS: the
 * shell's own pages and every module of the catalogue, services/rules/src/staff-app.ts). A signed-out browser at one
 * of them gets the staff app, which sends it to /login?returnTo=…; at any other path, the site's 404 page.
 */
export function isStaffAppPath(path: string): boolean {
  return path === '/' || STAFF_APP_SECTIONS.has(path.split('/')[1] ?? '');
}

/**
 * Serves the built web bundles on the bff's origin: hashed assets (cached for a year), and for page routes the
 * entry that owns them: the portal for /portal-login and /portal/*, the public share page for /share/* (signed in
 * or not: a share link never loads the staff app), the public site for its pages (/login, /vision, /help, /terms,
 * /privacy) and for signed-out visitors at /, the staff app for a staff session and for its own sections; any other
 * path of a signed-out browser gets the site's 404 page (status 404). /api and the kit's endpoints never reach here.
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
    if (SITE_PAGES.has(req.path)) {
      send('site.html');
      return;
    }
    const staff = await context.staff.load(parseCookies(req.headers.cookie).get(context.cookies.session));
    if (staff || isStaffAppPath(req.path)) {
      send(req.path === '/' && !staff ? 'site.html' : 'index.html');
      return;
    }
    // A public path nobody serves: the site's own 404 page, with a 404 status (never the staff app and its 401).
    res.status(404);
    send('site.html');
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
