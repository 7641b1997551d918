/**
 * Every sentence the server sends for display has a stable code beside it (`{ result, code, params? }`): the
 * web app shows the code in the reader's language (its locale files, key `server.<code>`), and the server
 * writes `result` in the language of the request's Accept-Language (fr, en, de; English otherwise) for the
 * clients that show `result` as it is. A code never changes meaning; a new sentence gets a new code.
 */
import { z } from 'zod';

export const SERVER_MESSAGE_CODES = [
  // Successes
  'login_ok',
  'registered',
  'signed_out',
  'user_updated',
  'password_updated',
  'user_disconnected',
  'user_deleted',
  'photo_updated',
  'users_imported',
  'added_to_channels',
  'removed_from_channels',
  'channel_created',
  'channel_updated',
  'channel_deleted',
  'channels_imported',
  'user_added_to_channel',
  'user_removed_from_channel',
  'channel_members_updated',
  'user_channels_updated',
  'connected_to_channel',
  'microphone_on',
  'microphone_off',
  'activities_deleted',
  'message_sent',
  'message_deleted',
  'image_sent',
  'member_rights_updated',
  // Failures
  'invalid_credentials',
  'too_many_attempts',
  'token_missing',
  'session_expired',
  'token_invalid',
  'admin_only',
  'own_account_only',
  'own_password_only',
  'own_messages_only',
  'signup_closed',
  'login_taken',
  'cannot_delete_self',
  'photo_url_invalid',
  'channel_name_taken',
  'unknown_users',
  'unknown_channels',
  'not_channel_member',
  'user_not_channel_member',
  'socket_of_other_user',
  'user_not_found',
  'channel_not_found',
  'message_not_found',
  'file_not_found',
  'socket_not_found',
  'not_found',
  'call_not_found',
  'device_not_found',
  'image_invalid',
  'image_too_large',
  'image_single_file',
  'image_required',
  'image_field',
  'multipart_required',
  'multipart_fields',
  'field_not_allowed',
  'file_link_expired',
  'channel_no_longer_readable',
  'legacy_gone',
  'invalid_input',
  'invalid_json',
  'json_required',
  'request_too_large',
  'no_such_call',
  'sign_in_wait_account',
  'sign_in_wait_address',
  'too_many_messages',
  'too_many_uploads',
  'password_too_short',
  'password_too_common',
  'current_password_required',
  'current_password_wrong',
  'not_allowed',
  'own_role',
  'last_admin',
  'floor_busy',
  'listen_only',
  'bad_request',
  'server_error',
] as const;

export type ServerMessageCode = (typeof SERVER_MESSAGE_CODES)[number];
export const ServerMessageCodeSchema = z.enum(SERVER_MESSAGE_CODES);

/** Values a sentence is built from ('{{count}} added'), kept so that any language can rebuild it. */
export const ServerMessageParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type ServerMessageParams = z.output<typeof ServerMessageParamsSchema>;

/** The languages the server writes `result` in; the first is used when Accept-Language names none of them. */
export const SERVER_LANGUAGES = ['en', 'fr', 'de'] as const;
export type ServerLanguage = (typeof SERVER_LANGUAGES)[number];
