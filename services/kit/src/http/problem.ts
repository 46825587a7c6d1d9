import type { ErrorRequestHandler, RequestHandler } from 'express';
import { STATUS_CODES } from 'node:http';

export interface FieldError {
  /** Where the value came from and its path, e.g. `body.items.0.grossP`. */
  field: string;
  message: string;
}

/** RFC 9457 problem details, as every service answers errors. `detail` carries the spec's message verbatim. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  instance?: string;
  errors?: FieldError[];
  /** Members of the problem type's own (RFC 9457 §3.2), e.g. the existing record a duplicate names. */
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An error that leaves a service as problem+json with its status, code and message. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    /** Extension members of this problem type, answered beside the standard ones (never a standard name). */
    readonly extensions?: Record<string, unknown>,
  ) {
    super(detail ?? code);
    this.name = 'HttpProblem';
  }

  toDocument(instance?: string): ProblemDocument {
    return {
      ...this.extensions,
      type: `/problems/${this.code}`,
      title: STATUS_CODES[this.status] ?? 'Error',
      status: this.status,
      ...(this.detail === undefined ? {} : { detail: this.detail }),
      code: this.code,
      ...(instance === undefined ? {} : { instance }),
      ...(this.errors === undefined ? {} : { errors: this.errors }),
    };
  }
}

export const problems = {
  badRequest: (detail: string, errors?: FieldError[]) => new HttpProblem(400, 'bad_request', detail, errors),
  validation: (errors: FieldError[]) =>
    new HttpProblem(400, 'validation_failed', 'The request is not valid.', errors),
  unauthorized: (detail = 'Authentication is required.') => new HttpProblem(401, 'unauthorized', detail),
  forbidden: (detail = 'You do not have permission to do this.') => new HttpProblem(403, 'forbidden', detail),
  notFound: (detail = 'Not found.') => new HttpProblem(404, 'not_found', detail),
  conflict: (detail: string, code = 'conflict') => new HttpProblem(409, code, detail),
  unavailable: (detail = 'The service is temporarily unavailable.') =>
    new HttpProblem(503, 'unavailable', detail),
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(problems.notFound(`No route for ${req.method} ${req.path}.`));
};

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** body-parser marks its client errors (bad JSON, too large, unsupported charset or encoding) with `expose`. */
function isBodyParserError(error: unknown): error is BodyParserError & Error {
  const candidate = error as BodyParserError;
  return error instanceof Error && typeof candidate.type === 'string' && candidate.expose === true;
}

/**
 * The last middleware of every app. Known problems keep their status and message; anything else is a 500 whose
 * body says nothing about the cause (the cause goes to the log, with the request id to find it).
 */
export const problemHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  let problem: HttpProblem;
  if (error instanceof HttpProblem) {
    problem = error;
  } else if (isBodyParserError(error) && error.type === 'entity.parse.failed') {
    problem = problems.badRequest('The request body is not valid JSON.');
  } else if (isBodyParserError(error) && error.status === 413) {
    problem = new HttpProblem(413, 'payload_too_large', 'The request body is too large.');
  } else if (
    isBodyParserError(error) &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500
  ) {
    problem = new HttpProblem(error.status, 'bad_request', 'The request body could not be read.');
  } else {
    req.log.error({ err: error }, 'unhandled error');
    problem = new HttpProblem(500, 'internal_error', 'An unexpected error occurred.');
  }
  res.status(problem.status).type(PROBLEM_CONTENT_TYPE).json(problem.toDocument(req.id));
};
