/**
 * The server's sentences, by code (packages/protocol/src/server-messages.ts) and language: English keeps the
 * spec's sentences where section 8 gives them. Read through messages.ts. One file per domain, each the same
 * shape (a `<DOMAIN>_TEXTS` object of code -> { en, fr, de }), spread here into the one catalogue whose type
 * asks a text of every code: signing in in server-texts-sign-in.ts; voice, calls, dispatch and geofences in
 * server-texts-voice.ts; Web Push (and its notifications) in server-texts-push.ts; SIP gateways in
 * server-texts-gateways.ts; live video in server-texts-video.ts; the rest below.
 */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';
import { ALIAS_TEXTS } from './server-texts-aliases.ts';
import { DEVICE_TEXTS } from './server-texts-devices.ts';
import { DISPATCH_TEXTS } from './server-texts-dispatch.ts';
import { GATEWAY_TEXTS } from './server-texts-gateways.ts';
import { PUSH_TEXTS } from './server-texts-push.ts';
import { REGROUP_TEXTS } from './server-texts-regroups.ts';
import { SIGN_IN_TEXTS } from './server-texts-sign-in.ts';
import { VIDEO_TEXTS } from './server-texts-video.ts';
import { VOICE_TEXTS } from './server-texts-voice.ts';

type Texts = Record<ServerLanguage, string>;

export const SERVER_TEXTS: Record<ServerMessageCode, Texts> = {
  ...SIGN_IN_TEXTS,
  ...DEVICE_TEXTS,
  ...VOICE_TEXTS,
  ...PUSH_TEXTS,
  ...DISPATCH_TEXTS,
  ...GATEWAY_TEXTS,
  ...ALIAS_TEXTS,
  ...REGROUP_TEXTS,
  ...VIDEO_TEXTS,
  registered: { en: 'Register successfully', fr: 'Inscription réussie', de: 'Registrierung erfolgreich' },
  user_updated: {
    en: 'User updated successfully',
    fr: 'Coéquipier modifié avec succès',
    de: 'Benutzer erfolgreich aktualisiert',
  },
  password_updated: {
    en: 'Password updated successfully',
    fr: 'Mot de passe modifié avec succès',
    de: 'Passwort erfolgreich geändert',
  },
  user_disconnected: {
    en: 'User disconnected from all devices successfully',
    fr: 'Coéquipier déconnecté de tous les appareils',
    de: 'Benutzer von allen Geräten abgemeldet',
  },
  user_deleted: {
    en: 'the User has been deleted',
    fr: 'Le coéquipier a été supprimé',
    de: 'Der Benutzer wurde gelöscht',
  },
  user_disabled: {
    en: 'Account disabled: its sessions are ended and it can no longer sign in.',
    fr: 'Compte désactivé : ses sessions sont fermées et il ne peut plus se connecter.',
    de: 'Konto deaktiviert: Seine Sitzungen sind beendet und es kann sich nicht mehr anmelden.',
  },
  user_enabled: {
    en: 'Account enabled: it can sign in again.',
    fr: 'Compte réactivé : il peut de nouveau se connecter.',
    de: 'Konto reaktiviert: Es kann sich wieder anmelden.',
  },
  photo_updated: { en: 'Photo updated', fr: 'Photo mise à jour', de: 'Foto aktualisiert' },
  users_imported: {
    en: '{{added}} added, {{alreadyExisting}} already existing, {{notAdded}} not added',
    fr: '{{added}} ajoutés, {{alreadyExisting}} déjà existants, {{notAdded}} non ajoutés',
    de: '{{added}} hinzugefügt, {{alreadyExisting}} bereits vorhanden, {{notAdded}} nicht hinzugefügt',
  },
  import_started: {
    en: 'Import of {{total}} rows started: it goes on in the background',
    fr: 'Import de {{total}} lignes lancé : il se poursuit en arrière-plan',
    de: 'Import von {{total}} Zeilen gestartet: er läuft im Hintergrund weiter',
  },
  added_to_channels: {
    en: 'Added to {{count}} channel(s)',
    fr: 'Ajouté à {{count}} canal(aux)',
    de: 'Zu {{count}} Kanal/Kanälen hinzugefügt',
  },
  removed_from_channels: {
    en: 'Removed from every channel',
    fr: 'Retiré de tous les canaux',
    de: 'Aus allen Kanälen entfernt',
  },
  channel_created: {
    en: 'Channel created successfully',
    fr: 'Canal créé avec succès',
    de: 'Kanal erfolgreich erstellt',
  },
  channel_updated: {
    en: 'Channel updated successfully',
    fr: 'Canal modifié avec succès',
    de: 'Kanal erfolgreich aktualisiert',
  },
  channel_deleted: { en: 'Channel has been deleted', fr: 'Le canal a été supprimé', de: 'Der Kanal wurde gelöscht' },
  channels_imported: {
    en: '{{added}} added, {{alreadyExisting}} already existing, {{notAdded}} not added',
    fr: '{{added}} ajoutés, {{alreadyExisting}} déjà existants, {{notAdded}} non ajoutés',
    de: '{{added}} hinzugefügt, {{alreadyExisting}} bereits vorhanden, {{notAdded}} nicht hinzugefügt',
  },
  user_added_to_channel: {
    en: 'User Added To Channel',
    fr: 'Coéquipier ajouté au canal',
    de: 'Benutzer zum Kanal hinzugefügt',
  },
  user_removed_from_channel: {
    en: 'User Deleted from Channel',
    fr: 'Coéquipier retiré du canal',
    de: 'Benutzer aus dem Kanal entfernt',
  },
  channel_members_updated: {
    en: 'Channel members updated',
    fr: 'Membres du canal mis à jour',
    de: 'Kanalmitglieder aktualisiert',
  },
  user_channels_updated: {
    en: 'User channels updated',
    fr: 'Canaux du coéquipier mis à jour',
    de: 'Kanäle des Benutzers aktualisiert',
  },
  activities_deleted: {
    en: 'Activities were deleted successfully.',
    fr: 'Les activités ont été supprimées.',
    de: 'Die Aktivitäten wurden gelöscht.',
  },
  message_sent: { en: 'Message sent', fr: 'Message envoyé', de: 'Nachricht gesendet' },
  message_deleted: { en: 'Message deleted', fr: 'Message supprimé', de: 'Nachricht gelöscht' },
  image_sent: { en: 'Image sent', fr: 'Image envoyée', de: 'Bild gesendet' },
  member_rights_updated: {
    en: 'Member rights updated',
    fr: 'Droits du membre mis à jour',
    de: 'Mitgliedsrechte aktualisiert',
  },
  not_allowed: {
    en: 'Your role does not allow this.',
    fr: 'Votre rôle ne le permet pas.',
    de: 'Ihre Rolle erlaubt das nicht.',
  },
  own_role: {
    en: 'Nobody may change their own role.',
    fr: 'Personne ne peut changer son propre rôle.',
    de: 'Niemand darf die eigene Rolle ändern.',
  },
  cannot_disable_self: {
    en: 'You cannot disable your own account.',
    fr: 'Vous ne pouvez pas désactiver votre propre compte.',
    de: 'Sie können Ihr eigenes Konto nicht deaktivieren.',
  },
  last_admin: {
    en: 'This is the last administrator: make another user an administrator first.',
    fr: "C'est le dernier administrateur : nommez d'abord un autre administrateur.",
    de: 'Das ist der letzte Administrator: ernennen Sie zuerst einen anderen Administrator.',
  },
  admin_only: {
    en: 'Only an administrator may do this.',
    fr: 'Seul un administrateur peut faire cela.',
    de: 'Nur ein Administrator darf das tun.',
  },
  own_account_only: {
    en: 'You may only do this for your own account.',
    fr: 'Vous ne pouvez faire cela que pour votre propre compte.',
    de: 'Sie dürfen das nur für Ihr eigenes Konto tun.',
  },
  own_password_only: {
    en: 'You may only verify your own password.',
    fr: 'Vous ne pouvez vérifier que votre propre mot de passe.',
    de: 'Sie dürfen nur Ihr eigenes Passwort prüfen.',
  },
  own_messages_only: {
    en: 'You may only delete your own messages.',
    fr: 'Vous ne pouvez supprimer que vos propres messages.',
    de: 'Sie dürfen nur Ihre eigenen Nachrichten löschen.',
  },
  login_taken: {
    en: 'A user with this login already exists.',
    fr: 'Un coéquipier avec cet identifiant existe déjà.',
    de: 'Ein Benutzer mit diesem Benutzernamen existiert bereits.',
  },
  cannot_delete_self: {
    en: 'You cannot delete your own account.',
    fr: 'Vous ne pouvez pas supprimer votre propre compte.',
    de: 'Sie können Ihr eigenes Konto nicht löschen.',
  },
  photo_url_invalid: {
    en: 'photo_url: must be an https URL or a path of this server',
    fr: 'photo_url : doit être une adresse https ou un chemin de ce serveur',
    de: 'photo_url: muss eine https-Adresse oder ein Pfad dieses Servers sein',
  },
  channel_name_taken: {
    en: 'Channel name already exists',
    fr: 'Ce nom de canal existe déjà',
    de: 'Dieser Kanalname existiert bereits',
  },
  unknown_users: {
    en: 'userList: no user with id {{ids}}',
    fr: 'userList : aucun coéquipier avec l’identifiant {{ids}}',
    de: 'userList: kein Benutzer mit der ID {{ids}}',
  },
  unknown_channels: {
    en: 'channelList: no channel with id {{ids}}',
    fr: 'channelList : aucun canal avec l’identifiant {{ids}}',
    de: 'channelList: kein Kanal mit der ID {{ids}}',
  },
  not_channel_member: {
    en: 'You are not a member of this channel.',
    fr: 'Vous n’êtes pas membre de ce canal.',
    de: 'Sie sind kein Mitglied dieses Kanals.',
  },
  user_not_channel_member: {
    en: 'This user is not a member of this channel.',
    fr: 'Ce coéquipier n’est pas membre de ce canal.',
    de: 'Dieser Benutzer ist kein Mitglied dieses Kanals.',
  },
  socket_of_other_user: {
    en: 'This socket belongs to another user.',
    fr: 'Cette connexion appartient à un autre coéquipier.',
    de: 'Diese Verbindung gehört einem anderen Benutzer.',
  },
  user_not_found: { en: 'User not found.', fr: 'Coéquipier introuvable.', de: 'Benutzer nicht gefunden.' },
  channel_not_found: { en: 'Channel not found.', fr: 'Canal introuvable.', de: 'Kanal nicht gefunden.' },
  message_not_found: { en: 'Message not found.', fr: 'Message introuvable.', de: 'Nachricht nicht gefunden.' },
  file_not_found: { en: 'File not found.', fr: 'Fichier introuvable.', de: 'Datei nicht gefunden.' },
  socket_not_found: {
    en: 'Socket (connect to the real-time server first) not found.',
    fr: 'Connexion introuvable (connectez-vous d’abord au serveur temps réel).',
    de: 'Verbindung nicht gefunden (verbinden Sie sich zuerst mit dem Echtzeitserver).',
  },
  not_found: { en: '{{what}} not found.', fr: 'Introuvable : {{what}}.', de: 'Nicht gefunden: {{what}}.' },
  device_not_found: { en: 'Device not found.', fr: 'Appareil introuvable.', de: 'Gerät nicht gefunden.' },
  import_job_not_found: { en: 'Import not found.', fr: 'Import introuvable.', de: 'Import nicht gefunden.' },
  image_invalid: {
    en: 'Please enter a valid image file.',
    fr: 'Veuillez choisir un fichier image valide.',
    de: 'Bitte wählen Sie eine gültige Bilddatei.',
  },
  image_too_large: {
    en: 'The image is larger than {{max}}: choose an image of at most {{max}}.',
    fr: 'L’image dépasse {{max}} : choisissez une image de {{max}} au plus.',
    de: 'Das Bild ist größer als {{max}}: Wählen Sie ein Bild von höchstens {{max}}.',
  },
  image_single_file: {
    en: 'image: send a single file.',
    fr: 'image : envoyez un seul fichier.',
    de: 'image: Senden Sie eine einzige Datei.',
  },
  image_required: {
    en: 'image: an image file is required.',
    fr: 'image : un fichier image est requis.',
    de: 'image: Eine Bilddatei ist erforderlich.',
  },
  image_field: {
    en: '{{field}}: send the image in the field "image".',
    fr: '{{field}} : envoyez l’image dans le champ « image ».',
    de: '{{field}}: Senden Sie das Bild im Feld „image“.',
  },
  multipart_required: {
    en: 'Send the image as multipart/form-data with the fields image, userId, channelId and textMsg.',
    fr: 'Envoyez l’image en multipart/form-data avec les champs image, userId, channelId et textMsg.',
    de: 'Senden Sie das Bild als multipart/form-data mit den Feldern image, userId, channelId und textMsg.',
  },
  multipart_fields: {
    en: 'Send only the fields image, userId, channelId and textMsg.',
    fr: 'N’envoyez que les champs image, userId, channelId et textMsg.',
    de: 'Senden Sie nur die Felder image, userId, channelId und textMsg.',
  },
  field_not_allowed: {
    en: 'A field name is not allowed.',
    fr: 'Un nom de champ n’est pas autorisé.',
    de: 'Ein Feldname ist nicht erlaubt.',
  },
  file_link_expired: {
    en: 'This file link is invalid or has expired: reload the messages to get a new one.',
    fr: 'Ce lien de fichier est invalide ou a expiré : rechargez les messages pour en obtenir un nouveau.',
    de: 'Dieser Dateilink ist ungültig oder abgelaufen: Laden Sie die Nachrichten neu.',
  },
  channel_no_longer_readable: {
    en: 'You may no longer read this channel.',
    fr: 'Vous ne pouvez plus lire ce canal.',
    de: 'Sie dürfen diesen Kanal nicht mehr lesen.',
  },
  legacy_gone: {
    en: 'Friends and invitations are not part of Talkgroup: this call is no longer served. Use channels instead.',
    fr: 'Les amis et les invitations ne font pas partie de Talkgroup : cet appel n’est plus servi. Utilisez les canaux.',
    de: 'Freunde und Einladungen gehören nicht zu Talkgroup: Dieser Aufruf wird nicht mehr bedient. Nutzen Sie Kanäle.',
  },
  no_such_call: {
    en: 'No such call: {{method}} {{path}}',
    fr: 'Appel inconnu : {{method}} {{path}}',
    de: 'Unbekannter Aufruf: {{method}} {{path}}',
  },
  invalid_input: { en: '{{details}}', fr: 'Saisie invalide : {{details}}', de: 'Ungültige Eingabe: {{details}}' },
  invalid_json: {
    en: 'The body is not valid JSON.',
    fr: 'Le corps de la requête n’est pas du JSON valide.',
    de: 'Der Inhalt ist kein gültiges JSON.',
  },
  json_required: {
    en: 'Send the body as application/json.',
    fr: 'Envoyez le corps en application/json.',
    de: 'Senden Sie den Inhalt als application/json.',
  },
  request_too_large: {
    en: 'The request is too large.',
    fr: 'La requête est trop volumineuse.',
    de: 'Die Anfrage ist zu groß.',
  },
  too_many_messages: {
    en: 'Too many messages: wait {{seconds}} seconds and try again.',
    fr: 'Trop de messages : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele Nachrichten: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  too_many_uploads: {
    en: 'Too many uploads: wait {{seconds}} seconds and try again.',
    fr: 'Trop d’envois de fichiers : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele Uploads: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  too_many_passkey_sign_ins: {
    en: 'Too many passkey sign-ins started from your address: wait {{seconds}} seconds and try again.',
    fr: 'Trop de connexions par clé d’accès lancées depuis votre adresse : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele Passkey-Anmeldungen von Ihrer Adresse gestartet: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  too_many_connections: {
    en: 'Too many connections from your address: wait a minute and try again.',
    fr: 'Trop de connexions depuis votre adresse : attendez une minute et réessayez.',
    de: 'Zu viele Verbindungen von Ihrer Adresse: Warten Sie eine Minute und versuchen Sie es erneut.',
  },
  server_busy: {
    en: 'The server has as many connections as it can take: it will try again by itself in a moment.',
    fr: 'Le serveur a autant de connexions qu’il peut en prendre : nouvel essai automatique dans un instant.',
    de: 'Der Server hat so viele Verbindungen, wie er aufnehmen kann: Gleich wird es automatisch erneut versucht.',
  },
  bad_token: {
    en: 'The token is invalid, expired or revoked: sign in again.',
    fr: 'Le jeton est invalide, expiré ou révoqué : reconnectez-vous.',
    de: 'Das Token ist ungültig, abgelaufen oder widerrufen: Melden Sie sich erneut an.',
  },
  database_unavailable: {
    en: 'The database is not reachable now; try again in a moment.',
    fr: 'La base de données est injoignable pour le moment ; réessayez dans un instant.',
    de: 'Die Datenbank ist gerade nicht erreichbar; versuchen Sie es gleich noch einmal.',
  },
  disk_full: {
    en: 'The server has no disk space left to keep this file; nothing was saved. Try again later.',
    fr: 'Le serveur n’a plus d’espace disque pour garder ce fichier ; rien n’a été enregistré. Réessayez plus tard.',
    de: 'Auf dem Server ist kein Speicherplatz mehr frei, um diese Datei zu behalten; nichts wurde gespeichert. Versuchen Sie es später erneut.',
  },
  disk_reserve: {
    en: 'The server keeps its last disk space for its database: no file is taken now; nothing was saved. Try again later.',
    fr: 'Le serveur garde son dernier espace disque pour sa base de données : aucun fichier n’est accepté pour le moment ; rien n’a été enregistré. Réessayez plus tard.',
    de: 'Der Server hält seinen letzten Speicherplatz für seine Datenbank frei: Derzeit wird keine Datei angenommen; nichts wurde gespeichert. Versuchen Sie es später erneut.',
  },
  bad_request: { en: '{{details}}', fr: 'Requête invalide : {{details}}', de: 'Ungültige Anfrage: {{details}}' },
  server_error: {
    en: 'Something went wrong on the server.',
    fr: 'Une erreur s’est produite sur le serveur.',
    de: 'Auf dem Server ist ein Fehler aufgetreten.',
  },
};
