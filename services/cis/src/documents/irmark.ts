// HMRC's IRmark: a SHA-1 digest, base64, of the GovTalk <Body> canonicalised with inclusive C14N 1.0 (no
// comments), leaving out the <IRmark> element itself. This is exactly what HMRC's own service computes
// (hmrc/construction-industry-scheme app/.../services/irmark/IrMarkGenerator.scala): an XPath transform
// keeping `/GovTalkMessage/Body` and its descendants minus `Body/IRenvelope/IRheader/IRmark` (in the
// message's namespace, e.g. http://www.govtalk.gov.uk/taxation/CISreturn), then
// http://www.w3.org/TR/2001/REC-xml-c14n-20010315, then SHA-1 and base64.
//
// The canonicaliser below handles the XML this service produces and HMRC's sample envelopes: elements,
// attributes, namespace declarations, text, character and predefined entity references, CDATA sections,
// comments and processing instructions (comments and PIs inside the Body are dropped/kept per C14N). It
// does not support a DOCTYPE with an internal subset (GovTalk messages have none).

import { createHash } from 'node:crypto';

export const GOVTALK_ENVELOPE_NS = 'http://www.govtalk.gov.uk/CM/envelope';
export const CIS_RETURN_NS = 'http://www.govtalk.gov.uk/taxation/CISreturn';

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<!DOCTYPE[^>]*>|<(?:[^>"']|"[^"]*"|'[^']*')*>|[^<]+/g;
const ATTRIBUTE = /([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

interface Frame {
  /** prefix → namespace URI in scope ('' is the default namespace; '' URI means none). */
  scope: Map<string, string>;
  /** prefix → URI as rendered by the nearest rendered ancestor (C14N namespace-node rule). */
  rendered: Map<string, string>;
  qname: string;
  namespace: string;
  localName: string;
  /** Inside the canonicalised subtree. */
  inOutput: boolean;
  /** Inside the excluded IRmark element. */
  excluded: boolean;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_match, ref: string) => {
    switch (ref) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(
          ref.startsWith('#x') ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10),
        );
    }
  });
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
}

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#x9;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;');
}

function splitQName(qname: string): [prefix: string, local: string] {
  const colon = qname.indexOf(':');
  return colon < 0 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

interface ParsedTag {
  qname: string;
  selfClosing: boolean;
  namespaceDecls: Map<string, string>;
  attributes: { qname: string; value: string }[];
}

function parseStartTag(raw: string): ParsedTag {
  const selfClosing = raw.endsWith('/>');
  const inner = raw.slice(1, selfClosing ? -2 : -1);
  const nameMatch = /^[^\s/>]+/.exec(inner);
  if (!nameMatch) throw new Error(`Malformed tag: ${raw}`);
  const qname = nameMatch[0];
  const namespaceDecls = new Map<string, string>();
  const attributes: { qname: string; value: string }[] = [];
  ATTRIBUTE.lastIndex = 0;
  const rest = inner.slice(qname.length);
  for (let match = ATTRIBUTE.exec(rest); match; match = ATTRIBUTE.exec(rest)) {
    const name = match[1] ?? '';
    // Attribute-value normalisation (XML 1.0 §3.3.3): literal whitespace characters become spaces.
    const value = decodeEntities((match[2] ?? match[3] ?? '').replace(/[\t\n\r]/g, ' '));
    if (name === 'xmlns') namespaceDecls.set('', value);
    else if (name.startsWith('xmlns:')) namespaceDecls.set(name.slice(6), value);
    else attributes.push({ qname: name, value });
  }
  return { qname, selfClosing, namespaceDecls, attributes };
}

/**
 * Inclusive C14N 1.0 (without comments) of the GovTalk `<Body>` element of `xml`, leaving out the
 * `Body/IRenvelope/IRheader/IRmark` element in `messageNamespace`. Returned as a string (UTF-8 when hashed).
 */
export function canonicalGovTalkBody(xml: string, messageNamespace: string = CIS_RETURN_NS): string {
  const source = xml.replace(/\r\n?/g, '\n'); // end-of-line handling (XML 1.0 §2.11)
  const out: string[] = [];
  const stack: Frame[] = [];
  let sawBody = false;

  const root: Frame = {
    scope: new Map([['', '']]),
    rendered: new Map(),
    qname: '',
    namespace: '',
    localName: '',
    inOutput: false,
    excluded: false,
  };

  for (const match of source.matchAll(TOKEN)) {
    const token = match[0];
    const parent = stack.at(-1) ?? root;

    if (token.startsWith('<!--') || token.startsWith('<!DOCTYPE') || token.startsWith('<?')) {
      if (token.startsWith('<?') && parent.inOutput && !parent.excluded && !token.startsWith('<?xml ')) {
        out.push(token); // a PI inside the subtree is kept as written
      }
      continue;
    }
    if (token.startsWith('<![CDATA[')) {
      if (parent.inOutput && !parent.excluded) out.push(escapeText(token.slice(9, -3)));
      continue;
    }
    if (token.startsWith('</')) {
      const frame = stack.pop();
      if (!frame) throw new Error('Unbalanced end tag');
      if (frame.inOutput && !frame.excluded) out.push(`</${frame.qname}>`);
      continue;
    }
    if (token.startsWith('<')) {
      const tag = parseStartTag(token);
      const scope = new Map(parent.scope);
      for (const [prefix, uri] of tag.namespaceDecls) scope.set(prefix, uri);
      const [prefix, localName] = splitQName(tag.qname);
      const namespace = scope.get(prefix) ?? '';

      const isBody =
        !parent.inOutput &&
        stack.length === 1 &&
        localName === 'Body' &&
        namespace === GOVTALK_ENVELOPE_NS &&
        parent.localName === 'GovTalkMessage';
      const path = stack.map((frame) => frame.localName).join('/');
      const isIrMark =
        parent.inOutput &&
        localName === 'IRmark' &&
        namespace === messageNamespace &&
        path === 'GovTalkMessage/Body/IRenvelope/IRheader';
      const inOutput = parent.inOutput || isBody;
      const excluded = parent.excluded || isIrMark;
      if (isBody) sawBody = true;

      const frame: Frame = {
        scope,
        rendered: parent.rendered,
        qname: tag.qname,
        namespace,
        localName,
        inOutput,
        excluded,
      };

      if (inOutput && !excluded) {
        const rendered = new Map(parent.inOutput ? parent.rendered : []);
        const nsOut: [string, string][] = [];
        for (const [nsPrefix, uri] of scope) {
          if (nsPrefix === 'xml') continue;
          // xmlns="" only undoes a rendered non-empty default; any other declaration is rendered when the
          // nearest rendered ancestor does not already render the same prefix with the same URI.
          if (nsPrefix === '' && uri === '' ? !rendered.get('') : rendered.get(nsPrefix) === uri) continue;
          nsOut.push([nsPrefix, uri]);
          rendered.set(nsPrefix, uri);
        }
        frame.rendered = rendered;
        nsOut.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        const attrs = tag.attributes.map(({ qname, value }) => {
          const [attrPrefix, attrLocal] = splitQName(qname);
          const uri = attrPrefix ? (scope.get(attrPrefix) ?? '') : '';
          return { qname, value, uri, local: attrLocal };
        });
        attrs.sort((a, b) =>
          a.uri !== b.uri ? (a.uri < b.uri ? -1 : 1) : a.local < b.local ? -1 : a.local > b.local ? 1 : 0,
        );
        let text = `<${tag.qname}`;
        for (const [nsPrefix, uri] of nsOut) {
          text += nsPrefix
            ? ` xmlns:${nsPrefix}="${escapeAttribute(uri)}"`
            : ` xmlns="${escapeAttribute(uri)}"`;
        }
        for (const attr of attrs) text += ` ${attr.qname}="${escapeAttribute(attr.value)}"`;
        out.push(`${text}>`);
        if (tag.selfClosing) out.push(`</${tag.qname}>`);
      }
      if (!tag.selfClosing) stack.push(frame);
      continue;
    }
    if (parent.inOutput && !parent.excluded) out.push(escapeText(decodeEntities(token)));
  }

  if (stack.length > 0) throw new Error('Unclosed element in XML');
  if (!sawBody) throw new Error('No GovTalkMessage/Body element found');
  return out.join('');
}

/** HMRC's IRmark of a complete GovTalk message (base64 of SHA-1 over the canonical Body without IRmark). */
export function computeIrMark(xml: string, messageNamespace: string = CIS_RETURN_NS): string {
  return createHash('sha1').update(canonicalGovTalkBody(xml, messageNamespace), 'utf8').digest('base64');
}
