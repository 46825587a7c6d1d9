export declare const repoRoot: string;
export declare function workspacePackages(root?: string): {
  dir: string;
  manifest: { name: string; exports?: Record<string, unknown> } & Record<string, unknown>;
}[];
export declare function sourceEntries(root?: string): { specifier: string; source: string }[];
