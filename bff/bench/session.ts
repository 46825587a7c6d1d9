// Sign-in through the bff for benchmarks: the real OIDC flow at the dev IdP, with a cookie jar.
import { demoSeed } from '@workspace/identity/testing';

/** Follows the sign-in redirects through the bff and the dev IdP; returns the session cookie (`ws_session=…`). */
export async function bffSession(
  base: string,
  publicUrl: string,
  email = 'admin@demo.test',
  tenant = 'demo',
): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const [name = '', ...value] = pair.split('=');
      jar.set(name.trim(), value.join('='));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let response = await fetch(`${base}/api/auth/login?tenant=${tenant}`, { redirect: 'manual' });
  keep(response);
  let url = response.headers.get('location') ?? '';
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(publicUrl)) url = base + url.slice(publicUrl.length);
    response = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    keep(response);
    if (response.status === 200 && url.includes('/interaction/')) {
      const page = await response.text();
      const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
      response = await fetch(new URL(action, url), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: demoSeed.password }).toString(),
      });
      keep(response);
    }
    const session = jar.get('ws_session');
    if (session && url.includes('/api/auth/callback')) return `ws_session=${session}`;
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in stopped at ${url} with ${response.status}`);
    url = new URL(location, url).toString();
  }
  throw new Error('sign-in through the bff did not finish');
}
