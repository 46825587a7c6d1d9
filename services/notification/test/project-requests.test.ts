// The project request's payload and validation (the spec's sendProjectRequest: name, email, company, message), as
// the site's drawer, the bff and the notification service all parse it (`@workspace/notification/project-requests`).
import { projectRequestEmail } from '../src/commands/project-requests.js';
import {
  PROJECT_REQUEST_LIMITS,
  PROJECT_REQUEST_MESSAGES,
  projectRequestBody,
  projectRequestFieldError,
  projectRequestFields,
} from '../src/http/project-requests.schemas.js';

describe('project request payload', () => {
  it('has the four fields name, email, company and message', () => {
    expect(Object.keys(projectRequestFields)).toEqual(['name', 'email', 'company', 'message']);
    expect(Object.keys(projectRequestBody.shape)).toEqual(['name', 'email', 'company', 'message']);
  });

  it('parses a full request, trimmed, and ignores unknown keys', () => {
    expect(
      projectRequestBody.parse({
        name: ' Dana ',
        email: ' dana@builders.test ',
        company: ' Builders Ltd ',
        message: ' Hello\nthere ',
        tenantId: 'demo',
      }),
    ).toEqual({
      name: 'Dana',
      email: 'dana@builders.test',
      company: 'Builders Ltd',
      message: 'Hello\nthere',
    });
  });

  it('takes company and message as optional (missing or empty)', () => {
    expect(projectRequestBody.parse({ name: 'Sam', email: 'sam@example.com' })).toEqual({
      name: 'Sam',
      email: 'sam@example.com',
      company: '',
      message: '',
    });
    expect(
      projectRequestBody.safeParse({ name: 'Sam', email: 'sam@example.com', company: '', message: '' })
        .success,
    ).toBe(true);
  });
});

describe('project request validation', () => {
  it('requires a name', () => {
    expect(projectRequestFieldError('name', '')).toBe(PROJECT_REQUEST_MESSAGES.nameRequired);
    expect(projectRequestFieldError('name', '   ')).toBe('Please enter your name');
    expect(projectRequestFieldError('name', undefined)).toBe('Please enter your name');
    expect(projectRequestFieldError('name', 'Dana')).toBeUndefined();
  });

  it('requires an email and checks its format', () => {
    expect(projectRequestFieldError('email', '')).toBe('Please enter your email');
    expect(projectRequestFieldError('email', undefined)).toBe('Please enter your email');
    for (const bad of ['a@', 'a@b', '@example.com', 'dana builders@example.com', 'dana@@example.com']) {
      expect(projectRequestFieldError('email', bad)).toBe(
        'Please enter a valid email address, e.g. name@example.com',
      );
    }
    expect(projectRequestFieldError('email', 'dana@builders.co.uk')).toBeUndefined();
  });

  it('keeps name and company to one line and every field within its length', () => {
    expect(projectRequestFieldError('name', 'Eve\nBcc: x@example.com')).toBe('Must be a single line');
    expect(projectRequestFieldError('company', 'A\r\nB')).toBe('Must be a single line');
    expect(projectRequestFieldError('message', 'several\nlines')).toBeUndefined();
    expect(projectRequestFieldError('name', 'x'.repeat(PROJECT_REQUEST_LIMITS.name + 1))).toBe(
      'Must be at most 200 characters',
    );
    expect(projectRequestFieldError('message', 'x'.repeat(PROJECT_REQUEST_LIMITS.message + 1))).toBe(
      'Must be at most 5000 characters',
    );
  });

  it('refuses a tax reference or a National Insurance number in any free text', () => {
    const refused = 'Must not contain a tax reference (10-digit number) or a National Insurance number';
    expect(projectRequestFieldError('message', 'My UTR is 1234567890')).toBe(refused);
    expect(projectRequestFieldError('message', 'NI: AB 12 34 56 C')).toBe(refused);
    expect(projectRequestFieldError('company', 'Builders 12345 67890')).toBe(refused);
    expect(projectRequestFieldError('name', 'AB123456C')).toBe(refused);
    expect(projectRequestFieldError('message', 'Call me on 07700 900123')).toBeUndefined();
  });
});

describe('the e-mail to the sales inbox', () => {
  it('carries every field of the request and its id, as plain text', () => {
    const request = projectRequestBody.parse({
      name: 'Dana',
      email: 'dana@builders.test',
      company: 'Builders Ltd',
      message: '<b>40</b> subcontractors',
    });
    const email = projectRequestEmail(request, 'r-1');
    expect(email.subject).toBe('Project request from Dana (Builders Ltd)');
    expect(email.text).toContain('Name: Dana');
    expect(email.text).toContain('Email: dana@builders.test');
    expect(email.text).toContain('Company: Builders Ltd');
    expect(email.text).toContain('<b>40</b> subcontractors');
    expect(email.text).toContain('Request id: r-1');
  });

  it('says what was left out', () => {
    const email = projectRequestEmail(
      projectRequestBody.parse({ name: 'Sam', email: 'sam@example.com' }),
      'r-2',
    );
    expect(email.subject).toBe('Project request from Sam');
    expect(email.text).toContain('Company: (not given)');
    expect(email.text).toContain('Message:\n(none)');
  });
});
