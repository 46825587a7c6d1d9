import { ApiRouter, HttpProblem, problems } from '@workspace/kit';
import type { Response } from 'express';
import { avatarSubjects, type Avatar, type AvatarCache } from '../commands/avatars.js';
import type { IdentityContext } from '../context.js';
import { avatarParams, warmBody, warmedView } from './avatars.schemas.js';

/** Sends the avatar's bytes, or 304 when the browser's copy (If-None-Match) is this version. */
function sendAvatar(avatar: Avatar, ifNoneMatch: string | undefined, res: Response): void {
  const etag = `"${avatar.etag}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, max-age=3600');
  if (ifNoneMatch === etag) {
    res.status(304).end();
    return;
  }
  res.type(avatar.contentType).send(avatar.image);
}

/** GET /v1/users/:uid/avatar (the webp bytes) and POST /v1/users/avatars/warm (fetch a list's avatars ahead). */
export function avatarsRoutes(context: IdentityContext, avatars: AvatarCache): ApiRouter {
  const avatarOf = async (tenantId: string, uid: string): Promise<Avatar> => {
    const [subject] = await avatarSubjects(context, tenantId, [uid]);
    if (!subject) throw problems.notFound('User not found.');
    let avatar: Avatar | undefined;
    try {
      avatar = await avatars.avatar(subject);
    } catch (error) {
      context.logger.warn({ err: error, uid: subject.uid }, 'avatar could not be made');
      throw new HttpProblem(502, 'avatar_unavailable', 'The profile photo could not be fetched.');
    }
    if (!avatar) throw problems.notFound('This user has no profile photo.');
    return avatar;
  };
  return new ApiRouter()
    .route({
      method: 'get',
      path: '/users/:uid/avatar',
      summary: 'A user’s avatar: their profile photo at most 128 px, webp (cached 7 days)',
      request: { params: avatarParams },
      responses: {
        200: { description: 'image/webp' },
        404: { description: 'No such user, or no profile photo' },
        502: { description: 'The profile photo could not be fetched or read' },
      },
      handler: async ({ ctx, params, req, res }) => {
        sendAvatar(await avatarOf(ctx.tenantId, params.uid), req.headers['if-none-match'], res);
      },
    })
    .route({
      method: 'post',
      path: '/users/avatars/warm',
      summary: 'Fetch the avatars of a list of users ahead of showing them (5 at a time)',
      request: { body: warmBody },
      responses: { 200: { description: 'How many are ready; users whose photo failed', schema: warmedView } },
      handler: async ({ ctx, body }) => avatars.warm(await avatarSubjects(context, ctx.tenantId, body.uids)),
    });
}
