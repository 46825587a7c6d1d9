// JSON previews are pretty-printed (drive.md §2); what a file previews as is the domain's previewKind.

/** JSON pretty-printed (two spaces); text that is not JSON as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
