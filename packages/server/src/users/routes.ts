/** Accounts and users: the calls of spec section 7 that sign in, sign up and manage team members. */
import {
  CreateMultipleUsers,
  DeleteUser,
  DeleteUserTokens,
  GetAllUsers,
  GetImportJob,
  GetListUsersToExport,
  GetSignUpState,
  GetUserById,
  GetUserIds,
  GetUsersPage,
  IsValidToken,
  Login,
  Logout,
  may,
  RemoveUserChannels,
  type Role,
  SetUserDisabled,
  SignUpUser,
  UpdatePasswordUser,
  UpdateUserChannelsByChannelName,
  UpdateUserData,
  UploadUserPhoto,
  VerifyPassword,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { requireConfirmed } from '../auth/confirmation.ts';
import type { CounterStore } from '../auth/counter-store.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../auth/passwords.ts';
import { callLimiter, SIGN_UP_LIMIT } from '../auth/rate-limit.ts';
import { type SecondFactors, secondFactorSignIn } from '../auth/second-factor.ts';
import { sessionUserOf } from '../auth/sessions.ts';
import type { SignInLimits } from '../auth/sign-in-limits.ts';
import type { Config } from '../config/config.ts';
import { badRequest, conflict, forbidden, HttpError, notFound, unauthorized } from '../http/errors.ts';
import { sendList } from '../http/lists.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, requireSelfOr, type TokenOwner, tokenOf } from '../http/route.ts';
import type { ListChangeLog } from '../lists/change-log.ts';
import { liveList } from '../lists/live-list.ts';
import { type ImportServices, importUsers } from './import.ts';
import { type ImportJobServices, importJobs } from './import-jobs.ts';
import type { UserPaging } from './paging.ts';
import { usersListSource } from './users-list.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface UserRoutesServices extends ImportJobServices, ImportServices {
  config: Config;
  userPages: UserPaging;
  /** The limits' counters (public sign-ups per address). */
  counters: CounterStore;
  listChanges: ListChangeLog;
  secondFactors: SecondFactors;
  signInLimits: SignInLimits;
  /** Also a user's channels set at once (channels/membership.ts). */
  memberships: ImportServices['memberships'] & {
    setChannelsOfUser(userId: number, channelIds: number[]): Promise<void>;
  };
  /** A deleted user's voice messages go with it, when asked (voice/store.ts). */
  voice: { removeOfUser(userId: number): Promise<number> };
}

export function userRoutes(app: FastifyInstance, services: UserRoutesServices): void {
  const { users, sessions, activities, memberships, events, config } = services;
  const route = defineRoutes(app, sessions);
  const secondFactors = secondFactorSignIn(services);

  /** A new password ends the user's other sessions: a changer keeps its own, anyone else's all end. */
  async function endSessionsAfterNewPassword(auth: TokenOwner, userId: number) {
    if (auth.userId === userId) await sessions.revokeOthers(userId, auth.sessionId);
    else await sessions.revokeAll(userId);
    events.emit('sessionsEnded', {
      userId,
      reason: 'password',
      ...(auth.userId === userId ? { exceptSessionId: auth.sessionId } : {}),
    });
  }

  /** One's own new password needs the current one (a stolen session alone cannot take the account). */
  async function requireCurrentPassword(hash: string, current: string | undefined, userId: number, address: string) {
    if (!current) throw badRequest('current_password_required');
    const account = `#verify:${userId}`;
    await services.signInLimits.attempt(account, address);
    if (!(await verifyPassword(current, hash))) throw badRequest('current_password_wrong');
    await services.signInLimits.succeeded(account, address);
  }

  route(Login, async ({ body, req }) => {
    const identifier = body.user_email.trim().toLowerCase();
    // Counted before the password is checked (a burst gets no more checks than a sequence; auth/sign-in-limits.ts).
    await services.signInLimits.attempt(identifier, req.ip);
    const row = await users.rowByIdentifier(identifier);
    // Same work and same answer for an unknown login and a wrong password.
    const valid = await verifyPassword(body.user_password, row?.password_hash ?? (await dummyHash()));
    // OIDC_ONLY: the provider signs everyone in; an administrator's password stays the way in when it is down.
    // Any other account's right password is answered as a wrong one (the answer must not confirm it).
    const passwordsOff = config.oidc?.only === true && row?.role !== 'admin';
    // A SIP gateway's account never signs in (issue 51), even if someone gave it a password.
    if (!row || !valid || passwordsOff || row.gateway === 1) throw unauthorized('invalid_credentials');
    await services.signInLimits.succeeded(identifier, req.ip);
    // Said only to whoever knows the password: a disabled account is not told apart from a wrong one before.
    if (row.disabled_at) throw forbidden('account_disabled');
    // A hash made with older scrypt figures is replaced now that the password is known.
    if (needsRehash(row.password_hash)) await users.setPasswordHash(row.id, await hashPassword(body.user_password));
    // Issue 38: an account with TOTP needs its code too (or a recovery code), limited like the password.
    await secondFactors.checkAtSignIn(row.id, row.role, body.otp, req.ip);
    const setupRequired = await secondFactors.setupRequiredAtSignIn(row.id, row.role);
    const authToken = await sessions.create(row.id, {
      method: 'password',
      userAgent: req.headers['user-agent'],
      address: req.ip,
      ...(setupRequired ? { secondFactorPending: true } : {}),
    });
    await activities.record('login', { userId: row.id });
    return {
      success: true,
      ...said('login_ok'),
      user: { ...sessionUserOf(row), authToken },
      ...(setupRequired ? { secondFactorSetupRequired: true } : {}),
    };
  });

  route(IsValidToken, async ({ body, req }) => {
    const owner = await sessions.resolve(body.token || tokenOf(req));
    if (!owner) throw unauthorized('token_invalid');
    const row = await users.row(owner.userId);
    if (!row) throw unauthorized('token_invalid');
    return {
      success: true,
      user: sessionUserOf(row),
      ...(owner.secondFactorPending ? { secondFactorSetupRequired: true } : {}),
    };
  });

  const signUpLimit = callLimiter(services.counters, 'sign-up', SIGN_UP_LIMIT);
  route(SignUpUser, async ({ body, auth, req }) => {
    let role: Role;
    if (auth && may(auth, null, 'users.manage')) role = body.role ?? 'member';
    else if ((await users.count()) === 0) role = 'admin';
    else if (!config.allowSignup) throw forbidden('signup_closed');
    // Public sign-up never makes a privileged account (issue 47), and one address makes a bounded number.
    else if ((body.role !== undefined && body.role !== 'member') || (body.talkPriority ?? null) !== null)
      throw forbidden('not_allowed');
    else {
      await signUpLimit(req.ip);
      role = 'member';
    }
    if (await users.rowByIdentifier(body.email)) throw conflict('login_taken');
    services.passwordPolicy.check(body.password);
    const id = await users.create({
      firstName: body.firstName,
      lastName: body.lastName,
      identifier: body.email,
      pseudo: body.pseudo,
      phoneNumber: body.phone_number,
      password: body.password,
      mapRight: body.mapRight ?? false,
      role,
      // Public sign-up cannot set one (refused above): the role's default.
      talkPriority: body.talkPriority ?? null,
    });
    events.emit('usersChanged', {});
    const user = await users.one(id);
    if (!user) throw notFound('user_not_found');
    return { success: true, ...said('registered'), user };
  });

  route(GetSignUpState, async () => ({
    success: true,
    open: config.allowSignup || (await users.count()) === 0,
  }));

  route(Logout, async ({ auth }) => {
    await sessions.revoke(auth.sessionId);
    events.emit('sessionsEnded', { userId: auth.userId, sessionId: auth.sessionId, reason: 'logout' });
    await activities.record('logout', { userId: auth.userId });
    return { success: true, ...said('signed_out') };
  });

  route(GetUserById, async ({ body, auth }) => {
    requireSelfOr(auth, body.userId, 'users.manage');
    const user = await users.one(body.userId);
    if (!user) throw notFound('user_not_found');
    return { success: true, res: user };
  });

  // The whole list, kept up to date user by user; ETag / 304, compressed when asked (http/lists.ts).
  const allUsers = liveList(services.listChanges, usersListSource(users));
  route(GetAllUsers, async ({ req, reply }) => sendList(req, reply, await allUsers.current()) as never);

  // Issue 18: the list a page at a time, for organisations too large to load whole.
  const paging = services.userPages;
  route(GetUsersPage, async ({ body }) => ({ success: true, res: await paging.page(body) }));
  route(GetUserIds, async ({ body }) => ({
    success: true,
    res: await paging.ids(body.search, body.channelId, body.statusId, body.role),
  }));

  route(GetListUsersToExport, async () => ({ success: true, res: await users.exportRows() }));

  route(UpdateUserData, async ({ body, auth, req }) => {
    const current = await users.row(body.id);
    if (!current) throw notFound('user_not_found');
    const identifier = body.email?.trim().toLowerCase();
    // One's own email is one's login (and where a provider's identity is matched): a session that did not prove
    // it is its owner within 5 minutes changes it only after "confirm it's you" (issue 47).
    if (identifier && identifier !== current.identifier && auth.userId === body.id) requireConfirmed(auth);
    if (identifier && identifier !== current.identifier && (await users.rowByIdentifier(identifier))) {
      throw conflict('login_taken');
    }
    const newRole = body.role !== undefined && body.role !== current.role ? body.role : undefined;
    if (newRole !== undefined) {
      if (current.role === 'admin' && (await users.countWithRole('admin')) <= 1) throw conflict('last_admin');
      if (auth.userId === body.id) throw forbidden('own_role');
    }
    if (body.password?.trim()) {
      services.passwordPolicy.check(body.password);
      if (auth.userId === body.id)
        await requireCurrentPassword(current.password_hash, body.currentPassword, auth.userId, req.ip);
    }
    // Checked again where it is written: two administrators demoting each other at once leave one.
    if (newRole !== undefined && !(await users.changeRole(body.id, newRole))) throw conflict('last_admin');
    await users.update(body.id, {
      firstName: body.firstName,
      lastName: body.lastName,
      identifier: identifier || undefined,
      pseudo: body.pseudo,
      phoneNumber: body.phone_number,
      password: body.password?.trim() ? body.password : undefined,
      mapRight: body.mapRight,
      talkPriority: body.talkPriority,
    });
    if (body.password?.trim()) await endSessionsAfterNewPassword(auth, body.id);
    // What the user's open sockets may do follows at once (realtime/room-guard.ts).
    const mapRightChanged = body.mapRight !== undefined && body.mapRight !== (current.map_right === 1);
    // A talk priority is read with the rights: the next press of its sockets claims the floor with it.
    const priorityChanged = body.talkPriority !== undefined && body.talkPriority !== current.talk_priority;
    if (newRole !== undefined || mapRightChanged || priorityChanged)
      events.emit('rightsChanged', { userIds: [body.id] });
    events.emit('usersChanged', {});
    const user = await users.one(body.id);
    if (!user) throw notFound('user_not_found');
    return { success: true, ...said('user_updated'), res: user };
  });

  route(UpdatePasswordUser, async ({ body, auth, req }) => {
    requireSelfOr(auth, body.id, 'users.manage');
    const row = await users.row(body.id);
    if (!row) throw notFound('user_not_found');
    services.passwordPolicy.check(body.password);
    if (auth.userId === body.id)
      await requireCurrentPassword(row.password_hash, body.currentPassword, auth.userId, req.ip);
    await users.update(body.id, { password: body.password });
    await endSessionsAfterNewPassword(auth, body.id);
    return { success: true, ...said('password_updated') };
  });

  route(VerifyPassword, async ({ body, auth, req }) => {
    if (auth.userId !== body.id) throw forbidden('own_password_only');
    // Guessing through a stolen session is limited like a sign-in.
    const account = `#verify:${auth.userId}`;
    await services.signInLimits.attempt(account, req.ip);
    const row = await users.row(body.id);
    const valid = row ? await verifyPassword(body.password, row.password_hash) : false;
    if (valid) await services.signInLimits.succeeded(account, req.ip);
    return { success: true, result: valid };
  });

  route(DeleteUserTokens, async ({ body, auth }) => {
    requireSelfOr(auth, body.userId, 'users.manage');
    if (!(await users.row(body.userId))) throw notFound('user_not_found');
    await sessions.revokeAll(body.userId);
    events.emit('sessionsEnded', { userId: body.userId, reason: 'revoked' });
    return { success: true, ...said('user_disconnected') };
  });

  route(SetUserDisabled, async ({ body, auth }) => {
    if (body.disabled && body.userId === auth.userId) throw conflict('cannot_disable_self');
    if (!(await users.setDisabled(body.userId, body.disabled))) throw notFound('user_not_found');
    await services.listChanges.userChanged(body.userId);
    if (body.disabled) {
      // Its sessions end now, with their sockets and push subscriptions, on every instance.
      await sessions.revokeAll(body.userId);
      events.emit('sessionsEnded', { userId: body.userId, reason: 'disabled' });
    }
    events.emit('usersChanged', {});
    return { success: true, ...said(body.disabled ? 'user_disabled' : 'user_enabled') };
  });

  route(DeleteUser, async ({ body, auth }) => {
    if (body.UserId === auth.userId) throw conflict('cannot_delete_self');
    const target = await users.row(body.UserId);
    if (target?.role === 'admin' && (await users.countWithRole('admin')) <= 1) throw conflict('last_admin');
    events.emit('sessionsEnded', { userId: body.UserId, reason: 'deleted' });
    // Asked before the account goes: afterwards its transmissions no longer name it (user_id becomes null).
    if (body.deleteVoiceMessages && target) await services.voice.removeOfUser(body.UserId);
    if (!(await users.remove(body.UserId))) throw notFound('user_not_found');
    events.emit('userDeleted', { userId: body.UserId });
    return { success: true, ...said('user_deleted') };
  });

  route(UploadUserPhoto, async ({ body, auth }) => {
    requireSelfOr(auth, body.userId, 'users.manage');
    // https, or a path of this server (not //host: that is another site over the page's scheme).
    if (!/^(https:\/\/[^\s/?#]+|\/(?![/\\]))\S*$/i.test(body.photo_url)) throw new HttpError(400, 'photo_url_invalid');
    if (!(await users.row(body.userId))) throw notFound('user_not_found');
    await users.setPhoto(body.userId, body.photo_url);
    return { success: true, ...said('photo_updated') };
  });

  // Issue 29: an import of more than IMPORT_JOB_ABOVE rows is a job (users/import-jobs.ts); a restart takes up
  // the jobs it left.
  const jobs = importJobs(services, {
    instanceId: config.instanceId,
    batch: config.importJobBatch,
    onError: (error, jobId) => app.log.error({ err: error, jobId }, 'an import job failed'),
  });
  app.addHook('onClose', async () => jobs.stop());

  route(CreateMultipleUsers, async ({ body, auth }) => {
    const options = { mode: body.mode, createChannels: body.createChannels, actorId: auth.userId };
    if (body.userData.length > config.importJobAbove) {
      const job = await jobs.enqueue(body.userData, options);
      return {
        success: true,
        ...said('import_started', { total: job.total }),
        createdUsers: job.report,
        jobId: job.jobId,
        state: job.state,
        total: job.total,
        done: job.done,
      };
    }
    const report = await importUsers(services, body.userData, options);
    if (report.added.length > 0 || report.updated.length > 0) events.emit('usersChanged', {});
    return {
      success: true,
      ...said('users_imported', {
        added: report.added.length,
        alreadyExisting: report.alreadyExisting.length,
        notAdded: report.notAdded.length,
      }),
      createdUsers: report,
    };
  });

  route(GetImportJob, async ({ body }) => {
    const job = await jobs.view(body.jobId);
    if (!job) throw notFound('import_job_not_found');
    return { success: true, res: job, ...job };
  });

  route(UpdateUserChannelsByChannelName, async ({ body }) => {
    const user = await users.rowByIdentifier(body.userIdentifier);
    if (!user) throw notFound('user_not_found');
    const names = Array.isArray(body.channelNames)
      ? body.channelNames.map((n) => n.trim())
      : body.channelNames.split(';');
    const ids = await memberships.channelIdsByNames(names.map((n) => n.trim()).filter(Boolean));
    await memberships.addUserToChannels(user.id, [...ids.values()]);
    events.emit('membershipChanged', { userIds: [user.id] });
    return { success: true, ...said('added_to_channels', { count: ids.size }) };
  });

  route(RemoveUserChannels, async ({ body }) => {
    const user = await users.rowByIdentifier(body.userIdentifier);
    if (!user) throw notFound('user_not_found');
    await memberships.setChannelsOfUser(user.id, []);
    events.emit('membershipChanged', { userIds: [user.id] });
    return { success: true, ...said('removed_from_channels') };
  });
}
