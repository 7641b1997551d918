/**
 * The server's sentences, by code (packages/protocol/src/server-messages.ts) and language: English keeps the
 * spec's sentences where section 8 gives them. Read through messages.ts.
 */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const SERVER_TEXTS: Record<ServerMessageCode, Texts> = {
  login_ok: { en: 'Login successful', fr: 'Connexion réussie', de: 'Anmeldung erfolgreich' },
  registered: { en: 'Register successfully', fr: 'Inscription réussie', de: 'Registrierung erfolgreich' },
  signed_out: { en: 'Signed out.', fr: 'Déconnecté.', de: 'Abgemeldet.' },
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
  connected_to_channel: { en: 'Connected to the channel.', fr: 'Connecté au canal.', de: 'Mit dem Kanal verbunden.' },
  microphone_on: { en: 'Microphone on.', fr: 'Micro activé.', de: 'Mikrofon an.' },
  microphone_off: { en: 'Microphone off.', fr: 'Micro coupé.', de: 'Mikrofon aus.' },
  activities_deleted: {
    en: 'Activities were deleted successfully.',
    fr: 'Les activités ont été supprimées.',
    de: 'Die Aktivitäten wurden gelöscht.',
  },
  message_sent: { en: 'Message sent', fr: 'Message envoyé', de: 'Nachricht gesendet' },
  message_deleted: { en: 'Message deleted', fr: 'Message supprimé', de: 'Nachricht gelöscht' },
  image_sent: { en: 'Image sent', fr: 'Image envoyée', de: 'Bild gesendet' },

  sso_code_invalid: {
    en: 'This single sign-on has expired or was already used: sign in again.',
    fr: 'Cette authentification unique a expiré ou a déjà servi : connectez-vous à nouveau.',
    de: 'Diese Einmalanmeldung ist abgelaufen oder wurde schon verwendet: Melden Sie sich erneut an.',
  },
  password_sign_in_off: {
    en: 'Sign-in with a password is turned off here: use single sign-on.',
    fr: 'La connexion par mot de passe est désactivée ici : utilisez l’authentification unique.',
    de: 'Die Anmeldung mit Passwort ist hier abgeschaltet: Verwenden Sie die Einmalanmeldung.',
  },
  sso_code_other_browser: {
    en: 'This single sign-on was started in another browser: start it again here.',
    fr: 'Cette authentification unique a été lancée dans un autre navigateur : recommencez-la ici.',
    de: 'Diese Einmalanmeldung wurde in einem anderen Browser begonnen: Beginnen Sie sie hier neu.',
  },
  sso_off: {
    en: 'Single sign-on is not set up on this server.',
    fr: 'L’authentification unique n’est pas configurée sur ce serveur.',
    de: 'Die Einmalanmeldung ist auf diesem Server nicht eingerichtet.',
  },
  sso_not_linked: {
    en: 'Your account is not linked to the identity provider: confirm with your password or a code.',
    fr: 'Votre compte n’est pas lié au fournisseur d’identité : confirmez avec votre mot de passe ou un code.',
    de: 'Ihr Konto ist nicht mit dem Identitätsanbieter verknüpft: Bestätigen Sie mit Ihrem Passwort oder einem Code.',
  },
  sso_link_exists: {
    en: 'Your account is already linked to an identity at this provider: unlink it first.',
    fr: 'Votre compte est déjà lié à une identité chez ce fournisseur : supprimez d’abord ce lien.',
    de: 'Ihr Konto ist bereits mit einer Identität bei diesem Anbieter verknüpft: Heben Sie diese Verknüpfung zuerst auf.',
  },
  identity_link_not_found: {
    en: 'No such link to the identity provider.',
    fr: 'Ce lien avec le fournisseur d’identité n’existe pas.',
    de: 'Diese Verknüpfung mit dem Identitätsanbieter gibt es nicht.',
  },
  identity_request_not_found: {
    en: 'This pending sign-in no longer exists.',
    fr: 'Cette connexion en attente n’existe plus.',
    de: 'Diese wartende Anmeldung gibt es nicht mehr.',
  },
  unlink_sso_only: {
    en: 'Your organisation signs in through the identity provider only: the link stays (an administrator can remove it).',
    fr: 'Votre organisation se connecte uniquement par le fournisseur d’identité : le lien reste (un administrateur peut le supprimer).',
    de: 'Ihre Organisation meldet sich nur über den Identitätsanbieter an: Die Verknüpfung bleibt (ein Administrator kann sie entfernen).',
  },
  invalid_credentials: {
    en: 'Invalid login or password.',
    fr: 'Identifiant ou mot de passe incorrect.',
    de: 'Benutzername oder Passwort falsch.',
  },
  too_many_attempts: {
    en: 'Too many sign-in attempts: wait 15 minutes and try again.',
    fr: 'Trop de tentatives de connexion : attendez 15 minutes puis réessayez.',
    de: 'Zu viele Anmeldeversuche: Warten Sie 15 Minuten und versuchen Sie es erneut.',
  },
  token_missing: {
    en: 'Missing or invalid token: sign in again.',
    fr: 'Jeton absent ou invalide : reconnectez-vous.',
    de: 'Token fehlt oder ist ungültig: Melden Sie sich erneut an.',
  },
  session_expired: {
    en: 'Your session has expired or was revoked: sign in again.',
    fr: 'Votre session a expiré ou a été révoquée : reconnectez-vous.',
    de: 'Ihre Sitzung ist abgelaufen oder wurde beendet: Melden Sie sich erneut an.',
  },
  token_invalid: {
    en: 'The token is invalid, expired or revoked.',
    fr: 'Le jeton est invalide, expiré ou révoqué.',
    de: 'Das Token ist ungültig, abgelaufen oder widerrufen.',
  },
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
  floor_busy: {
    en: '{{name}} is talking: wait until the channel is free.',
    fr: '{{name}} parle : attendez que le canal soit libre.',
    de: '{{name}} spricht: warten Sie, bis der Kanal frei ist.',
  },
  listen_only: {
    en: 'You may only listen in this channel.',
    fr: 'Vous pouvez seulement écouter dans ce canal.',
    de: 'Sie dürfen in diesem Kanal nur zuhören.',
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
  signup_closed: {
    en: 'Sign-up is closed: an administrator must create your account.',
    fr: 'Les inscriptions sont fermées : un administrateur doit créer votre compte.',
    de: 'Die Registrierung ist geschlossen: Ein Administrator muss Ihr Konto anlegen.',
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
  call_not_found: { en: 'Call not found.', fr: 'Appel introuvable.', de: 'Anruf nicht gefunden.' },
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
  no_such_call: {
    en: 'No such call: {{method}} {{path}}',
    fr: 'Appel inconnu : {{method}} {{path}}',
    de: 'Unbekannter Aufruf: {{method}} {{path}}',
  },
  sign_in_wait_account: {
    en: 'Too many failed sign-ins for this account: wait {{seconds}} seconds and try again.',
    fr: 'Trop d’échecs de connexion pour ce compte : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele fehlgeschlagene Anmeldungen für dieses Konto: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  sign_in_wait_address: {
    en: 'Too many failed sign-ins from your address: wait {{seconds}} seconds and try again.',
    fr: 'Trop d’échecs de connexion depuis votre adresse : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele fehlgeschlagene Anmeldungen von Ihrer Adresse: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
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
  password_too_short: {
    en: 'password: must be at least {{min}} characters long.',
    fr: 'Le mot de passe doit contenir au moins {{min}} caractères.',
    de: 'Das Passwort muss mindestens {{min}} Zeichen lang sein.',
  },
  password_too_common: {
    en: 'password: this password is too common; choose another one.',
    fr: 'Ce mot de passe est trop courant : choisissez-en un autre.',
    de: 'Dieses Passwort ist zu verbreitet: Wählen Sie ein anderes.',
  },
  current_password_required: {
    en: 'currentPassword: give your current password to change it.',
    fr: 'Saisissez votre mot de passe actuel pour le changer.',
    de: 'Geben Sie Ihr aktuelles Passwort ein, um es zu ändern.',
  },
  current_password_wrong: {
    en: 'currentPassword: the current password is wrong.',
    fr: 'Le mot de passe actuel est incorrect.',
    de: 'Das aktuelle Passwort ist falsch.',
  },
  geofence_created: { en: 'Geofence created', fr: 'Zone créée', de: 'Zone erstellt' },
  geofence_updated: { en: 'Geofence updated', fr: 'Zone modifiée', de: 'Zone geändert' },
  geofence_deleted: { en: 'Geofence deleted', fr: 'Zone supprimée', de: 'Zone gelöscht' },
  geofence_not_found: { en: 'Geofence not found.', fr: 'Zone introuvable.', de: 'Zone nicht gefunden.' },
  monitor_list_saved: {
    en: 'Monitor list saved.',
    fr: 'Liste d’écoute enregistrée.',
    de: 'Abhörliste gespeichert.',
  },
  channels_patched: {
    en: 'Channels patched: what is said in one is heard in the others.',
    fr: 'Canaux raccordés : ce qui est dit dans l’un est entendu dans les autres.',
    de: 'Kanäle zusammengeschaltet: Was in einem gesagt wird, hören die anderen.',
  },
  channels_unpatched: { en: 'Patch removed.', fr: 'Raccordement supprimé.', de: 'Zusammenschaltung aufgehoben.' },
  call_ringing: { en: 'Calling {{name}}…', fr: 'Appel de {{name}}…', de: '{{name}} wird angerufen…' },
  call_answered: { en: 'Call accepted.', fr: 'Appel accepté.', de: 'Anruf angenommen.' },
  call_declined: { en: 'Call declined.', fr: 'Appel refusé.', de: 'Anruf abgelehnt.' },
  call_ended: { en: 'Call ended.', fr: 'Appel terminé.', de: 'Anruf beendet.' },
  call_settings_saved: {
    en: 'Call settings saved.',
    fr: 'Réglages des appels enregistrés.',
    de: 'Anrufeinstellungen gespeichert.',
  },
  patch_unavailable: {
    en: 'Channels can be patched only through the media server: this server has none (JANUS_URL), or one of these channels is peer to peer (voice mode mesh).',
    fr: 'Les canaux ne peuvent être raccordés que par le serveur média : ce serveur n’en a pas (JANUS_URL), ou l’un de ces canaux est en pair à pair (mode vocal mesh).',
    de: 'Kanäle lassen sich nur über den Medienserver zusammenschalten: Dieser Server hat keinen (JANUS_URL), oder einer dieser Kanäle ist Peer-to-Peer (Sprachmodus mesh).',
  },
  channel_already_patched: {
    en: 'The channel {{name}} is already patched: unpatch it first.',
    fr: 'Le canal {{name}} est déjà raccordé : supprimez d’abord ce raccordement.',
    de: 'Der Kanal {{name}} ist bereits zusammengeschaltet: Heben Sie das zuerst auf.',
  },
  patch_not_found: { en: 'Patch not found.', fr: 'Raccordement introuvable.', de: 'Zusammenschaltung nicht gefunden.' },
  private_call_not_found: { en: 'Call not found.', fr: 'Appel introuvable.', de: 'Anruf nicht gefunden.' },
  private_calls_not_auditable: {
    en: 'Private calls are not open to audit on this server: it runs without PRIVATE_CALLS_AUDITABLE=true.',
    fr: 'Les appels privés ne sont pas ouverts à l’audit sur ce serveur : il fonctionne sans PRIVATE_CALLS_AUDITABLE=true.',
    de: 'Privatanrufe sind auf diesem Server nicht für Prüfungen freigegeben: Er läuft ohne PRIVATE_CALLS_AUDITABLE=true.',
  },
  call_not_allowed: {
    en: 'You may not call this person privately: a member calls the dispatchers and administrators of its channels.',
    fr: 'Vous ne pouvez pas appeler cette personne en privé : un membre appelle les répartiteurs et les administrateurs de ses canaux.',
    de: 'Sie dürfen diese Person nicht privat anrufen: Ein Mitglied ruft die Disponenten und Administratoren seiner Kanäle an.',
  },
  call_self: {
    en: 'userId: you cannot call yourself.',
    fr: 'Vous ne pouvez pas vous appeler vous-même.',
    de: 'Sie können sich nicht selbst anrufen.',
  },
  call_busy: {
    en: 'Busy: this person cannot take your call now. Try again later.',
    fr: 'Occupé : cette personne ne peut pas prendre votre appel maintenant. Réessayez plus tard.',
    de: 'Besetzt: Diese Person kann Ihren Anruf gerade nicht annehmen. Versuchen Sie es später erneut.',
  },
  call_in_progress: {
    en: 'You are already in a call: end it first.',
    fr: 'Vous êtes déjà en communication : terminez d’abord cet appel.',
    de: 'Sie sind bereits in einem Gespräch: Beenden Sie es zuerst.',
  },
  call_not_ringing: {
    en: 'This call is no longer ringing.',
    fr: 'Cet appel ne sonne plus.',
    de: 'Dieser Anruf klingelt nicht mehr.',
  },
  too_many_calls: {
    en: 'Too many private calls: wait {{seconds}} s.',
    fr: 'Trop d’appels privés : attendez {{seconds}} s.',
    de: 'Zu viele Privatanrufe: Warten Sie {{seconds}} s.',
  },
  not_a_call_party: {
    en: 'This call is not yours.',
    fr: 'Cet appel ne vous concerne pas.',
    de: 'Dieser Anruf betrifft Sie nicht.',
  },
  push_saved: {
    en: 'Notifications are on for this device.',
    fr: 'Les notifications sont activées sur cet appareil.',
    de: 'Benachrichtigungen sind auf diesem Gerät eingeschaltet.',
  },
  push_deleted: {
    en: 'Notifications are off for this device.',
    fr: 'Les notifications sont désactivées sur cet appareil.',
    de: 'Benachrichtigungen sind auf diesem Gerät ausgeschaltet.',
  },
  totp_on: {
    en: 'Two-step verification is on. Keep your recovery codes somewhere safe: they are shown only once.',
    fr: 'La validation en deux étapes est activée. Gardez vos codes de récupération en lieu sûr : ils ne sont affichés qu’une fois.',
    de: 'Die Zwei-Schritt-Verifizierung ist eingeschaltet. Bewahren Sie Ihre Wiederherstellungscodes sicher auf: Sie werden nur einmal angezeigt.',
  },
  totp_off: {
    en: 'Two-step verification is off.',
    fr: 'La validation en deux étapes est désactivée.',
    de: 'Die Zwei-Schritt-Verifizierung ist ausgeschaltet.',
  },
  second_factor_reset: {
    en: 'The user’s second factor was removed: they sign in with their password and set up a new one.',
    fr: 'Le second facteur de l’utilisateur a été supprimé : il se connecte avec son mot de passe et en configure un nouveau.',
    de: 'Der zweite Faktor des Benutzers wurde entfernt: Er meldet sich mit seinem Passwort an und richtet einen neuen ein.',
  },
  identity_linked: {
    en: 'The identity was linked to the account: it signs in with the provider from now on.',
    fr: 'L’identité a été liée au compte : elle se connecte désormais par le fournisseur.',
    de: 'Die Identität wurde mit dem Konto verknüpft: Sie meldet sich ab jetzt über den Anbieter an.',
  },
  identity_unlinked: {
    en: 'The link to the identity provider was removed.',
    fr: 'Le lien avec le fournisseur d’identité a été supprimé.',
    de: 'Die Verknüpfung mit dem Identitätsanbieter wurde entfernt.',
  },
  identity_request_dismissed: {
    en: 'The pending sign-in was dismissed.',
    fr: 'La connexion en attente a été ignorée.',
    de: 'Die wartende Anmeldung wurde verworfen.',
  },
  security_policy_saved: {
    en: 'Security settings saved.',
    fr: 'Paramètres de sécurité enregistrés.',
    de: 'Sicherheitseinstellungen gespeichert.',
  },
  push_off: {
    en: 'Notifications are turned off on this server.',
    fr: 'Les notifications sont désactivées sur ce serveur.',
    de: 'Benachrichtigungen sind auf diesem Server ausgeschaltet.',
  },
  push_endpoint_https: {
    en: 'The push service address must be an https:// address.',
    fr: 'L’adresse du service de notifications doit commencer par https://.',
    de: 'Die Adresse des Push-Dienstes muss mit https:// beginnen.',
  },
  push_endpoint_private: {
    en: 'The push service address leads to a private or local network: the server does not send there.',
    fr: 'L’adresse du service de notifications mène à un réseau privé ou local : le serveur n’y envoie rien.',
    de: 'Die Adresse des Push-Dienstes führt in ein privates oder lokales Netz: Der Server sendet nicht dorthin.',
  },
  push_endpoint_unknown: {
    en: 'The push service address does not resolve: check the device’s network and try again.',
    fr: 'L’adresse du service de notifications est introuvable : vérifiez le réseau de l’appareil et réessayez.',
    de: 'Die Adresse des Push-Dienstes wird nicht gefunden: Prüfen Sie das Netz des Geräts und versuchen Sie es erneut.',
  },
  push_endpoint_taken: {
    en: 'This push address is saved for another account: subscribe this device again to get a new one.',
    fr: 'Cette adresse de notifications est enregistrée pour un autre compte : réabonnez cet appareil pour en obtenir une nouvelle.',
    de: 'Diese Push-Adresse ist für ein anderes Konto gespeichert: Abonnieren Sie auf diesem Gerät erneut, um eine neue zu erhalten.',
  },
  push_decline_refused: {
    en: 'This call cannot be declined with this key.',
    fr: 'Cet appel ne peut pas être refusé avec cette clé.',
    de: 'Dieser Anruf kann mit diesem Schlüssel nicht abgelehnt werden.',
  },
  push_key_invalid: {
    en: 'The subscription’s p256dh key is not a valid P-256 public key.',
    fr: 'La clé p256dh de l’abonnement n’est pas une clé publique P-256 valide.',
    de: 'Der p256dh-Schlüssel des Abonnements ist kein gültiger öffentlicher P-256-Schlüssel.',
  },
  passkey_added: {
    en: 'The passkey was added: you can sign in with it.',
    fr: 'La clé d’accès a été ajoutée : vous pouvez vous connecter avec.',
    de: 'Der Passkey wurde hinzugefügt: Sie können sich damit anmelden.',
  },
  passkey_deleted: {
    en: 'The passkey was deleted.',
    fr: 'La clé d’accès a été supprimée.',
    de: 'Der Passkey wurde gelöscht.',
  },
  session_ended: {
    en: 'That session was signed out.',
    fr: 'Cette session a été déconnectée.',
    de: 'Diese Sitzung wurde abgemeldet.',
  },
  passkey_invalid: {
    en: 'The passkey could not be checked (expired or already used request, or another site): try again.',
    fr: 'La clé d’accès n’a pas pu être vérifiée (demande expirée ou déjà utilisée, ou autre site) : réessayez.',
    de: 'Der Passkey konnte nicht geprüft werden (Anfrage abgelaufen, schon verwendet oder andere Website): Versuchen Sie es erneut.',
  },
  passkey_exists: {
    en: 'This passkey is already registered.',
    fr: 'Cette clé d’accès est déjà enregistrée.',
    de: 'Dieser Passkey ist bereits registriert.',
  },
  passkey_unknown: {
    en: 'This passkey belongs to no account here: sign in with your password, then add it again.',
    fr: 'Cette clé d’accès ne correspond à aucun compte ici : connectez-vous avec votre mot de passe, puis ajoutez-la de nouveau.',
    de: 'Dieser Passkey gehört hier zu keinem Konto: Melden Sie sich mit Ihrem Passwort an und fügen Sie ihn erneut hinzu.',
  },
  passkey_not_found: {
    en: 'No such passkey on your account.',
    fr: 'Aucune clé d’accès de ce type sur votre compte.',
    de: 'Kein solcher Passkey in Ihrem Konto.',
  },
  identity_confirmed: {
    en: 'Thank you: for 5 minutes you can change how you sign in.',
    fr: 'Merci : pendant 5 minutes, vous pouvez modifier vos moyens de connexion.',
    de: 'Danke: 5 Minuten lang können Sie Ihre Anmeldemethoden ändern.',
  },
  passkeys_off: {
    en: 'Passkeys are off on this server: its administrator turns them on by setting PUBLIC_URL (the address users reach).',
    fr: 'Les clés d’accès sont désactivées sur ce serveur : son administrateur les active en définissant PUBLIC_URL (l’adresse où les utilisateurs l’atteignent).',
    de: 'Passkeys sind auf diesem Server ausgeschaltet: Die Administration schaltet sie ein, indem sie PUBLIC_URL setzt (die Adresse, unter der die Benutzer ihn erreichen).',
  },
  passkey_unverified: {
    en: 'This passkey did not verify you (PIN, fingerprint or face) and your account needs two factors: use a passkey that does, or sign in with your password.',
    fr: 'Cette clé d’accès ne vous a pas vérifié (code PIN, empreinte ou visage) et votre compte exige deux facteurs : utilisez une clé d’accès qui le fait, ou connectez-vous avec votre mot de passe.',
    de: 'Dieser Passkey hat Sie nicht verifiziert (PIN, Fingerabdruck oder Gesicht) und Ihr Konto verlangt zwei Faktoren: Verwenden Sie einen Passkey, der das tut, oder melden Sie sich mit Ihrem Passwort an.',
  },
  passkey_verification_required: {
    en: 'Your account needs two factors and this passkey did not verify you (PIN, fingerprint or face): add one that does, such as your phone’s screen lock or a security key with a PIN.',
    fr: 'Votre compte exige deux facteurs et cette clé d’accès ne vous a pas vérifié (code PIN, empreinte ou visage) : ajoutez-en une qui le fait, comme le verrouillage d’écran de votre téléphone ou une clé de sécurité avec code PIN.',
    de: 'Ihr Konto verlangt zwei Faktoren und dieser Passkey hat Sie nicht verifiziert (PIN, Fingerabdruck oder Gesicht): Fügen Sie einen hinzu, der das tut, etwa die Bildschirmsperre Ihres Telefons oder einen Sicherheitsschlüssel mit PIN.',
  },
  too_many_passkey_sign_ins: {
    en: 'Too many passkey sign-ins started from your address: wait {{seconds}} seconds and try again.',
    fr: 'Trop de connexions par clé d’accès lancées depuis votre adresse : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele Passkey-Anmeldungen von Ihrer Adresse gestartet: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  identity_password_wrong: {
    en: 'This password is wrong: enter the one you sign in with.',
    fr: 'Ce mot de passe est incorrect : saisissez celui avec lequel vous vous connectez.',
    de: 'Dieses Passwort ist falsch: Geben Sie das Passwort ein, mit dem Sie sich anmelden.',
  },
  too_many_sign_ups: {
    en: 'Too many accounts created from your address: wait {{seconds}} seconds and try again.',
    fr: 'Trop de comptes créés depuis votre adresse : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele Konten von Ihrer Adresse angelegt: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  session_not_found: {
    en: 'No such session: it may have ended already.',
    fr: 'Session introuvable : elle est peut-être déjà terminée.',
    de: 'Keine solche Sitzung: Sie ist vielleicht schon beendet.',
  },
  push_auth_invalid: {
    en: 'The subscription’s auth secret must be 16 bytes (base64url).',
    fr: 'Le secret auth de l’abonnement doit faire 16 octets (base64url).',
    de: 'Das auth-Geheimnis des Abonnements muss 16 Byte lang sein (base64url).',
  },
  account_disabled: {
    en: 'This account is disabled: ask your administrator.',
    fr: 'Ce compte est désactivé : contactez votre administrateur.',
    de: 'Dieses Konto ist deaktiviert: Wenden Sie sich an Ihre Administration.',
  },
  second_factor_required: {
    en: 'Enter the 6-digit code of your authenticator app, or one of your recovery codes.',
    fr: 'Saisissez le code à 6 chiffres de votre application d’authentification, ou l’un de vos codes de récupération.',
    de: 'Geben Sie den 6-stelligen Code Ihrer Authenticator-App oder einen Ihrer Wiederherstellungscodes ein.',
  },
  second_factor_wrong: {
    en: 'This verification code is wrong or was already used: enter the current code of your app, or an unused recovery code.',
    fr: 'Ce code de validation est faux ou a déjà servi : saisissez le code actuel de votre application, ou un code de récupération inutilisé.',
    de: 'Dieser Bestätigungscode ist falsch oder wurde schon verwendet: Geben Sie den aktuellen Code Ihrer App oder einen unbenutzten Wiederherstellungscode ein.',
  },
  second_factor_passkey: {
    en: 'Your organisation requires a second factor for your role: sign in with your passkey.',
    fr: 'Votre organisation exige un second facteur pour votre rôle : connectez-vous avec votre clé d’accès.',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor: Melden Sie sich mit Ihrem Passkey an.',
  },
  passkey_required_by_policy: {
    en: 'Your organisation requires a second factor for your role and this passkey is your last one: add another first (an administrator can reset it).',
    fr: 'Votre organisation exige un second facteur pour votre rôle et cette clé d’accès est la dernière : ajoutez-en une autre d’abord (un administrateur peut la réinitialiser).',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor und dieser Passkey ist Ihr letzter: Fügen Sie zuerst einen weiteren hinzu (ein Administrator kann ihn zurücksetzen).',
  },
  second_factor_setup_required: {
    en: 'Your organisation requires a second factor for your role: set up two-step verification or a passkey on your account page first.',
    fr: 'Votre organisation exige un second facteur pour votre rôle : configurez d’abord la validation en deux étapes ou une clé d’accès sur la page de votre compte.',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor: Richten Sie zuerst auf Ihrer Kontoseite die Zwei-Schritt-Verifizierung oder einen Passkey ein.',
  },
  confirm_identity: {
    en: 'Confirm it’s you first: give your password or a code again.',
    fr: 'Confirmez d’abord que c’est bien vous : saisissez de nouveau votre mot de passe ou un code.',
    de: 'Bestätigen Sie zuerst, dass Sie es sind: Geben Sie Ihr Passwort oder einen Code erneut ein.',
  },
  totp_already_on: {
    en: 'Two-step verification is already on: turn it off first to set it up again.',
    fr: 'La validation en deux étapes est déjà activée : désactivez-la d’abord pour la configurer à nouveau.',
    de: 'Die Zwei-Schritt-Verifizierung ist bereits eingeschaltet: Schalten Sie sie zuerst aus, um sie neu einzurichten.',
  },
  totp_not_started: {
    en: 'Start the setup of two-step verification first.',
    fr: 'Commencez d’abord la configuration de la validation en deux étapes.',
    de: 'Beginnen Sie zuerst mit der Einrichtung der Zwei-Schritt-Verifizierung.',
  },
  totp_not_on: {
    en: 'Two-step verification is not on.',
    fr: 'La validation en deux étapes n’est pas activée.',
    de: 'Die Zwei-Schritt-Verifizierung ist nicht eingeschaltet.',
  },
  totp_code_wrong: {
    en: 'This code is wrong: enter the 6-digit code your authenticator app shows now.',
    fr: 'Ce code est faux : saisissez le code à 6 chiffres que votre application d’authentification affiche maintenant.',
    de: 'Dieser Code ist falsch: Geben Sie den 6-stelligen Code ein, den Ihre Authenticator-App jetzt anzeigt.',
  },
  totp_required_by_policy: {
    en: 'Your organisation requires a second factor for your role: two-step verification stays on (an administrator can reset it).',
    fr: 'Votre organisation exige un second facteur pour votre rôle : la validation en deux étapes reste activée (un administrateur peut la réinitialiser).',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor: Die Zwei-Schritt-Verifizierung bleibt eingeschaltet (ein Administrator kann sie zurücksetzen).',
  },
  voice_recording_off: {
    en: 'Recording is turned off for this channel.',
    fr: 'L’enregistrement est désactivé pour ce canal.',
    de: 'Die Aufnahme ist für diesen Kanal ausgeschaltet.',
  },
  voice_recorded_by_server: {
    en: "The media server records this channel's transmissions: a recording sent by a browser is not kept.",
    fr: 'Le serveur média enregistre les transmissions de ce canal : un enregistrement envoyé par un navigateur n’est pas conservé.',
    de: 'Der Medienserver zeichnet die Übertragungen dieses Kanals auf: Eine vom Browser gesendete Aufnahme wird nicht aufbewahrt.',
  },
  voice_no_grant: {
    en: 'No transmission of yours matches this recording: only what you said while the floor was yours is kept, once (its start within 5 s of the grant, its length within the grant).',
    fr: 'Aucune de vos transmissions ne correspond à cet enregistrement : seul ce que vous avez dit pendant que vous aviez la parole est conservé, une fois (début à 5 s près, durée dans celle de la prise de parole).',
    de: 'Keine Ihrer Übertragungen passt zu dieser Aufnahme: Nur was Sie sagten, während Sie das Wort hatten, wird einmal aufbewahrt (Beginn auf 5 s genau, Dauer innerhalb der Wortmeldung).',
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
  bad_request: { en: '{{details}}', fr: 'Requête invalide : {{details}}', de: 'Ungültige Anfrage: {{details}}' },
  server_error: {
    en: 'Something went wrong on the server.',
    fr: 'Une erreur s’est produite sur le serveur.',
    de: 'Auf dem Server ist ein Fehler aufgetreten.',
  },
};
