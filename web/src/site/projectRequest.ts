import type { ProjectRequestAccepted, ProjectRequestInput } from '@workspace/notification/project-requests';
import { readProblem } from '../ui/problem';

/** What the Start a project drawer says once a request is received (the spec's text). */
export const PROJECT_REQUEST_SUCCESS = 'Thank you! We’ll be in touch shortly.';
/** How long the success text stays before the drawer closes (the spec's 2 seconds). */
export const PROJECT_REQUEST_CLOSE_MS = 2_000;

/**
 * The spec's sendProjectRequest(name, email, company, message): the bff's public route, no session. Resolves with
 * the stored request's id; rejects with the problem's detail when the request is refused or cannot be delivered.
 */
export async function sendProjectRequest(
  name: string,
  email: string,
  company: string,
  message: string,
  fetchImpl: typeof fetch = fetch,
): Promise<ProjectRequestAccepted> {
  const body: ProjectRequestInput = { name, email, company, message };
  const response = await fetchImpl('/api/public/project-requests', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const problem = await readProblem(response);
    const fields = (problem.errors ?? []).map((error) => `${error.field}: ${error.message}`).join('; ');
    throw new Error(
      `Project request not received (HTTP ${response.status}): ${problem.detail ?? 'no detail'}${fields ? ` (${fields})` : ''}`,
    );
  }
  return (await response.json()) as ProjectRequestAccepted;
}
